package io.tfstream.tfrecord;

import io.tfstream.tfrecord.CompressionStreams.DeflatingOutputStream;
import java.io.Closeable;
import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

/**
 * Writes TFRecord records as {@code RecordWriter::WriteRecord} in {@code
 * tensorflow/core/lib/io/record_writer.cc} does, optionally through a gzip or zlib stream as {@code
 * TFRecordOptions} configures it, so TensorFlow's reader accepts the output.
 *
 * <p>Records are framed into one reused buffer (records larger than it go straight through), so
 * writing allocates nothing per record. {@link #flush()} pushes everything written so far to the
 * target (a sync flush when compressing); {@link #finish()} completes the compressed stream but
 * leaves the target open, for encoders that write into a stream they do not own; {@link #close()}
 * also closes the target if the writer owns it. Optionally records a DALI index (uncompressed
 * output only).
 *
 * <p>Not thread-safe.
 */
public final class TfRecordWriter implements Closeable, Flushable {
    /** 64 KiB framing buffer. */
    public static final int DEFAULT_BUFFER_SIZE = 64 << 10;

    private final OutputStream target;
    private final DeflatingOutputStream compressor;
    private final OutputStream sink;
    private final boolean ownsTarget;
    private final TfRecordIndexWriter index;
    private final MaskedCrc32c crc = new MaskedCrc32c();
    private final byte[] buf;
    private int n;
    private long bytesWritten;
    private long records;
    private boolean finished;

    private TfRecordWriter(Builder b) throws IOException {
        this.target = b.target;
        this.ownsTarget = b.ownsTarget;
        this.index = b.index;
        this.buf = new byte[b.bufferSize];
        this.compressor = CompressionStreams.compressing(b.target, b.compression, b.bufferSize);
        this.sink = compressor == null ? b.target : compressor;
    }

    /** A builder writing to {@code target}; by default uncompressed and closing the target. */
    public static Builder builder(OutputStream target) {
        return new Builder(target);
    }

    /** Writes one record: all of {@code data}. */
    public void write(byte[] data) throws IOException {
        write(data, 0, data.length);
    }

    /** Writes one record: {@code data[off, off + len)}, framed, without copying it first. */
    public void write(byte[] data, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, data.length);
        if (finished) {
            throw new IllegalStateException("write after finish() or close()");
        }
        int framed = len + TfRecordFraming.OVERHEAD;
        if (framed > buf.length - n) {
            drain();
        }
        if (framed <= buf.length) {
            TfRecordFraming.putHeader(buf, n, len, crc);
            System.arraycopy(data, off, buf, n + TfRecordFraming.HEADER_SIZE, len);
            TfRecordFraming.putFooter(
                    buf, n + TfRecordFraming.HEADER_SIZE + len, data, off, len, crc);
            n += framed;
        } else {
            TfRecordFraming.writeRecord(sink, data, off, len, buf, crc);
        }
        if (index != null) {
            index.add(bytesWritten, framed);
        }
        bytesWritten += framed;
        records++;
    }

    /** Records written so far. */
    public long recordCount() {
        return records;
    }

    /** Uncompressed bytes written so far, framing included. */
    public long bytesWritten() {
        return bytesWritten;
    }

    private void drain() throws IOException {
        if (n > 0) {
            sink.write(buf, 0, n);
            n = 0;
        }
    }

    /** Pushes all records written so far to the target and flushes it (and the index). */
    @Override
    public void flush() throws IOException {
        drain();
        sink.flush();
        if (index != null) {
            index.flush();
        }
    }

    /**
     * Writes what is buffered and the compressed stream's trailer and flushes the target, but does
     * not close it. Further writes fail; calling it again does nothing.
     */
    public void finish() throws IOException {
        if (finished) {
            return;
        }
        finished = true;
        drain();
        if (compressor != null) {
            compressor.finish();
        }
        target.flush();
        if (index != null) {
            index.flush();
        }
    }

    /** {@link #finish()}, then closes the target if the writer owns it, and the index. */
    @Override
    public void close() throws IOException {
        try {
            finish();
        } finally {
            try {
                if (ownsTarget) {
                    target.close();
                }
            } finally {
                if (index != null) {
                    index.close();
                }
            }
        }
    }

    /** Settings of a {@link TfRecordWriter}, validated in {@link #build()}. */
    public static final class Builder {
        private final OutputStream target;
        private Compression compression = Compression.NONE;
        private boolean ownsTarget = true;
        private TfRecordIndexWriter index;
        private int bufferSize = DEFAULT_BUFFER_SIZE;

        private Builder(OutputStream target) {
            this.target = Objects.requireNonNull(target, "target");
        }

        public Builder compression(Compression c) {
            this.compression = Objects.requireNonNull(c, "compression");
            return this;
        }

        /** Whether {@link TfRecordWriter#close()} closes the target (default true). */
        public Builder closeTarget(boolean close) {
            this.ownsTarget = close;
            return this;
        }

        /** Adds one DALI index line per record; closed with the writer. */
        public Builder index(TfRecordIndexWriter indexWriter) {
            this.index = Objects.requireNonNull(indexWriter, "indexWriter");
            return this;
        }

        public Builder bufferSize(int size) {
            if (size < TfRecordFraming.OVERHEAD) {
                throw new IllegalArgumentException(
                        "bufferSize must be at least "
                                + TfRecordFraming.OVERHEAD
                                + ", got "
                                + size);
            }
            this.bufferSize = size;
            return this;
        }

        public TfRecordWriter build() throws IOException {
            if (index != null && compression != Compression.NONE) {
                throw new IllegalArgumentException(
                        "an index records offsets in the uncompressed file; set compression NONE"
                                + " (is "
                                + compression.cliName()
                                + ") or drop the index");
            }
            return new TfRecordWriter(this);
        }
    }
}
