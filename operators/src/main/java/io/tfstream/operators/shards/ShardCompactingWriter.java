package io.tfstream.operators.shards;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.CRC32C;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.functions.sink.filesystem.InProgressFileWriter.PendingFileRecoverable;
import org.apache.flink.streaming.api.functions.sink.filesystem.OutputStreamBasedCompactingFileWriter;

/**
 * The file a compaction writes a shard into: counts and checksums (CRC32C) every byte on its way to
 * Flink's compacting writer, and on {@link #closeForCommit()} hands back a {@link ShardPendingFile}
 * with the merged statistics of the parts, the checksum, the size and the compaction time.
 */
final class ShardCompactingWriter implements OutputStreamBasedCompactingFileWriter {
    private final OutputStreamBasedCompactingFileWriter file;
    private final Path shard;
    private final ShardBucketWriter owner;
    private final long started = System.nanoTime();
    private CountingStream out;

    ShardCompactingWriter(
            OutputStreamBasedCompactingFileWriter file, Path shard, ShardBucketWriter owner) {
        this.file = file;
        this.shard = shard;
        this.owner = owner;
    }

    @Override
    public OutputStream asOutputStream() throws IOException {
        if (out == null) {
            out = new CountingStream(file.asOutputStream());
        }
        return out;
    }

    @Override
    public PendingFileRecoverable closeForCommit() throws IOException {
        CountingStream s = (CountingStream) asOutputStream();
        s.flush();
        PendingFileRecoverable pending = file.closeForCommit();
        ShardBucketWriter.CompactedParts parts = owner.takeCompaction(shard);
        owner.compacted(System.nanoTime() - started, s.count, parts.parts());
        return new ShardPendingFile(
                pending, parts.stats(), s.crc.getValue(), s.count, parts.parts());
    }

    /** Counts and checksums what passes; never closes the file's stream (Flink does). */
    private static final class CountingStream extends FilterOutputStream {
        final CRC32C crc = new CRC32C();
        long count;

        CountingStream(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            crc.update(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            crc.update(b, off, len);
            count += len;
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
