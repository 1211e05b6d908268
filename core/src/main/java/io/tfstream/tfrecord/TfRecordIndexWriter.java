package io.tfstream.tfrecord;

import java.io.Closeable;
import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes a TFRecord index in the format of NVIDIA DALI's {@code tools/tfrecord2idx}: one ASCII line
 * {@code <offset> <length>\n} per record, where offset is the record's first byte in the
 * uncompressed file and length its framed size (16 bytes plus data). Digits are written into a
 * reused buffer, so adding a line allocates nothing.
 */
public final class TfRecordIndexWriter implements Closeable, Flushable {
    private static final int BUFFER_SIZE = 8192;
    private static final int MAX_LINE = 20 + 1 + 20 + 1;

    private final OutputStream out;
    private final byte[] buf = new byte[BUFFER_SIZE];
    private int n;
    private long lines;

    /** Writes to {@code out}; {@link #close()} closes it. */
    public TfRecordIndexWriter(OutputStream out) {
        this.out = out;
    }

    /** Adds the line for a record framed at {@code offset} with {@code framedLength} bytes. */
    public void add(long offset, long framedLength) throws IOException {
        if (offset < 0 || framedLength < TfRecordFraming.OVERHEAD) {
            throw new IllegalArgumentException(
                    "bad index entry: offset " + offset + ", framed length " + framedLength);
        }
        if (n + MAX_LINE > buf.length) {
            drain();
        }
        n = putDecimal(offset, n);
        buf[n++] = ' ';
        n = putDecimal(framedLength, n);
        buf[n++] = '\n';
        lines++;
    }

    /** Lines added so far. */
    public long entries() {
        return lines;
    }

    private int putDecimal(long v, int at) {
        int digits = 1;
        for (long t = v; t >= 10; t /= 10) {
            digits++;
        }
        int end = at + digits;
        for (int i = end - 1; i >= at; i--) {
            buf[i] = (byte) ('0' + (int) (v % 10));
            v /= 10;
        }
        return end;
    }

    private void drain() throws IOException {
        out.write(buf, 0, n);
        n = 0;
    }

    @Override
    public void flush() throws IOException {
        drain();
        out.flush();
    }

    @Override
    public void close() throws IOException {
        try {
            drain();
        } finally {
            out.close();
        }
    }
}
