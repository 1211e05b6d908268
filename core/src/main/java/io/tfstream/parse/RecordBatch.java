package io.tfstream.parse;

import java.util.Arrays;
import java.util.List;

/**
 * Records copied back to back into one growable array: the usual way to gather a batch from a
 * stream. {@link #clear()} keeps the capacity for the next batch.
 */
public final class RecordBatch implements SerializedRecords {
    private byte[] data;
    private int dataSize;
    private int[] offsets;
    private String[] names;
    private int size;

    public RecordBatch() {
        this(64, 4096);
    }

    public RecordBatch(int initialRecords, int initialBytes) {
        data = new byte[Math.max(initialBytes, 16)];
        offsets = new int[Math.max(initialRecords, 1) + 1];
    }

    /** A batch holding copies of {@code records}. */
    public static RecordBatch of(List<byte[]> records) {
        RecordBatch b = new RecordBatch(records.size(), 1024);
        for (byte[] r : records) {
            b.add(r, 0, r.length);
        }
        return b;
    }

    public static RecordBatch of(byte[]... records) {
        return of(Arrays.asList(records));
    }

    public void add(byte[] src, int off, int len) {
        addNamed(src, off, len, null);
    }

    /** Adds a record with a name that errors print instead of {@code <unknown>}. */
    public void addNamed(byte[] src, int off, int len, String name) {
        if (size + 1 == offsets.length) {
            offsets = Arrays.copyOf(offsets, offsets.length * 2);
            if (names != null) {
                names = Arrays.copyOf(names, offsets.length);
            }
        }
        if (dataSize + len > data.length || dataSize + len < 0) {
            long cap = Math.max((long) dataSize + len, data.length * 2L);
            if (cap > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("record batch exceeds 2 GiB");
            }
            data = Arrays.copyOf(data, (int) cap);
        }
        System.arraycopy(src, off, data, dataSize, len);
        if (name != null && names == null) {
            names = new String[offsets.length];
        }
        if (names != null) {
            names[size] = name;
        }
        dataSize += len;
        offsets[++size] = dataSize;
    }

    public void clear() {
        size = 0;
        dataSize = 0;
        names = null;
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
        return offsets[i];
    }

    @Override
    public int length(int i) {
        return offsets[i + 1] - offsets[i];
    }

    @Override
    public String name(int i) {
        return names == null || names[i] == null ? "<unknown>" : names[i];
    }

    @Override
    public long totalBytes() {
        return dataSize;
    }

    /** A copy of record {@code i}. */
    public byte[] get(int i) {
        return Arrays.copyOfRange(data, offsets[i], offsets[i + 1]);
    }
}
