package io.tfstream.stats;

/**
 * Sorts a sketch's buffer, values ascending in {@link Double#compare} order, weights (if any)
 * carried along, stable: a least-significant-digit radix sort on the values' order-preserving bit
 * patterns, 11 bits a pass, skipping the passes in which every value has the same digit (the low 29
 * bits of floats widened to double are all zero). The buffer's sort is most of the quantile
 * sketch's cost, and this is several times quicker than a comparison sort at its sizes.
 */
final class DoubleSort {
    private static final int BITS = 11;
    private static final int RADIX = 1 << BITS;
    private static final int PASSES = (64 + BITS - 1) / BITS;

    /** Below this a comparison sort is quicker than the passes' fixed cost. */
    private static final int SMALL = 256;

    private DoubleSort() {}

    /** Sorts {@code v[0..n)}, and {@code w[0..n)} in the same order when {@code w} is non-null. */
    static void sort(double[] v, double[] w, int n) {
        if (n < SMALL) {
            insertionOrArrays(v, w, n);
            return;
        }
        long[] keys = new long[n];
        int[][] counts = new int[PASSES][RADIX];
        for (int i = 0; i < n; i++) {
            long k = key(v[i]);
            keys[i] = k;
            for (int p = 0; p < PASSES; p++) {
                counts[p][(int) ((k >>> (p * BITS)) & (RADIX - 1))]++;
            }
        }
        long[] tmpKeys = new long[n];
        double[] weights = w;
        double[] tmpWeights = w == null ? null : new double[n];
        for (int p = 0; p < PASSES; p++) {
            int[] c = counts[p];
            int shift = p * BITS;
            if (c[(int) ((keys[0] >>> shift) & (RADIX - 1))] == n) {
                continue; // one digit for all: the pass would not move anything
            }
            int sum = 0;
            for (int d = 0; d < RADIX; d++) {
                int k = c[d];
                c[d] = sum;
                sum += k;
            }
            for (int i = 0; i < n; i++) {
                long k = keys[i];
                int at = c[(int) ((k >>> shift) & (RADIX - 1))]++;
                tmpKeys[at] = k;
                if (weights != null) {
                    tmpWeights[at] = weights[i];
                }
            }
            long[] t = keys;
            keys = tmpKeys;
            tmpKeys = t;
            if (weights != null) {
                double[] tw = weights;
                weights = tmpWeights;
                tmpWeights = tw;
            }
        }
        for (int i = 0; i < n; i++) {
            v[i] = value(keys[i]);
        }
        if (w != null && weights != w) {
            System.arraycopy(weights, 0, w, 0, n);
        }
    }

    /** Order-preserving: as unsigned longs the keys sort as the doubles do by compare. */
    static long key(double d) {
        long bits = Double.doubleToRawLongBits(d);
        return bits ^ ((bits >> 63) | Long.MIN_VALUE);
    }

    static double value(long key) {
        long bits = key ^ (((~key) >> 63) | Long.MIN_VALUE);
        return Double.longBitsToDouble(bits);
    }

    /** Small buffers: a stable insertion sort (ties keep their order, as the radix passes do). */
    private static void insertionOrArrays(double[] v, double[] w, int n) {
        for (int i = 1; i < n; i++) {
            double x = v[i];
            double y = w == null ? 0 : w[i];
            int j = i - 1;
            while (j >= 0 && Double.compare(v[j], x) > 0) {
                v[j + 1] = v[j];
                if (w != null) {
                    w[j + 1] = w[j];
                }
                j--;
            }
            v[j + 1] = x;
            if (w != null) {
                w[j + 1] = y;
            }
        }
    }
}
