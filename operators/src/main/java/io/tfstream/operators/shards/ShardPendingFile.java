package io.tfstream.operators.shards;

import io.tfstream.shards.ShardStats;
import java.util.Objects;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.functions.sink.filesystem.InProgressFileWriter.PendingFileRecoverable;

/**
 * A part file or compacted shard ready to commit, with what it holds: the recoverable of Flink's
 * writer plus the {@link ShardStats} of its records, and for a compacted shard the CRC32C and size
 * of the file as stored and the number of parts merged into it. It travels in the sink's
 * committables (checkpointed state), so the manifest written at commit is the same after any
 * recovery.
 */
final class ShardPendingFile implements PendingFileRecoverable {
    /** {@link #crc32c()} of a part file, whose bytes are not checksummed. */
    static final long NO_CRC = -1;

    private final PendingFileRecoverable delegate;
    private final ShardStats stats;
    private final long crc32c;
    private final long fileBytes;
    private final int parts;

    ShardPendingFile(
            PendingFileRecoverable delegate,
            ShardStats stats,
            long crc32c,
            long fileBytes,
            int parts) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.stats = Objects.requireNonNull(stats, "stats");
        this.crc32c = crc32c;
        this.fileBytes = fileBytes;
        this.parts = parts;
    }

    /** A part file: its records, no checksum. */
    static ShardPendingFile part(PendingFileRecoverable delegate, ShardStats stats) {
        return new ShardPendingFile(delegate, stats, NO_CRC, -1, 1);
    }

    PendingFileRecoverable delegate() {
        return delegate;
    }

    ShardStats stats() {
        return stats;
    }

    long crc32c() {
        return crc32c;
    }

    /** Bytes of the file as stored, or -1 when not counted (part files). */
    long fileBytes() {
        return fileBytes;
    }

    int parts() {
        return parts;
    }

    @Override
    public Path getPath() {
        return delegate.getPath();
    }

    @Override
    public long getSize() {
        return delegate.getSize();
    }

    @Override
    public String toString() {
        return "ShardPendingFile{" + getPath() + ", " + stats + "}";
    }
}
