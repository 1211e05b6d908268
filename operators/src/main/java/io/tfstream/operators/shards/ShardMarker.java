package io.tfstream.operators.shards;

import io.tfstream.shards.ShardSuccessMarker;
import java.util.List;
import java.util.Objects;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.functions.sink.filesystem.InProgressFileWriter.PendingFileRecoverable;

/**
 * A request, travelling with the shard committables, to write a bucket's {@code _SUCCESS} marker:
 * the bucket, where it ends, and the shards the coordinator had the bucket compacted into since its
 * last marker (they are committed before the marker is written). Never a file to commit.
 */
final class ShardMarker implements PendingFileRecoverable {
    private final Path bucketDir;
    private final String bucket;
    private final long endMs;
    private final List<String> shards;

    ShardMarker(Path bucketDir, String bucket, long endMs, List<String> shards) {
        this.bucketDir = Objects.requireNonNull(bucketDir, "bucketDir");
        this.bucket = Objects.requireNonNull(bucket, "bucket");
        this.endMs = endMs;
        this.shards = List.copyOf(shards);
    }

    Path bucketDir() {
        return bucketDir;
    }

    String bucket() {
        return bucket;
    }

    long endMs() {
        return endMs;
    }

    /** Names of the shards the marker must list. */
    List<String> shards() {
        return shards;
    }

    @Override
    public Path getPath() {
        return new Path(bucketDir, ShardSuccessMarker.FILE_NAME);
    }

    @Override
    public long getSize() {
        return -1;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ShardMarker m
                && bucketDir.equals(m.bucketDir)
                && bucket.equals(m.bucket)
                && endMs == m.endMs
                && shards.equals(m.shards);
    }

    @Override
    public int hashCode() {
        return Objects.hash(bucketDir, bucket, endMs, shards);
    }

    @Override
    public String toString() {
        return "ShardMarker{" + bucket + " until " + endMs + ", " + shards + "}";
    }
}
