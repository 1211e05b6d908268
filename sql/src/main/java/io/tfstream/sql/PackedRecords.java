package io.tfstream.sql;

import io.tfstream.parse.SerializedRecords;
import java.util.Arrays;

/**
 * A batch of records copied back to back into one growing buffer, each with the byte offset it had
 * in its file: what the batch parser reads, without an array per record. Reused batch after batch.
 */
final class PackedRecords implements SerializedRecords {
    private byte[] data = new byte[1 << 16];
    private int[] starts = new int[256];
    private long[] fileOffsets = new long[256];
    private int size;
    private int end;

    void clear() {
        size = 0;
        end = 0;
    }

    void add(byte[] buf, int off, int len, long fileOffset) {
        if (size + 1 >= starts.length) {
            starts = Arrays.copyOf(starts, starts.length * 2);
            fileOffsets = Arrays.copyOf(fileOffsets, fileOffsets.length * 2);
        }
        if (end + len > data.length) {
            data = Arrays.copyOf(data, Math.max(data.length * 2, end + len));
        }
        System.arraycopy(buf, off, data, end, len);
        starts[size] = end;
        fileOffsets[size] = fileOffset;
        end += len;
        size++;
        starts[size] = end;
    }

    /** Bytes held so far. */
    int bytes() {
        return end;
    }

    /** The byte offset record {@code i} had in its file. */
    long fileOffset(int i) {
        return fileOffsets[i];
    }

    /** A copy of record {@code i}. */
    byte[] copy(int i) {
        return Arrays.copyOfRange(data, starts[i], starts[i + 1]);
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public byte[] buffer(int i) {
        return data;
    }

    @Override
    public int offset(int i) {
        return starts[i];
    }

    @Override
    public int length(int i) {
        return starts[i + 1] - starts[i];
    }
}
