package io.tfstream.validation;

import java.util.ArrayList;
import java.util.List;

/**
 * TFDV's {@code STANDARD} numeric histogram ({@code quantiles_util.generate_equi_width_histogram}):
 * {@code num_histogram_buckets} equal-width buckets over the finite [min, max] (one point bucket
 * when min equals max), a {@code [-inf, -inf]} bucket first and an {@code [inf, inf]} bucket last
 * for infinite values, NaN counted apart; with no finite value at all, one bucket {@code [inf,
 * -inf]} holding every infinite value. TFDV interpolates the counts from the buckets of its
 * quantile sketch, assuming values spread evenly inside a bucket; here the sketch's part is played
 * by the fine grid of a {@link ValueHistogram}, whose outer buckets are clipped to the exact finite
 * minimum and maximum.
 */
final class StandardHistogram {
    /** TFDV's default {@code num_histogram_buckets}. */
    static final int TFDV_BUCKETS = 10;

    final List<double[]> buckets = new ArrayList<>(); // {low, high, count}
    final double numNan;

    private StandardHistogram(double numNan) {
        this.numNan = numNan;
    }

    /** A histogram with {@code numNan} NaN values and no bucket yet. */
    static StandardHistogram withNan(double numNan) {
        return new StandardHistogram(numNan);
    }

    StandardHistogram add(double low, double high, double count) {
        buckets.add(new double[] {low, high, count});
        return this;
    }

    static StandardHistogram of(ValueHistogram h, int numBuckets) {
        StandardHistogram out = new StandardHistogram(h.nan);
        double min = h.finiteMin;
        double max = h.finiteMax;
        if (!Double.isFinite(min) && !Double.isFinite(max)) {
            out.add(min, max, h.posInf + h.negInf);
            return out;
        }
        List<double[]> grid = new ArrayList<>();
        for (int b = 0; b < ValueHistogram.BUCKETS; b++) {
            if (h.counts[b] != 0) {
                double lo = Math.max(ValueHistogram.lower(b), min);
                double hi = Math.min(ValueHistogram.upper(b), max);
                grid.add(new double[] {lo, hi, h.counts[b]});
            }
        }
        double[] bounds;
        if (min == max) {
            bounds = new double[] {min, max};
        } else {
            bounds = linspace(min, max, numBuckets + 1);
            for (double b : bounds) {
                if (!Double.isFinite(b)) {
                    return out; // overflow: TFDV returns an empty histogram
                }
            }
        }
        if (h.negInf != 0) {
            out.add(Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, h.negInf);
        }
        int start = 0;
        for (int i = 0; i + 1 < bounds.length; i++) {
            double low = bounds[i];
            double high = bounds[i + 1];
            double count = 0;
            for (int k = start; k < grid.size(); k++) {
                double[] g = grid.get(k);
                int where = position(g, low, high, i == 0);
                if (where > 0) {
                    break;
                }
                if (where < 0) {
                    start = k;
                    continue;
                }
                count += overlap(g, low, high, i == 0) * g[2];
            }
            out.add(low, high, count);
        }
        if (h.posInf != 0) {
            out.add(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, h.posInf);
        }
        return out;
    }

    /** numpy's {@code linspace(start, stop, num)}: {@code start + i * step}, the last one exact. */
    static double[] linspace(double start, double stop, int num) {
        double[] y = new double[num];
        double step = (stop - start) / (num - 1);
        for (int i = 0; i < num; i++) {
            y[i] = i * step + start;
        }
        y[num - 1] = stop;
        return y;
    }

    /**
     * {@code _overlap}'s "precedes" (-1) and "follows" (1) answers, 0 when the bucket may overlap
     * the interval.
     */
    private static int position(double[] b, double low, double high, boolean first) {
        if (first && b[1] == b[0] && b[0] == low) {
            return 0;
        }
        if (!first && b[1] == b[0] && b[0] == low) {
            return -1;
        }
        if (b[1] < low) {
            return -1;
        }
        if (b[0] > high) {
            return 1;
        }
        return 0;
    }

    /** {@code _overlap}: the fraction of bucket {@code b} inside {@code [low, high]}. */
    private static double overlap(double[] b, double low, double high, boolean first) {
        double bl = b[0];
        double bh = b[1];
        if (first && bh == bl && bl == low) {
            return 1.0;
        }
        if (low <= bl && high >= bh) {
            return 1.0;
        }
        if (low <= bl) {
            return (high - bl) / (bh - bl);
        }
        if (high >= bh) {
            return (bh - low) / (bh - bl);
        }
        return (high - low) / (bh - bl);
    }
}
