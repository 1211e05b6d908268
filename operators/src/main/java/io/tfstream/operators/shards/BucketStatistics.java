package io.tfstream.operators.shards;

import io.tfstream.shards.BucketClock;
import io.tfstream.shards.ShardManifest;
import io.tfstream.shards.TfxSplits;
import io.tfstream.stats.ExampleStatistics;
import io.tfstream.validation.report.StatsReport;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.tensorflow.metadata.v0.DatasetFeatureStatistics;
import org.tensorflow.metadata.v0.DatasetFeatureStatisticsList;

/**
 * Writes a finished bucket's TFDV statistics ({@code shards.statistics}) before its {@code
 * _SUCCESS}: per data split, the statistics of the shards the marker lists, merged from the files
 * the committer wrote beside their manifests, as {@code _statistics/Split-<name>/FeatureStats.pb}
 * (without splits {@code _statistics/FeatureStats.pb}) in the bucket's metadata directory: a binary
 * {@code DatasetFeatureStatisticsList} with one dataset named "", which is what TFX's {@code
 * ExampleStatistics} artifact holds and {@code tfdv.load_stats_binary} reads. Every configured
 * split gets its file, one without shards in the bucket with 0 examples.
 *
 * <p>With {@code shards.statistics-report}, each split's {@code report.html} goes beside its {@code
 * FeatureStats.pb}: the page of {@code tfstream report}, comparing the bucket with the previous
 * event-time bucket (its statistics of the same split) when that one has them.
 *
 * <p>A shard whose manifest names no statistics, or whose statistics were kept with other settings
 * or cannot be read, is read back instead (committed by an earlier version, or before statistics
 * were turned on): the files are always those of every listed shard. Writing again (a late shard, a
 * repeated commit) merges the current listing again and replaces them.
 */
final class BucketStatistics {
    /** The page written beside each {@code FeatureStats.pb} with {@code statistics.report}. */
    static final String REPORT_FILE = "report.html";

    private final ShardSettings settings;
    private final ShardFeatureStatistics statistics;

    BucketStatistics(ShardSettings settings) {
        this.settings = settings;
        this.statistics = settings.statistics();
    }

    /**
     * Writes the statistics of event-time bucket {@code bucket}'s shards {@code manifests} (and
     * their reports; the bucket ends at {@code endMs}) and returns the statistics files relative to
     * the marker's directory.
     */
    List<String> write(FileSystem fs, String bucket, long endMs, List<ShardManifest> manifests)
            throws IOException {
        Map<String, ExampleStatistics> bySplit = new LinkedHashMap<>();
        TfxSplits splits = settings.splits();
        if (splits == null) {
            bySplit.put(null, statistics.empty());
        } else {
            for (TfxSplits.Split s : splits.splits()) {
                bySplit.put(s.name(), statistics.empty());
            }
        }
        for (ShardManifest m : manifests) {
            ExampleStatistics into = bySplit.get(splitOf(m.bucket()));
            if (into != null) {
                into.merge(of(fs, m));
            }
        }
        List<String> files = new ArrayList<>();
        String markerDir = settings.metadataDir(bucket);
        String previous = statistics.report() ? previousBucket(endMs) : null;
        for (Map.Entry<String, ExampleStatistics> e : bySplit.entrySet()) {
            String path = settings.layout().statisticsPath(settings.basePath(), bucket, e.getKey());
            DatasetFeatureStatistics dataset = e.getValue().build("");
            byte[] bytes =
                    DatasetFeatureStatisticsList.newBuilder()
                            .addDatasets(dataset)
                            .build()
                            .toByteArray();
            SuccessMarkers.writeWhole(new Path(path), bytes);
            files.add(path.substring(markerDir.length() + 1));
            if (statistics.report()) {
                writeReport(fs, path, bucket, dataset, previous, e.getKey());
            }
        }
        return files;
    }

    /** The page of {@code dataset}, beside its statistics at {@code path}. */
    private void writeReport(
            FileSystem fs,
            String path,
            String bucket,
            DatasetFeatureStatistics dataset,
            String previous,
            String split)
            throws IOException {
        String title = "Bucket " + bucket + (split == null ? "" : ", split " + split);
        StatsReport.Builder report = StatsReport.of(bucket, dataset).title(title);
        DatasetFeatureStatistics before = previous == null ? null : read(fs, previous, split);
        if (before != null) {
            report.compare(previous, before);
        }
        String html = path.substring(0, path.lastIndexOf('/') + 1) + REPORT_FILE;
        SuccessMarkers.writeWhole(
                new Path(html), report.build().html().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The event-time bucket before the one ending at {@code endMs}, or null (a bucket of processing
     * time, which has no end, or none before).
     */
    private String previousBucket(long endMs) {
        if (endMs == Long.MAX_VALUE || endMs == Long.MIN_VALUE) {
            return null;
        }
        BucketClock clock = new BucketClock(settings.bucketPattern(), settings.zone());
        long start = clock.startOf(endMs - 1);
        return start == Long.MIN_VALUE ? null : clock.bucketOf(start - 1);
    }

    /** The statistics of split {@code split} of bucket {@code bucket}, or null when unreadable. */
    private DatasetFeatureStatistics read(FileSystem fs, String bucket, String split) {
        Path p = new Path(settings.layout().statisticsPath(settings.basePath(), bucket, split));
        try (InputStream in = fs.open(p)) {
            DatasetFeatureStatisticsList list = DatasetFeatureStatisticsList.parseFrom(in);
            return list.getDatasetsCount() == 1 ? list.getDatasets(0) : null;
        } catch (IOException | RuntimeException e) {
            return null; // not written (no records then, or statistics off), or damaged
        }
    }

    /** The data split of sink bucket {@code sinkBucket} ({@code .../Split-<name>}), or null. */
    private String splitOf(String sinkBucket) {
        if (settings.splits() == null || sinkBucket == null) {
            return null;
        }
        int at = sinkBucket.lastIndexOf("Split-");
        return at < 0 ? null : sinkBucket.substring(at + "Split-".length());
    }

    /** The statistics of the shard of {@code m}: its own file, or the shard read back. */
    private ExampleStatistics of(FileSystem fs, ShardManifest m) throws IOException {
        if (m.statistics() != null) {
            Path own = new Path(settings.metadataDir(m.bucket()) + "/" + m.statistics());
            try (InputStream in = fs.open(own)) {
                ExampleStatistics s = statistics.fromBytes(in.readAllBytes());
                if (s != null) {
                    return s;
                }
            } catch (IOException | RuntimeException e) {
                // gone or damaged: read the shard back
            }
        }
        return statistics.readBack(
                new Path(settings.bucketDir(m.bucket()) + "/" + m.shard()), m.compression());
    }
}
