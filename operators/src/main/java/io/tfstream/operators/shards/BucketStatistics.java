package io.tfstream.operators.shards;

import io.tfstream.shards.ShardManifest;
import io.tfstream.shards.TfxSplits;
import io.tfstream.stats.ExampleStatistics;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
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
 * <p>A shard whose manifest names no statistics, or whose statistics were kept with other settings
 * or cannot be read, is read back instead (committed by an earlier version, or before statistics
 * were turned on): the files are always those of every listed shard. Writing again (a late shard, a
 * repeated commit) merges the current listing again and replaces them.
 */
final class BucketStatistics {
    private final ShardSettings settings;
    private final ShardFeatureStatistics statistics;

    BucketStatistics(ShardSettings settings) {
        this.settings = settings;
        this.statistics = settings.statistics();
    }

    /**
     * Writes the statistics of event-time bucket {@code bucket}'s shards {@code manifests} and
     * returns their files relative to the marker's directory.
     */
    List<String> write(FileSystem fs, String bucket, List<ShardManifest> manifests)
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
        for (Map.Entry<String, ExampleStatistics> e : bySplit.entrySet()) {
            String path = settings.layout().statisticsPath(settings.basePath(), bucket, e.getKey());
            byte[] bytes =
                    DatasetFeatureStatisticsList.newBuilder()
                            .addDatasets(e.getValue().build(""))
                            .build()
                            .toByteArray();
            SuccessMarkers.writeWhole(new Path(path), bytes);
            files.add(path.substring(markerDir.length() + 1));
        }
        return files;
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
