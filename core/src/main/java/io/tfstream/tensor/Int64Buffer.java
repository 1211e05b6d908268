package io.tfstream.tensor;

import java.util.Arrays;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A growable int64 column. Grows only as values actually arrive, never from a declared length. Once
 * handed to a tensor it is no longer written.
 */
@PublicEvolving
public final class Int64Buffer {
    private long[] data;
    private int size;

    public Int64Buffer(int initialCapacity) {
        data = new long[Math.max(initialCapacity, 4)];
    }

    public void add(long v) {
        if (size == data.length) {
            grow(size + 1);
        }
        data[size++] = v;
    }

    /** Makes room for {@code n} more values and returns the index the first goes to. */
    public int reserve(int n) {
        if (size + n > data.length) {
            grow(size + n);
        }
        int at = size;
        size += n;
        return at;
    }

    public void truncate(int newSize) {
        size = newSize;
    }

    public long get(int i) {
        return data[i];
    }

    public void set(int i, long v) {
        data[i] = v;
    }

    public int size() {
        return size;
    }

    /** The backing array; valid indices are {@code [0, size())}. */
    public long[] array() {
        return data;
    }

    private void grow(int min) {
        int cap = Math.max(min, data.length + (data.length >> 1) + 16);
        if (cap < 0) {
            throw new OutOfMemoryError("int64 column exceeds 2^31 values");
        }
        data = Arrays.copyOf(data, cap);
    }
}
