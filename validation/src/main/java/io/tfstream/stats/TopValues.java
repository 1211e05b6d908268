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
 * are held in a {@link ByteKeyTable}: a lookup allocates nothing.
 */
final class TopValues {
    /** tfx-bsl's tolerance for a counter that reached zero. */
    private static final double EPSILON = 1e-8;

    /** Counters of a sketch, or {@link Integer#MAX_VALUE} for exact counts. */
    private final int buckets;

    private ByteKeyTable keys = new ByteKeyTable(Integer.MAX_VALUE);
    private double[] counts = new double[8];
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
        return keys.size();
    }

    /** Whether counters were ever reduced (counts are then estimates). */
    boolean reduced() {
        return delta > 0;
    }

    /** Adds {@code weight} to the count of {@code b[off, off+len)}. */
    void add(byte[] b, int off, int len, double weight) {
        int id = slot(b, off, len); // before reading the field: slot may grow the array
        counts[id] += weight;
        if (!isExact() && keys.size() >= 2 * buckets) {
            compress();
        }
    }

    /** The id of the key {@code b[off, off+len)}, inserted (count 0) if new. */
    private int slot(byte[] b, int off, int len) {
        int id = keys.add(b, off, len, 0);
        if (id >= counts.length) {
            counts = Arrays.copyOf(counts, Math.max(id + 1, counts.length * 2));
        }
        return id;
    }

    /** Adds every count of {@code other} (tfx-bsl's {@code Merge}). */
    void merge(TopValues other) {
        ByteKeyTable o = other.keys;
        for (int id = 0; id < o.size(); id++) {
            int off = o.keyStart(id);
            int len = o.keyEnd(id) - off;
            int mine = slot(o.pool(), off, len);
            counts[mine] += other.counts[id];
        }
        for (byte[] e : other.extra) {
            if (!containsExtra(e)) {
                extra.add(e);
            }
        }
        delta += other.delta;
        if (!isExact() && keys.size() > buckets) {
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
        int size = keys.size();
        if (size <= buckets) {
            return;
        }
        double[] sorted = Arrays.copyOf(counts, size);
        Arrays.sort(sorted);
        double nth = sorted[size - 1 - buckets]; // the (buckets + 1)-th largest
        extra.clear();
        ByteKeyTable old = keys;
        double[] oldCounts = counts;
        keys = new ByteKeyTable(Integer.MAX_VALUE);
        counts = new double[Math.min(size, 2 * buckets)];
        for (int id = 0; id < size; id++) {
            double c = oldCounts[id] - nth;
            int off = old.keyStart(id);
            int len = old.keyEnd(id) - off;
            if (c < EPSILON) {
                if (Math.abs(c) < EPSILON) {
                    extra.add(Arrays.copyOfRange(old.pool(), off, off + len));
                }
                continue;
            }
            int kept = slot(old.pool(), off, len);
            counts[kept] = c;
        }
        // keep only as many extra values as fill the buckets (the smallest, for determinism)
        extra.sort(Arrays::compareUnsigned);
        while (!extra.isEmpty() && keys.size() + extra.size() > buckets) {
            extra.remove(extra.size() - 1);
        }
        delta += nth;
    }

    /**
     * The reported counts: each value with its count (+ delta), then extra values up to buckets.
     */
    void forEach(Entry e) {
        for (int id = 0; id < keys.size(); id++) {
            e.accept(
                    keys.pool(),
                    keys.keyStart(id),
                    keys.keyEnd(id) - keys.keyStart(id),
                    counts[id] + delta);
        }
        for (int i = 0; i < extra.size() && keys.size() + i < buckets; i++) {
            byte[] x = extra.get(i);
            if (keys.find(x, 0, x.length) < 0) {
                e.accept(x, 0, x.length, delta);
            }
        }
    }

    /** One value and its reported count. */
    interface Entry {
        void accept(byte[] b, int off, int len, double count);
    }

    void write(DataOutput out) throws IOException {
        out.writeInt(buckets);
        out.writeDouble(delta);
        out.writeInt(keys.size());
        for (int id = 0; id < keys.size(); id++) {
            int len = keys.keyEnd(id) - keys.keyStart(id);
            out.writeInt(len);
            out.write(keys.pool(), keys.keyStart(id), len);
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
            int id = t.slot(buf, 0, len);
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
