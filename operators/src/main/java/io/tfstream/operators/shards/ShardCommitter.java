package io.tfstream.operators.shards;

import io.tfstream.shards.ShardManifest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.connector.file.sink.FileSinkCommittable;
import org.apache.flink.connector.file.sink.committer.FileCommitter;
import org.apache.flink.core.fs.Path;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

/**
 * Commits shards with Flink's {@link FileCommitter}, then writes each finished shard's manifest
 * ({@code <shard>.manifest.json}) from the statistics its committable carries, so a manifest
 * appears only once its shard is visible. A commit repeated after a recovery writes the same
 * manifest again. Manifests are written through the file system's recoverable writer: a reader sees
 * a whole manifest or none (local files: renamed into place; S3: a completed upload).
 *
 * <p>A bucket's {@link ShardMarker} is handled after the shards committed with it: its {@code
 * _SUCCESS} is written by {@link SuccessMarkers}.
 *
 * <p>Metrics under {@code tfstream}: {@code shardsFinished}, {@code shardRecordsFinished}, {@code
 * shardBytesFinished}, the {@code shardSize} histogram, {@code successMarkers} (a commit repeated
 * after a recovery is counted again).
 */
@SuppressWarnings("try") // close() is Flink's AutoCloseable contract
final class ShardCommitter implements Committer<FileSinkCommittable> {
    private static final int HISTOGRAM_WINDOW = 1000;

    private final Committer<FileSinkCommittable> files;
    private final ShardSettings settings;
    private final java.time.Duration markerWait;
    private SuccessMarkers successMarkers;
    final Counter markers;
    final Counter finished;
    final Counter finishedRecords;
    final Counter finishedBytes;
    final Histogram size;

    ShardCommitter(
            Committer<FileSinkCommittable> files, ShardSettings settings, MetricGroup metrics) {
        this(files, settings, metrics, SuccessMarkers.DEFAULT_WAIT);
    }

    ShardCommitter(
            Committer<FileSinkCommittable> files,
            ShardSettings settings,
            MetricGroup metrics,
            java.time.Duration markerWait) {
        this.files = files;
        this.settings = settings;
        this.markerWait = markerWait;
        MetricGroup g = metrics.addGroup("tfstream");
        this.markers = g.counter("successMarkers");
        this.finished = g.counter("shardsFinished");
        this.finishedRecords = g.counter("shardRecordsFinished");
        this.finishedBytes = g.counter("shardBytesFinished");
        this.size = g.histogram("shardSize", new DescriptiveStatisticsHistogram(HISTOGRAM_WINDOW));
    }

    @Override
    public void commit(Collection<CommitRequest<FileSinkCommittable>> requests)
            throws IOException, InterruptedException {
        List<ShardPendingFile> shards = new ArrayList<>();
        List<ShardMarker> markers = new ArrayList<>();
        List<CommitRequest<FileSinkCommittable>> files = new ArrayList<>(requests.size());
        for (CommitRequest<FileSinkCommittable> r : requests) {
            FileSinkCommittable c = r.getCommittable();
            if (c.hasPendingFile() && c.getPendingFile() instanceof ShardMarker) {
                markers.add((ShardMarker) c.getPendingFile());
                continue;
            }
            files.add(r);
            if (c.hasPendingFile()
                    && c.getPendingFile().getPath() != null
                    && !c.getPendingFile().getPath().getName().startsWith(".")) {
                shards.add((ShardPendingFile) c.getPendingFile());
            }
        }
        this.files.commit(files);
        for (ShardPendingFile s : shards) {
            if (settings.manifests()) {
                writeManifest(s);
            }
            finished.inc();
            finishedRecords.inc(s.stats().records());
            finishedBytes.inc(Math.max(0, s.fileBytes()));
            size.update(s.fileBytes());
        }
        for (ShardMarker m : markers) {
            markers().write(m);
            this.markers.inc();
        }
    }

    private SuccessMarkers markers() {
        if (successMarkers == null) {
            successMarkers = new SuccessMarkers(markerWait);
        }
        return successMarkers;
    }

    private void writeManifest(ShardPendingFile s) throws IOException {
        Path shard = s.getPath();
        ShardManifest m = manifestOf(s, settings);
        Path target = new Path(shard.getParent(), ShardManifest.fileNameOf(shard.getName()));
        SuccessMarkers.writeWhole(target, m.toJson());
    }

    /** The manifest of committed shard {@code s}. */
    static ShardManifest manifestOf(ShardPendingFile s, ShardSettings settings) {
        Path shard = s.getPath();
        String bucket = bucketOf(shard, new Path(settings.basePath()));
        return ShardManifest.of(
                shard.getName(),
                bucket,
                s.stats(),
                s.fileBytes(),
                settings.compression(),
                s.crc32c(),
                settings.schemaFingerprint(),
                s.parts());
    }

    /** The bucket directory of {@code shard} relative to {@code base}, "" for the base itself. */
    static String bucketOf(Path shard, Path base) {
        String dir = shard.getParent().toUri().getPath();
        String root = base.toUri().getPath();
        if (root.endsWith("/")) {
            root = root.substring(0, root.length() - 1);
        }
        if (dir.equals(root)) {
            return "";
        }
        return dir.startsWith(root + "/") ? dir.substring(root.length() + 1) : dir;
    }

    @Override
    public void close() throws Exception {
        files.close();
    }
}
