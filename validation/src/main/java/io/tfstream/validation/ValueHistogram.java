package io.tfstream.validation;

import java.util.Arrays;

/**
 * A mergeable histogram of numeric values on a fixed grid shared by every window: each finite value
 * goes to the bucket of its sign, binary exponent and top three mantissa bits (8 buckets per
 * octave, relative width at most 12.5 %), magnitudes below 2^-64 to a zero bucket and above 2^64 to
 * an end bucket; NaN, +inf and -inf are counted apart, and the exact finite minimum and maximum are
 * kept. Exact and order-independent under merge, which a quantile sketch is not; bounded at {@link
 * #BUCKETS} longs.
 *
 * <p>It plays the part of TFDV's quantile sketch: {@link StandardHistogram#of} derives TFDV's
 * {@code STANDARD} histogram (equal-width buckets over the finite [min, max], counts interpolated)
 * from it, as TFDV derives that histogram from its quantiles.
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
    double finiteMin = Double.POSITIVE_INFINITY;
    double finiteMax = Double.NEGATIVE_INFINITY;

    void add(double v) {
        if (Double.isNaN(v)) {
            nan++;
        } else if (v == Double.POSITIVE_INFINITY) {
            posInf++;
        } else if (v == Double.NEGATIVE_INFINITY) {
            negInf++;
        } else {
            counts[bucket(v)]++;
            finiteMin = Math.min(finiteMin, v);
            finiteMax = Math.max(finiteMax, v);
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

    /** The lower bound of bucket {@code b} (its values are at least this). */
    static double lower(int b) {
        if (b == ZERO) {
            return -0x1p-64;
        }
        return b > ZERO ? magnitudeLow(b - ZERO) : -magnitudeHigh(ZERO - b);
    }

    /**
     * The upper bound of bucket {@code b} (its values are below this, or at most it at the ends).
     */
    static double upper(int b) {
        if (b == ZERO) {
            return 0x1p-64;
        }
        return b > ZERO ? magnitudeHigh(b - ZERO) : -magnitudeLow(ZERO - b);
    }

    /** Smallest magnitude of side bucket {@code k} (1 ≤ k ≤ {@link #PER_SIDE}). */
    private static double magnitudeLow(int k) {
        int exp = (k - 1) / 8 - 64;
        int sub = (k - 1) % 8;
        return Math.scalb(1.0 + sub / 8.0, exp);
    }

    /**
     * Largest magnitude of side bucket {@code k}: the next bucket's low, the end bucket unbounded.
     */
    private static double magnitudeHigh(int k) {
        return k == PER_SIDE ? Double.MAX_VALUE : magnitudeLow(k + 1);
    }

    /**
     * Sets the finite minimum and maximum from the occupied buckets' bounds, for state written
     * before they were kept (serializer version 1).
     */
    void boundsFromBuckets() {
        finiteMin = Double.POSITIVE_INFINITY;
        finiteMax = Double.NEGATIVE_INFINITY;
        for (int b = 0; b < BUCKETS; b++) {
            if (counts[b] != 0) {
                finiteMin = Math.min(finiteMin, lower(b));
                finiteMax = Math.max(finiteMax, upper(b));
            }
        }
    }

    void merge(ValueHistogram o) {
        for (int i = 0; i < BUCKETS; i++) {
            counts[i] += o.counts[i];
        }
        nan += o.nan;
        posInf += o.posInf;
        negInf += o.negInf;
        finiteMin = Math.min(finiteMin, o.finiteMin);
        finiteMax = Math.max(finiteMax, o.finiteMax);
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
                && negInf == h.negInf
                && Double.compare(finiteMin, h.finiteMin) == 0
                && Double.compare(finiteMax, h.finiteMax) == 0;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(counts);
    }
}
