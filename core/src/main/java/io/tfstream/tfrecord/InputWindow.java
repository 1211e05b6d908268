package io.tfstream.tfrecord;

import java.io.IOException;
import java.io.InputStream;

/**
 * A growable window over an input stream: {@link #ensure(int)} makes bytes available at {@link
 * #pos} without consuming them, so a reader can check a whole record in place (and step back one
 * byte at a time while resynchronising). Copes with streams that return fewer bytes than asked.
 * Grows at most by doubling as bytes actually arrive, so a truncated stream that declares a huge
 * record never makes it allocate the declared size.
 */
final class InputWindow {
    private final InputStream in;
    byte[] buf;
    int pos;
    int limit;
    private long bufStart;
    private boolean eof;

    InputWindow(InputStream in, int initialSize) {
        this.in = in;
        this.buf = new byte[initialSize];
    }

    /** Bytes available from {@link #pos} without reading. */
    int available() {
        return limit - pos;
    }

    /** Stream offset of {@link #pos}. */
    long position() {
        return bufStart + pos;
    }

    /**
     * Makes at least {@code n} bytes available from {@link #pos}; returns false if the stream ends
     * first (then {@link #available()} says how many there are).
     */
    boolean ensure(int n) throws IOException {
        while (limit - pos < n) {
            if (eof) {
                return false;
            }
            if (limit == buf.length) {
                makeRoom(n);
            }
            int r = in.read(buf, limit, buf.length - limit);
            if (r < 0) {
                eof = true;
            } else {
                limit += r;
            }
        }
        return true;
    }

    void skip(int n) {
        pos += n;
    }

    private void makeRoom(int n) {
        int avail = limit - pos;
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, avail);
            bufStart += pos;
            pos = 0;
            limit = avail;
        }
        if (limit == buf.length) {
            int grown = (int) Math.min(n, 2L * buf.length);
            byte[] bigger = new byte[grown];
            System.arraycopy(buf, 0, bigger, 0, limit);
            buf = bigger;
        }
    }
}
