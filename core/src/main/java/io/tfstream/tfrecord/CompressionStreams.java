package io.tfstream.tfrecord;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;

/**
 * The gzip and zlib streams TensorFlow's {@code ZlibOutputStream} / {@code ZlibInputStream} ({@code
 * tensorflow/core/lib/io/zlib_outputbuffer.cc}, {@code zlib_inputstream.cc}) produce and accept:
 * deflate at the default level, wrapped as zlib (window bits 15) or gzip (window bits 31).
 * Concatenated gzip members are read as one stream, as TensorFlow does, whatever the underlying
 * stream's {@code available()} says ({@link GzipMembersInputStream}).
 */
public final class CompressionStreams {
    private CompressionStreams() {}

    /**
     * Wraps {@code in} to decompress it; closing the result closes {@code in}. A gzip header is
     * read at once: an empty stream fails with {@link java.io.EOFException}, a bad one with {@link
     * java.util.zip.ZipException}.
     */
    public static InputStream decompressing(InputStream in, Compression c, int bufferSize)
            throws IOException {
        return switch (c) {
            case NONE -> in;
            case GZIP -> new GzipMembersInputStream(in, bufferSize);
            case ZLIB -> new ZlibInputStream(in, bufferSize);
        };
    }

    /**
     * Wraps {@code out} to compress into it at zlib's default level (TensorFlow's default), or
     * returns null for {@link Compression#NONE}.
     */
    public static DeflatingOutputStream compressing(OutputStream out, Compression c, int bufferSize)
            throws IOException {
        return compressing(out, c, Deflater.DEFAULT_COMPRESSION, bufferSize);
    }

    /**
     * Wraps {@code out} to compress into it at {@code level} (-1 for zlib's default, 0-9 as {@code
     * ZlibCompressionOptions::compression_level}), or returns null for {@link Compression#NONE}.
     * {@link DeflatingOutputStream#flush()} emits a sync flush; {@link
     * DeflatingOutputStream#finish()} writes the trailer and releases the deflater without closing
     * {@code out}.
     */
    public static DeflatingOutputStream compressing(
            OutputStream out, Compression c, int level, int bufferSize) throws IOException {
        if (level < Deflater.DEFAULT_COMPRESSION || level > Deflater.BEST_COMPRESSION) {
            throw new IllegalArgumentException(
                    "compressionLevel must be -1 (default) or 0-9, got " + level);
        }
        return switch (c) {
            case NONE -> null;
            case GZIP -> new DeflatingOutputStream(out, true, level, bufferSize);
            case ZLIB -> new DeflatingOutputStream(out, false, level, bufferSize);
        };
    }

    /** Zlib input that releases its own inflater on close. */
    private static final class ZlibInputStream extends InflaterInputStream {
        ZlibInputStream(InputStream in, int bufferSize) {
            super(in, new Inflater(), bufferSize);
        }

        @Override
        public void close() throws IOException {
            try {
                super.close();
            } finally {
                inf.end();
            }
        }
    }

    /**
     * A gzip or zlib deflate stream over a target it does not own: {@code finish()} completes the
     * stream and frees native memory, {@code close()} additionally closes the target.
     */
    public static final class DeflatingOutputStream extends DeflaterOutputStream {
        // Header as zlib's deflateInit2 writes it for gzip: no name, mtime 0, OS 3 (Unix).
        private static final byte[] GZIP_HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};

        private final CRC32 crc; // null for zlib, whose Adler-32 trailer the Deflater writes
        private long inputBytes;
        private boolean finished;

        private DeflatingOutputStream(OutputStream out, boolean gzip, int level, int bufferSize)
                throws IOException {
            super(out, new Deflater(level, gzip), bufferSize, true);
            this.crc = gzip ? new CRC32() : null;
            if (gzip) {
                out.write(GZIP_HEADER);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (finished) {
                throw new IllegalStateException("write after finish()");
            }
            if (crc != null) {
                crc.update(b, off, len);
            }
            inputBytes += len;
            super.write(b, off, len);
        }

        @Override
        public void finish() throws IOException {
            if (finished) {
                return;
            }
            super.finish();
            finished = true;
            def.end();
            if (crc != null) {
                byte[] trailer = new byte[8];
                putIntLe(trailer, 0, (int) crc.getValue());
                putIntLe(trailer, 4, (int) inputBytes); // ISIZE is the length modulo 2^32
                out.write(trailer);
            }
        }

        @Override
        public void flush() throws IOException {
            if (finished) {
                out.flush();
            } else {
                super.flush();
            }
        }

        @Override
        public void close() throws IOException {
            try {
                finish();
            } finally {
                out.close();
            }
        }

        private static void putIntLe(byte[] b, int at, int v) {
            b[at] = (byte) v;
            b[at + 1] = (byte) (v >>> 8);
            b[at + 2] = (byte) (v >>> 16);
            b[at + 3] = (byte) (v >>> 24);
        }
    }
}
