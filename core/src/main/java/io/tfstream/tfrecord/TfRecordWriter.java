package io.tfstream.tfrecord;

import io.tfstream.tfrecord.CompressionStreams.DeflatingOutputStream;
import java.io.Closeable;
import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.util.Objects;
import java.util.zip.Deflater;

/**
 * Writes TFRecord records as {@code RecordWriter::WriteRecord} in {@code
 * tensorflow/core/lib/io/record_writer.cc} does, optionally through a gzip or zlib stream as {@code
 * TFRecordOptions} configures it, so TensorFlow's reader accepts the output.
 *
 * <p>Records are framed into one reused buffer (records larger than it go straight through), so
 * writing allocates nothing per record. Writing to a {@link WritableByteChannel} without
 * compression frames into an off-heap buffer, saving the copy a channel makes of heap buffers.
 * {@link #flush()} pushes everything written so far to the target (a sync flush when compressing);
 * {@link #finish()} completes the compressed stream but leaves the target open, for encoders that
 * write into a stream they do not own; {@link #close()} also closes the target if the writer owns
 * it. Optionally records a DALI index (uncompressed output only).
 *
 * <p>Not thread-safe.
 */
public final class TfRecordWriter implements Closeable, Flushable {
    /** 64 KiB framing buffer. */
    public static final int DEFAULT_BUFFER_SIZE = 64 << 10;

    private final Closeable target;
    private final Flushable targetFlush;
    private final WritableByteChannel channel; // set when framing straight into a channel
    private final DeflatingOutputStream compressor;
    private final OutputStream sink; // set when writing to a stream (compressed or not)
    private final boolean ownsTarget;
    private final TfRecordIndexWriter index;
    private final MaskedCrc32c crc = new MaskedCrc32c();
    private final ByteBuffer buf;
    private long bytesWritten;
    private long records;
    private boolean finished;

    private TfRecordWriter(Builder b) throws IOException {
        this.ownsTarget = b.ownsTarget;
        this.index = b.index;
        if (b.channel != null && b.compression == Compression.NONE) {
            // Off-heap buffer: the channel writes it without first copying it to native memory.
            this.channel = b.channel;
            this.target = b.channel;
            this.targetFlush = () -> {};
            this.compressor = null;
            this.sink = null;
            this.buf = ByteBuffer.allocateDirect(b.bufferSize);
        } else {
            OutputStream out = b.channel != null ? Channels.newOutputStream(b.channel) : b.stream;
            this.channel = null;
            this.target = out;
            this.targetFlush = out;
            this.compressor =
                    CompressionStreams.compressing(
                            out, b.compression, b.compressionLevel, b.bufferSize);
            this.sink = compressor == null ? out : compressor;
            this.buf = ByteBuffer.allocate(b.bufferSize);
        }
        buf.order(ByteOrder.LITTLE_ENDIAN);
    }

    /** A builder writing to {@code target}; by default uncompressed and closing the target. */
    public static Builder builder(OutputStream target) {
        return new Builder(Objects.requireNonNull(target, "target"), null);
    }

    /**
     * A builder writing to {@code target}, e.g. a {@code FileChannel}; uncompressed records are
     * framed in an off-heap buffer the channel writes directly.
     */
    public static Builder builder(WritableByteChannel target) {
        return new Builder(null, Objects.requireNonNull(target, "target"));
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
        TfRecordFraming.checkWritable(len);
        int framed = len + TfRecordFraming.OVERHEAD;
        if (framed > buf.remaining()) {
            drain();
        }
        int dataCrc = crc.maskedCrc(data, off, len);
        buf.putLong(len).putInt(crc.maskedLengthCrc(len));
        if (framed <= buf.remaining()) {
            buf.put(data, off, len).putInt(dataCrc);
        } else {
            drain();
            writeThrough(data, off, len);
            buf.putInt(dataCrc);
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
        if (buf.position() == 0) {
            return;
        }
        if (channel != null) {
            buf.flip();
            while (buf.hasRemaining()) {
                channel.write(buf);
            }
            buf.clear();
        } else {
            sink.write(buf.array(), 0, buf.position());
            buf.clear();
        }
    }

    /** Writes a record larger than the buffer without copying it into the buffer. */
    private void writeThrough(byte[] data, int off, int len) throws IOException {
        if (channel != null) {
            ByteBuffer wrapped = ByteBuffer.wrap(data, off, len);
            while (wrapped.hasRemaining()) {
                channel.write(wrapped);
            }
        } else {
            sink.write(data, off, len);
        }
    }

    /** Pushes all records written so far to the target and flushes it (and the index). */
    @Override
    public void flush() throws IOException {
        drain();
        if (sink != null) {
            sink.flush();
        }
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
        targetFlush.flush();
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
        private final OutputStream stream;
        private final WritableByteChannel channel;
        private Compression compression = Compression.NONE;
        private int compressionLevel = Deflater.DEFAULT_COMPRESSION;
        private boolean ownsTarget = true;
        private TfRecordIndexWriter index;
        private int bufferSize = DEFAULT_BUFFER_SIZE;

        private Builder(OutputStream stream, WritableByteChannel channel) {
            this.stream = stream;
            this.channel = channel;
        }

        public Builder compression(Compression c) {
            this.compression = Objects.requireNonNull(c, "compression");
            return this;
        }

        /**
         * Deflate level for gzip and zlib: -1 (default, zlib's level 6 as TensorFlow uses) or 0-9,
         * as {@code TFRecordOptions(compression_level=...)}. Any level reads back alike.
         */
        public Builder compressionLevel(int level) {
            if (level < -1 || level > 9) {
                throw new IllegalArgumentException(
                        "compressionLevel must be -1 (default) or 0-9, got " + level);
            }
            this.compressionLevel = level;
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
