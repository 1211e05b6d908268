package io.tfstream.tfrecord;

import java.io.ByteArrayInputStream;
import java.io.InputStream;

/**
 * An input stream that hands out at most one byte per read call, as a slow network or pipe may:
 * code that assumes {@code read} fills the array breaks on it.
 */
public final class PickyInputStream extends InputStream {
    private final ByteArrayInputStream in;
    private int reads;

    public PickyInputStream(byte[] bytes) {
        this.in = new ByteArrayInputStream(bytes);
    }

    @Override
    public int read() {
        reads++;
        return in.read();
    }

    @Override
    public int read(byte[] b, int off, int len) {
        reads++;
        if (len == 0) {
            return 0;
        }
        return in.read(b, off, 1);
    }

    /** Number of read calls so far. */
    public int reads() {
        return reads;
    }
}
