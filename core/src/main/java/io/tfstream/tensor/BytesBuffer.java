package io.tfstream.tensor;

import java.util.Arrays;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A growable column of byte strings stored back to back in one array with an offsets array, so that
 * adding a value allocates nothing per value. Value {@code i} is {@code data[offsets[i],
 * offsets[i+1])}.
 */
@PublicEvolving
public final class BytesBuffer {
    private byte[] data;
    private int dataSize;
    private int[] offsets;
    private int size;

    public BytesBuffer(int initialValues, int initialBytes) {
        offsets = new int[Math.max(initialValues, 4) + 1];
        data = new byte[Math.max(initialBytes, 16)];
    }

    public void add(byte[] src, int off, int len) {
        int at = reserveBytes(len);
        System.arraycopy(src, off, data, at, len);
    }

    /**
     * Appends a value of {@code len} bytes whose contents the caller writes into {@link #data()} at
     * the returned index.
     */
    public int reserveBytes(int len) {
        if (size + 1 == offsets.length) {
            offsets = Arrays.copyOf(offsets, offsets.length + (offsets.length >> 1) + 16);
        }
        if (dataSize + len > data.length || dataSize + len < 0) {
            growData(dataSize + len);
        }
        int at = dataSize;
        dataSize += len;
        offsets[++size] = dataSize;
        return at;
    }

    public void truncate(int newSize) {
        size = newSize;
        dataSize = offsets[newSize];
    }

    public int size() {
        return size;
    }

    public byte[] data() {
        return data;
    }

    /** Offsets of the values; {@code offsets()[size()]} is the end of the last value. */
    public int[] offsets() {
        return offsets;
    }

    public int start(int i) {
        return offsets[i];
    }

    public int length(int i) {
        return offsets[i + 1] - offsets[i];
    }

    public byte[] get(int i) {
        return Arrays.copyOfRange(data, offsets[i], offsets[i + 1]);
    }

    private void growData(int min) {
        if (min < 0) {
            throw new OutOfMemoryError("string column exceeds 2 GiB");
        }
        int cap = (int) Math.min(Integer.MAX_VALUE - 8L, Math.max(min, data.length * 2L + 64));
        if (cap < min) {
            throw new OutOfMemoryError("string column exceeds 2 GiB");
        }
        data = Arrays.copyOf(data, cap);
    }
}
