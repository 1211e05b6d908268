package io.tfstream.operators.shards;

import io.tfstream.operators.source.SourceRecord;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordWriter;
import java.io.IOException;
import java.util.Objects;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;

/**
 * Writes accepted records' original bytes as TFRecords (length, masked CRC32C of the length, data,
 * masked CRC32C of the data) into one part file, uncompressed or as one gzip / zlib stream at
 * TensorFlow's default level. {@link #finish()} writes the stream's trailer and flushes, but leaves
 * the part file's stream open for Flink to commit, as {@code BulkWriter} requires.
 */
public final class TfRecordBulkWriter implements BulkWriter<SourceRecord> {
    private final FSDataOutputStream out;
    private final Compression compression;
    private TfRecordWriter writer;

    TfRecordBulkWriter(FSDataOutputStream out, Compression compression) {
        this.out = Objects.requireNonNull(out, "out");
        this.compression = compression;
    }

    /**
     * The stream (and a gzip or zlib header) starts with the first record, not at creation:
     * FileSink compaction opens the compacted file through this factory too and then copies the
     * compacted bytes into the stream directly, so a writer that was never given a record must
     * leave no header and no trailer behind.
     */
    @Override
    public void addElement(SourceRecord record) throws IOException {
        if (writer == null) {
            writer =
                    TfRecordWriter.builder(out).compression(compression).closeTarget(false).build();
        }
        writer.write(record.value());
    }

    @Override
    public void flush() throws IOException {
        if (writer != null) {
            writer.flush();
        }
    }

    @Override
    public void finish() throws IOException {
        if (writer != null) {
            writer.finish();
        }
    }

    /** Records written so far. */
    public long records() {
        return writer == null ? 0 : writer.recordCount();
    }

    /** The factory: holds only the compression, builds writers on the task. */
    public static final class Factory implements BulkWriter.Factory<SourceRecord> {
        private static final long serialVersionUID = 1L;

        private final Compression compression;

        public Factory(Compression compression) {
            this.compression = Objects.requireNonNull(compression, "compression");
        }

        @Override
        public BulkWriter<SourceRecord> create(FSDataOutputStream out) {
            return new TfRecordBulkWriter(out, compression);
        }

        public Compression compression() {
            return compression;
        }
    }
}
