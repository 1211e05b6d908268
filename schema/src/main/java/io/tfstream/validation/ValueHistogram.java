package io.tfstream.validation;

import java.util.Arrays;

/**
 * A mergeable histogram of numeric values on a fixed grid shared by every window: each finite value
 * goes to the bucket of its sign, binary exponent and top three mantissa bits (8 buckets per
 * octave, relative width at most 12.5 %), magnitudes below 2^-64 to a zero bucket and above 2^64 to
 * an end bucket; NaN, +inf and -inf are counted apart. Exact and order-independent under merge,
 * which a quantile sketch is not; bounded at {@link #BUCKETS} longs.
 */
final class ValueHistogram {
    static final int OCTAVES = 128;
    static final int PER_SIDE = OCTAVES * 8 + 1;

    /** Negative side (reversed), zero bucket, positive side. */
    static final int BUCKETS = 2 * PER_SIDE + 1;

    static final int ZERO = PER_SIDE;

    final long[] counts = new long[BUCKETS];
    long nan;
    long posInf;
    long negInf;

    void add(double v) {
        if (Double.isNaN(v)) {
            nan++;
        } else if (v == Double.POSITIVE_INFINITY) {
            posInf++;
        } else if (v == Double.NEGATIVE_INFINITY) {
            negInf++;
        } else {
            counts[bucket(v)]++;
        }
    }

    static int bucket(double v) {
        double a = Math.abs(v);
        if (a < 0x1p-64) {
            return ZERO;
        }
        long bits = Double.doubleToRawLongBits(a);
        int exp = (int) (bits >>> 52) - 1023;
        int sub = (int) (bits >>> 49) & 7;
        int k = Math.min((exp + 64) * 8 + sub, PER_SIDE - 1) + 1;
        return v > 0 ? ZERO + k : ZERO - k;
    }

    void merge(ValueHistogram o) {
        for (int i = 0; i < BUCKETS; i++) {
            counts[i] += o.counts[i];
        }
        nan += o.nan;
        posInf += o.posInf;
        negInf += o.negInf;
    }

    long total() {
        long t = nan + posInf + negInf;
        for (long c : counts) {
            t += c;
        }
        return t;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ValueHistogram h
                && Arrays.equals(counts, h.counts)
                && nan == h.nan
                && posInf == h.posInf
                && negInf == h.negInf;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(counts);
    }
}
