package io.tfstream.tensor;

import java.util.Arrays;
import org.apache.flink.annotation.PublicEvolving;

/** A growable float32 column; see {@link Int64Buffer}. */
@PublicEvolving
public final class Float32Buffer {
    private float[] data;
    private int size;

    public Float32Buffer(int initialCapacity) {
        data = new float[Math.max(initialCapacity, 4)];
    }

    public void add(float v) {
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

    public float get(int i) {
        return data[i];
    }

    public int size() {
        return size;
    }

    /** The backing array; valid indices are {@code [0, size())}. */
    public float[] array() {
        return data;
    }

    private void grow(int min) {
        int cap = Math.max(min, data.length + (data.length >> 1) + 16);
        if (cap < 0) {
            throw new OutOfMemoryError("float32 column exceeds 2^31 values");
        }
        data = Arrays.copyOf(data, cap);
    }
}
