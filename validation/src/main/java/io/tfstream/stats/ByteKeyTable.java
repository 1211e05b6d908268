package io.tfstream.stats;

import java.util.Arrays;
import org.apache.flink.annotation.Internal;

/**
 * A bounded table of distinct byte strings, each with a dense id (in order of first insertion) and
 * a count. Lookups take the bytes where they are ({@code buf, off, len}) and allocate nothing; an
 * insertion copies the key into one pooled array. At most {@code maxKeys} keys are kept: further
 * new keys are refused (-1) and their counts go to {@link #overflow()}.
 */
@Internal
public final class ByteKeyTable {
    private final int maxKeys;
    private int[] slots; // id + 1, 0 = empty
    private int[] hashes;
    private byte[] pool = new byte[64];
    private int poolSize;
    private int[] offsets = new int[9];
    private long[] counts = new long[8];
    private int size;
    private long overflow;

    public ByteKeyTable(int maxKeys) {
        if (maxKeys < 0) {
            throw new IllegalArgumentException("maxKeys must be >= 0, got " + maxKeys);
        }
        this.maxKeys = maxKeys;
        this.slots = new int[16];
        this.hashes = new int[8];
    }

    public int size() {
        return size;
    }

    public int maxKeys() {
        return maxKeys;
    }

    /** Counts of values refused because the table was full. */
    public long overflow() {
        return overflow;
    }

    public long count(int id) {
        return counts[id];
    }

    /** The id of {@code buf[off, off+len)}, or -1. */
    public int find(byte[] buf, int off, int len) {
        int h = hash(buf, off, len);
        int mask = slots.length - 1;
        for (int s = h & mask; ; s = (s + 1) & mask) {
            int e = slots[s];
            if (e == 0) {
                return -1;
            }
            int id = e - 1;
            if (hashes[id] == h
                    && offsets[id + 1] - offsets[id] == len
                    && Arrays.equals(pool, offsets[id], offsets[id + 1], buf, off, off + len)) {
                return id;
            }
        }
    }

    /**
     * Adds {@code delta} to the count of the key, inserting it if there is room; returns its id, or
     * -1 when the table is full (then {@code delta} goes to the overflow).
     */
    public int add(byte[] buf, int off, int len, long delta) {
        int id = find(buf, off, len);
        if (id < 0) {
            if (size == maxKeys) {
                overflow += delta;
                return -1;
            }
            id = insert(buf, off, len);
        }
        counts[id] += delta;
        return id;
    }

    public void addOverflow(long delta) {
        overflow += delta;
    }

    private int insert(byte[] buf, int off, int len) {
        if ((size + 1) * 2 > slots.length) {
            rehash(slots.length * 2);
        }
        if (size == counts.length) {
            counts = Arrays.copyOf(counts, size * 2);
            hashes = Arrays.copyOf(hashes, size * 2);
            offsets = Arrays.copyOf(offsets, size * 2 + 1);
        }
        if (poolSize + len > pool.length) {
            pool = Arrays.copyOf(pool, Math.max(poolSize + len, pool.length * 2));
        }
        System.arraycopy(buf, off, pool, poolSize, len);
        poolSize += len;
        int id = size++;
        offsets[id + 1] = poolSize;
        int h = hash(buf, off, len);
        hashes[id] = h;
        place(id, h);
        return id;
    }

    private void place(int id, int h) {
        int mask = slots.length - 1;
        int s = h & mask;
        while (slots[s] != 0) {
            s = (s + 1) & mask;
        }
        slots[s] = id + 1;
    }

    private void rehash(int capacity) {
        slots = new int[capacity];
        for (int id = 0; id < size; id++) {
            place(id, hashes[id]);
        }
    }

    /** The pooled bytes; key {@code id} is {@code [keyStart(id), keyEnd(id))}. */
    public byte[] pool() {
        return pool;
    }

    public int keyStart(int id) {
        return offsets[id];
    }

    public int keyEnd(int id) {
        return offsets[id + 1];
    }

    public byte[] key(int id) {
        return Arrays.copyOfRange(pool, offsets[id], offsets[id + 1]);
    }

    /** Adds every key and count of {@code other}, in its insertion order, then its overflow. */
    public void addAll(ByteKeyTable other) {
        for (int id = 0; id < other.size; id++) {
            add(
                    other.pool,
                    other.offsets[id],
                    other.offsets[id + 1] - other.offsets[id],
                    other.counts[id]);
        }
        overflow += other.overflow;
    }

    public void clear() {
        Arrays.fill(slots, 0);
        Arrays.fill(counts, 0, size, 0);
        size = 0;
        poolSize = 0;
        overflow = 0;
    }

    private static int hash(byte[] b, int off, int len) {
        int h = 0x811c9dc5;
        for (int i = off; i < off + len; i++) {
            h = (h ^ b[i]) * 0x01000193;
        }
        return h ^ (h >>> 16);
    }
}
