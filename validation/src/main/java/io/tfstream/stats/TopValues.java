package io.tfstream.stats;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Counts of distinct byte strings: exact, or a Misra-Gries sketch of {@code buckets} counters as
 * tfx-bsl's {@code MisraGriesSketch} keeps them (TFDV's sketch-based top values). A sketch keeps
 * lower bounds and reports {@code lower + delta}: for every value, reported − delta ≤ true count ≤
 * reported, and delta ≤ (total weight − Σ kept counts) / (buckets + 1). Counters are reduced when
 * the table reaches twice the buckets, subtracting the (buckets + 1)-th largest count as tfx-bsl's
 * {@code Compress} does when merging, rather than on every new value; the bound is the same. Keys
 * are pooled in one array; a lookup allocates nothing.
 */
final class TopValues {
    /** tfx-bsl's tolerance for a counter that reached zero. */
    private static final double EPSILON = 1e-8;

    /** Counters of a sketch, or {@link Integer#MAX_VALUE} for exact counts. */
    private final int buckets;

    private int[] slots = new int[16]; // id + 1, 0 = empty
    private int[] hashes = new int[8];
    private int[] offsets = new int[9];
    private double[] counts = new double[8];
    private byte[] pool = new byte[64];
    private int size;
    private double delta;

    /** Values whose counter reached exactly zero at the last reduction (reported with delta). */
    private final List<byte[]> extra = new ArrayList<>();

    TopValues(int buckets) {
        if (buckets < 1) {
            throw new IllegalArgumentException("buckets must be >= 1, got " + buckets);
        }
        this.buckets = buckets;
    }

    static TopValues exact() {
        return new TopValues(Integer.MAX_VALUE);
    }

    boolean isExact() {
        return buckets == Integer.MAX_VALUE;
    }

    /** Distinct values counted (exact while nothing was reduced). */
    int size() {
        return size;
    }

    /** Whether counters were ever reduced (counts are then estimates). */
    boolean reduced() {
        return delta > 0;
    }

    /** Adds {@code weight} to the count of {@code b[off, off+len)}. */
    void add(byte[] b, int off, int len, double weight) {
        int h = hash(b, off, len);
        int id = find(b, off, len, h);
        if (id < 0) {
            id = insert(b, off, len, h);
        }
        counts[id] += weight;
        if (!isExact() && size >= 2 * buckets) {
            compress();
        }
    }

    /** Adds every count of {@code other} (tfx-bsl's {@code Merge}). */
    void merge(TopValues other) {
        for (int id = 0; id < other.size; id++) {
            int off = other.offsets[id];
            int len = other.offsets[id + 1] - off;
            int h = other.hashes[id];
            int mine = find(other.pool, off, len, h);
            if (mine < 0) {
                mine = insert(other.pool, off, len, h);
            }
            counts[mine] += other.counts[id];
        }
        for (byte[] e : other.extra) {
            if (!containsExtra(e)) {
                extra.add(e);
            }
        }
        delta += other.delta;
        if (!isExact() && size > buckets) {
            compress();
        }
    }

    private boolean containsExtra(byte[] e) {
        for (byte[] x : extra) {
            if (Arrays.equals(x, e)) {
                return true;
            }
        }
        return false;
    }

    /** Reduces a sketch to at most {@code buckets} counters (tfx-bsl's {@code Compress}). */
    void compress() {
        if (size <= buckets) {
            return;
        }
        double[] sorted = Arrays.copyOf(counts, size);
        Arrays.sort(sorted);
        double nth = sorted[size - 1 - buckets]; // the (buckets + 1)-th largest
        extra.clear();
        byte[] oldPool = pool;
        int[] oldOffsets = offsets;
        double[] oldCounts = counts;
        int oldSize = size;
        slots = new int[Math.max(16, Integer.highestOneBit(buckets * 2) * 4)];
        hashes = new int[8];
        offsets = new int[9];
        counts = new double[8];
        pool = new byte[Math.max(64, oldPool.length / 2)];
        size = 0;
        for (int id = 0; id < oldSize; id++) {
            double c = oldCounts[id] - nth;
            int off = oldOffsets[id];
            int len = oldOffsets[id + 1] - off;
            if (c < EPSILON) {
                if (Math.abs(c) < EPSILON) {
                    extra.add(Arrays.copyOfRange(oldPool, off, off + len));
                }
                continue;
            }
            int nid = insert(oldPool, off, len, hash(oldPool, off, len));
            counts[nid] = c;
        }
        // keep only as many extra values as fill the buckets (the smallest, for determinism)
        extra.sort(TopValues::compareUnsigned);
        while (!extra.isEmpty() && size + extra.size() > buckets) {
            extra.remove(extra.size() - 1);
        }
        delta += nth;
    }

    /**
     * The reported counts: each value with its count (+ delta), then extra values up to buckets.
     */
    void forEach(Entry e) {
        for (int id = 0; id < size; id++) {
            e.accept(pool, offsets[id], offsets[id + 1] - offsets[id], counts[id] + delta);
        }
        for (int i = 0; i < extra.size() && size + i < buckets; i++) {
            byte[] x = extra.get(i);
            if (find(x, 0, x.length, hash(x, 0, x.length)) < 0) {
                e.accept(x, 0, x.length, delta);
            }
        }
    }

    /** One value and its reported count. */
    interface Entry {
        void accept(byte[] b, int off, int len, double count);
    }

    static int compareUnsigned(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    private int find(byte[] b, int off, int len, int h) {
        int mask = slots.length - 1;
        for (int s = h & mask; ; s = (s + 1) & mask) {
            int e = slots[s];
            if (e == 0) {
                return -1;
            }
            int id = e - 1;
            if (hashes[id] == h
                    && offsets[id + 1] - offsets[id] == len
                    && Arrays.equals(pool, offsets[id], offsets[id + 1], b, off, off + len)) {
                return id;
            }
        }
    }

    private int insert(byte[] b, int off, int len, int h) {
        if ((size + 1) * 2 > slots.length) {
            slots = new int[slots.length * 2];
            for (int id = 0; id < size; id++) {
                place(id, hashes[id]);
            }
        }
        if (size == counts.length) {
            counts = Arrays.copyOf(counts, size * 2);
            hashes = Arrays.copyOf(hashes, size * 2);
            offsets = Arrays.copyOf(offsets, size * 2 + 1);
        }
        int end = offsets[size];
        if (end + len > pool.length) {
            pool = Arrays.copyOf(pool, Math.max(end + len, pool.length * 2));
        }
        System.arraycopy(b, off, pool, end, len);
        int id = size++;
        offsets[id + 1] = end + len;
        counts[id] = 0;
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

    private static int hash(byte[] b, int off, int len) {
        int h = 0x9747b28c;
        for (int i = off; i < off + len; i++) {
            h = (h ^ b[i]) * 0x01000193;
        }
        return h ^ (h >>> 16);
    }

    void write(DataOutput out) throws IOException {
        out.writeInt(buckets);
        out.writeDouble(delta);
        out.writeInt(size);
        for (int id = 0; id < size; id++) {
            int len = offsets[id + 1] - offsets[id];
            out.writeInt(len);
            out.write(pool, offsets[id], len);
            out.writeDouble(counts[id]);
        }
        out.writeInt(extra.size());
        for (byte[] e : extra) {
            out.writeInt(e.length);
            out.write(e);
        }
    }

    static TopValues read(DataInput in) throws IOException {
        TopValues t = new TopValues(in.readInt());
        t.delta = in.readDouble();
        int n = in.readInt();
        byte[] buf = new byte[64];
        for (int i = 0; i < n; i++) {
            int len = checkedLength(in.readInt());
            if (buf.length < len) {
                buf = new byte[len];
            }
            in.readFully(buf, 0, len);
            int id = t.insert(buf, 0, len, hash(buf, 0, len));
            t.counts[id] = in.readDouble();
        }
        int extras = in.readInt();
        for (int i = 0; i < extras; i++) {
            byte[] e = new byte[checkedLength(in.readInt())];
            in.readFully(e);
            t.extra.add(e);
        }
        return t;
    }

    private static int checkedLength(int len) throws IOException {
        if (len < 0 || len > (64 << 20)) {
            throw new IOException("value of " + len + " bytes in serialized top values");
        }
        return len;
    }
}
