package io.tfstream.stats;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A mergeable weighted quantile sketch, tfx-bsl's {@code QuantilesSketch} (a weighted quantiles
 * stream with the summary, buffer and level structure of TensorFlow's boosted-trees quantiles)
 * ported: TFDV builds every numeric and value-count sketch with {@code eps} 0.01 and {@code
 * max_num_elements} 2^32, and divides {@code eps} by 3 as tfx-bsl does for its three levels of
 * compression. Every returned quantile is within {@code eps × total weight} of its rank; the sketch
 * is exact until the buffer first fills (11 402 entries, 5 701 distinct values per level, at {@code
 * eps} 0.01). {@link #merge} pushes the other sketch's buffer and summaries as tfx-bsl's {@code
 * Merge} does (the buffer copied in bulk, flushed where value by value would). With {@code eps} 0
 * it is exact (every distinct value kept) and memory grows with the distinct values. NaN values and
 * weights ≤ 0 are ignored; -0.0 is counted as 0.0.
 */
final class Quantiles {
    /** TFDV's {@code max_num_elements}. */
    static final long MAX_ELEMENTS = 1L << 32;

    private final double userEps;
    private final long maxElements;
    private final double eps;
    private final int blockSize;
    private final int bufferCapacity;

    private double[] bufV = new double[8];
    private double[] bufW = new double[8];
    private int bufN;
    private boolean unitWeights = true;

    private final List<Summary> levels = new ArrayList<>();

    /**
     * @param eps the sketch's error as a fraction of the total weight (TFDV's {@code epsilon}); 0
     *     for exact
     */
    Quantiles(double eps) {
        this(eps, MAX_ELEMENTS);
    }

    /** A sketch sized for {@code maxElements} values (tfx-bsl's {@code max_num_elements}). */
    Quantiles(double eps, long maxElements) {
        if (!(eps >= 0 && eps < 1)) {
            throw new IllegalArgumentException("epsilon must be in [0, 1), got " + eps);
        }
        this.userEps = eps;
        this.maxElements = maxElements;
        this.eps = eps / 3;
        if (eps == 0) {
            blockSize = Integer.MAX_VALUE;
            bufferCapacity = Integer.MAX_VALUE;
        } else {
            blockSize = blockSize(this.eps, maxElements);
            bufferCapacity = (int) Math.min(2L * blockSize, maxElements);
        }
    }

    /** Entries read at a time from serialized bytes, before more are allocated. */
    private static final int GROWTH = 1 << 14;

    /** The last block size computed, for the (eps, max elements) it was computed for. */
    private static volatile double[] lastSpec = {-1, -1, 2};

    /** tfx-bsl's {@code GetQuantileSpecs}: the entries per summary level. */
    private static int blockSize(double eps, long maxElements) {
        double[] spec = lastSpec;
        if (spec[0] == eps && spec[1] == maxElements) {
            return (int) spec[2];
        }
        long level = 1;
        long block = 2;
        while ((1L << level) * block < maxElements) {
            block = (long) Math.ceil(level / eps) + 1;
            level++;
        }
        int size = (int) Math.max(block, 2);
        lastSpec = new double[] {eps, maxElements, size};
        return size;
    }

    /** Adds {@code value} with weight {@code weight}. */
    void add(double value, double weight) {
        if (Double.isNaN(value) || !(weight > 0)) {
            return;
        }
        if (bufN == bufV.length) {
            makeRoom();
        }
        bufV[bufN] = value == 0 ? 0.0 : value;
        bufW[bufN++] = weight;
        unitWeights &= weight == 1;
        if (bufN >= bufferCapacity) {
            pushBuffer();
        }
    }

    /**
     * Adds {@code n} values from {@code from} that a sketch already took (checked, -0.0 made 0.0)
     * in bulk: the buffer {@link #add} would hold, flushed at the same points ({@code w} unread
     * when {@code unit}).
     */
    private void append(double[] v, double[] w, int from, int n, boolean unit) {
        int end = from + n;
        while (from < end) {
            if (bufN == bufV.length) {
                makeRoom();
            }
            int k = Math.min(end - from, Math.min(bufV.length, bufferCapacity) - bufN);
            System.arraycopy(v, from, bufV, bufN, k);
            if (unit) {
                Arrays.fill(bufW, bufN, bufN + k, 1.0);
            } else {
                System.arraycopy(w, from, bufW, bufN, k);
                for (int i = from; i < from + k && unitWeights; i++) {
                    unitWeights = w[i] == 1;
                }
            }
            bufN += k;
            from += k;
            if (bufN >= bufferCapacity) {
                pushBuffer();
            }
        }
    }

    /**
     * Room in the buffer for {@code n} values at once: at most a full buffer, and no more than a
     * chunk of {@link #read} (the count comes from the bytes).
     */
    private void reserve(int n) {
        int size = Math.min(Math.min(n, bufferCapacity), GROWTH);
        if (bufV.length < size) {
            bufV = Arrays.copyOf(bufV, size);
            bufW = Arrays.copyOf(bufW, size);
        }
    }

    /** A full buffer array: grown up to the buffer's capacity, or (exact mode) compacted. */
    private void makeRoom() {
        if (eps == 0) {
            compactExact();
        } else {
            int n = Math.min(bufV.length * 2, bufferCapacity);
            bufV = Arrays.copyOf(bufV, n);
            bufW = Arrays.copyOf(bufW, n);
        }
    }

    /** Exact mode: the buffer sorted and equal values merged, grown when that leaves it full. */
    private void compactExact() {
        int before = bufN;
        bufN = sortAndMerge(bufV, bufW, bufN, unitWeights);
        unitWeights &= bufN == before; // merged entries carry summed weights
        if (bufN * 2 > bufV.length) {
            bufV = Arrays.copyOf(bufV, bufV.length * 2);
            bufW = Arrays.copyOf(bufW, bufW.length * 2);
        }
    }

    /** Adds everything {@code other} holds (tfx-bsl's {@code PushStream}). */
    void merge(Quantiles other) {
        if (other.userEps != userEps || other.maxElements != maxElements) {
            throw new IllegalArgumentException("cannot merge sketches of different epsilon");
        }
        append(other.bufV, other.bufW, 0, other.bufN, other.unitWeights);
        for (Summary s : other.levels) {
            if (s.n > 0) {
                Summary local = s.copy();
                local.compress(blockSize, eps);
                propagate(local);
            }
        }
    }

    private void pushBuffer() {
        if (bufN == 0) {
            return;
        }
        int n = sortAndMerge(bufV, bufW, bufN, unitWeights);
        Summary local = Summary.fromBuffer(bufV, bufW, n);
        bufN = 0;
        unitWeights = true;
        local.compress(blockSize, eps);
        propagate(local);
    }

    private void propagate(Summary local) {
        for (int level = 0; ; level++) {
            if (levels.size() <= level) {
                levels.add(new Summary());
            }
            Summary current = levels.get(level);
            local = local.merge(current);
            if (current.n == 0 || local.n <= (long) blockSize + 1) {
                levels.set(level, local);
                return;
            }
            local.compress(blockSize, eps);
            levels.set(level, new Summary());
        }
    }

    /** Entries per summary level (tfx-bsl's block size). */
    int blockSize() {
        return blockSize;
    }

    boolean isEmpty() {
        if (bufN > 0) {
            return false;
        }
        for (Summary s : levels) {
            if (s.n > 0) {
                return false;
            }
        }
        return true;
    }

    /** The final summary (tfx-bsl's {@code Finalize}), on copies: the sketch stays usable. */
    private Summary finalSummary() {
        double[] v = Arrays.copyOf(bufV, bufN);
        double[] w = Arrays.copyOf(bufW, bufN);
        Summary local = Summary.fromBuffer(v, w, sortAndMerge(v, w, bufN, unitWeights));
        local.compress(blockSize, eps);
        List<Summary> saved = new ArrayList<>(levels);
        try {
            if (local.n > 0) {
                propagate(local);
            }
            Summary all = new Summary();
            for (Summary s : levels) {
                all = all.merge(s);
            }
            return all;
        } finally {
            levels.clear();
            levels.addAll(saved);
        }
    }

    /** Entries held (buffer and summaries): the sketch's size. */
    int size() {
        int n = bufN;
        for (Summary s : levels) {
            n += s.n;
        }
        return n;
    }

    /**
     * The {@code n + 1} quantile boundaries of ranks {@code 0, W/n, …, W} and, parallel to them,
     * the cumulative weight up to each boundary's value ({@code result[0]}: values, {@code
     * result[1]}: weights), as tfx-bsl's {@code GenerateQuantilesAndCumulativeWeights}. Must not be
     * empty.
     */
    double[][] boundaries(int n) {
        return finalSummary().quantiles(Math.max(n, 2));
    }

    /** Sorts the first {@code n} entries by value and merges equal values; returns the count. */
    static int sortAndMerge(double[] v, double[] w, int n, boolean unitWeights) {
        if (n == 0) {
            return 0;
        }
        DoubleSort.sort(v, unitWeights ? null : w, n);
        int out = 0;
        for (int i = 1; i < n; i++) {
            if (v[i] != v[out]) {
                out++;
                v[out] = v[i];
                w[out] = w[i];
            } else {
                w[out] += w[i];
            }
        }
        return out + 1;
    }

    void write(DataOutput out) throws IOException {
        out.writeDouble(userEps);
        out.writeLong(maxElements);
        out.writeInt(bufN);
        // the buffer of unweighted values is their values only
        out.writeBoolean(unitWeights);
        if (unitWeights) {
            DoubleColumns.write(out, bufN, bufV);
        } else {
            DoubleColumns.write(out, bufN, bufV, bufW);
        }
        out.writeInt(levels.size());
        for (Summary s : levels) {
            s.write(out);
        }
    }

    /**
     * Whether {@link #add} would take these values as they are (no NaN, no -0.0, positive weights),
     * as it does all that {@link #write} writes: then they are appended in bulk.
     */
    private static boolean taken(double[] v, double[] w, int n, boolean unit) {
        for (int i = 0; i < n; i++) {
            if (Double.isNaN(v[i])
                    || Double.doubleToRawLongBits(v[i]) == Long.MIN_VALUE
                    || !(unit || w[i] > 0)) {
                return false;
            }
        }
        return true;
    }

    static Quantiles read(DataInput in) throws IOException {
        double eps = in.readDouble();
        long maxElements = in.readLong();
        if (maxElements < 1) {
            throw new IOException("quantile sketch for " + maxElements + " elements");
        }
        Quantiles q = new Quantiles(eps, maxElements);
        int n = in.readInt();
        if (n < 0 || n > (1 << 26)) {
            throw new IOException("quantile buffer of " + n + " entries");
        }
        boolean unit = in.readBoolean();
        q.reserve(n);
        double[] v = new double[Math.min(n, GROWTH)];
        double[] w = unit ? null : new double[v.length];
        for (int from = 0; from < n; from += v.length) {
            // in chunks: the count comes from the bytes, memory grows only as values arrive
            int k = Math.min(v.length, n - from);
            if (unit) {
                DoubleColumns.read(in, 0, k, v);
            } else {
                DoubleColumns.read(in, 0, k, v, w);
            }
            if (taken(v, w, k, unit)) {
                q.append(v, w, 0, k, unit);
            } else {
                for (int i = 0; i < k; i++) {
                    q.add(v[i], unit ? 1 : w[i]);
                }
            }
        }
        int levels = in.readInt();
        for (int i = 0; i < levels; i++) {
            q.levels.add(Summary.read(in));
        }
        return q;
    }

    /** Sorted entries with their rank bounds (tfx-bsl's {@code WeightedQuantilesSummary}). */
    static final class Summary {
        double[] v;
        double[] w;
        double[] minRank;
        double[] maxRank;
        int n;

        Summary() {
            this(0);
        }

        private Summary(int capacity) {
            v = new double[capacity];
            w = new double[capacity];
            minRank = new double[capacity];
            maxRank = new double[capacity];
        }

        static Summary fromBuffer(double[] values, double[] weights, int n) {
            Summary s = new Summary(n);
            double cum = 0;
            for (int i = 0; i < n; i++) {
                s.v[i] = values[i];
                s.w[i] = weights[i];
                s.minRank[i] = cum;
                cum += weights[i];
                s.maxRank[i] = cum;
            }
            s.n = n;
            return s;
        }

        Summary copy() {
            Summary s = new Summary(n);
            System.arraycopy(v, 0, s.v, 0, n);
            System.arraycopy(w, 0, s.w, 0, n);
            System.arraycopy(minRank, 0, s.minRank, 0, n);
            System.arraycopy(maxRank, 0, s.maxRank, 0, n);
            s.n = n;
            return s;
        }

        private double prevMaxRank(int i) {
            return maxRank[i] - w[i];
        }

        private double nextMinRank(int i) {
            return minRank[i] + w[i];
        }

        double totalWeight() {
            return n == 0 ? 0 : maxRank[n - 1];
        }

        private void put(int i, double value, double weight, double min, double max) {
            v[i] = value;
            w[i] = weight;
            minRank[i] = min;
            maxRank[i] = max;
        }

        /** This summary merged with {@code o}, ranks kept (tfx-bsl's {@code Merge}). */
        Summary merge(Summary o) {
            if (o.n == 0) {
                return this;
            }
            if (n == 0) {
                return o.copy();
            }
            Summary r = new Summary(n + o.n);
            int i = 0;
            int j = 0;
            int k = 0;
            double next1 = 0;
            double next2 = 0;
            while (i < n && j < o.n) {
                if (v[i] < o.v[j]) {
                    r.put(k++, v[i], w[i], minRank[i] + next2, maxRank[i] + o.prevMaxRank(j));
                    next1 = nextMinRank(i++);
                } else if (o.v[j] < v[i]) {
                    r.put(k++, o.v[j], o.w[j], o.minRank[j] + next1, o.maxRank[j] + prevMaxRank(i));
                    next2 = o.nextMinRank(j++);
                } else {
                    r.put(
                            k++,
                            v[i],
                            w[i] + o.w[j],
                            minRank[i] + o.minRank[j],
                            maxRank[i] + o.maxRank[j]);
                    next1 = nextMinRank(i++);
                    next2 = o.nextMinRank(j++);
                }
            }
            for (; i < n; i++) {
                r.put(k++, v[i], w[i], minRank[i] + next2, maxRank[i] + o.maxRank[o.n - 1]);
            }
            for (; j < o.n; j++) {
                r.put(k++, o.v[j], o.w[j], o.minRank[j] + next1, o.maxRank[j] + maxRank[n - 1]);
            }
            r.n = k;
            return r;
        }

        /** Keeps about {@code sizeHint} entries, the error growing by at most the delta. */
        void compress(long sizeHint, double minEps) {
            sizeHint = Math.max(sizeHint, 2);
            if (n <= sizeHint) {
                return;
            }
            double epsDelta = totalWeight() * Math.max(1.0 / sizeHint, minEps);
            long addAccumulator = 0;
            long addStep = n;
            int write = 1;
            int last = 1;
            for (int read = 0; read + 1 != n; ) {
                int next = read + 1;
                while (next != n
                        && addAccumulator < addStep
                        && prevMaxRank(next) - nextMinRank(read) <= epsDelta) {
                    addAccumulator += sizeHint;
                    next++;
                }
                if (read == next - 1) {
                    read++;
                } else {
                    read = next - 1;
                }
                put(write++, v[read], w[read], minRank[read], maxRank[read]);
                last = read;
                addAccumulator -= addStep;
            }
            if (last + 1 != n) {
                put(write++, v[n - 1], w[n - 1], minRank[n - 1], maxRank[n - 1]);
            }
            n = write;
        }

        /** tfx-bsl's {@code GenerateQuantilesAndCumulativeWeights}. */
        double[][] quantiles(int num) {
            double[] q = new double[num + 1];
            double[] c = new double[num + 1];
            double total = maxRank[n - 1];
            int cur = 0;
            for (int rank = 0; rank <= num; rank++) {
                double d2 = 2 * (rank * total / num);
                int next = cur + 1;
                while (next < n && d2 >= minRank[next] + maxRank[next]) {
                    next++;
                }
                cur = next - 1;
                int pick = next == n || d2 < nextMinRank(cur) + prevMaxRank(next) ? cur : next;
                q[rank] = v[pick];
                c[rank] = maxRank[pick];
            }
            return new double[][] {q, c};
        }

        void write(DataOutput out) throws IOException {
            out.writeInt(n);
            DoubleColumns.write(out, n, v, w, minRank, maxRank);
        }

        static Summary read(DataInput in) throws IOException {
            int n = in.readInt();
            if (n < 0 || n > (1 << 26)) {
                throw new IOException("quantile summary of " + n + " entries");
            }
            Summary s = new Summary(Math.min(n, GROWTH));
            for (int from = 0; from < n; ) {
                // grown as entries arrive: the count comes from the bytes
                int to = Math.min(n, Math.max(2 * from, GROWTH));
                if (s.v.length < to) {
                    s.v = Arrays.copyOf(s.v, to);
                    s.w = Arrays.copyOf(s.w, to);
                    s.minRank = Arrays.copyOf(s.minRank, to);
                    s.maxRank = Arrays.copyOf(s.maxRank, to);
                }
                DoubleColumns.read(in, from, to - from, s.v, s.w, s.minRank, s.maxRank);
                from = to;
            }
            s.n = n;
            return s;
        }
    }
}
