package io.tfstream.stats;

import java.util.Arrays;
import org.tensorflow.metadata.v0.Histogram;

/**
 * TFDV's histograms from quantile boundaries ({@code tensorflow_data_validation/utils/
 * quantiles_util.py}): the QUANTILES histogram of boundaries and cumulative weights, the STANDARD
 * (equal-width) histogram interpolated from a fine quantiles histogram, and the median. Ported step
 * for step, so that the same boundaries give the same buckets and counts.
 */
final class Histograms {
    private Histograms() {}

    /** The median of boundaries {@code q}: the middle one, or the mean of the middle two. */
    static double median(double[] q) {
        int mid = q.length / 2;
        return q.length % 2 == 0 ? (q[mid - 1] + q[mid]) / 2.0 : q[mid];
    }

    /** {@code q} and {@code c} with only the first entry and every {@code factor}-th after it. */
    static double[][] rebin(double[] q, double[] c, int factor) {
        int n = (c.length - 1) / factor;
        double[] rq = new double[n + 1];
        double[] rc = new double[n + 1];
        rq[0] = q[0];
        rc[0] = c[0];
        for (int i = 1; i <= n; i++) {
            rq[i] = q[i * factor];
            rc[i] = c[i * factor];
        }
        return new double[][] {rq, rc};
    }

    /**
     * The QUANTILES histogram of boundaries {@code q} and cumulative weights {@code c}: bucket i is
     * {@code [q[i], q[i+1]]}; the weight of buckets sharing an upper bound is spread evenly over
     * them, and the weight of the minimum over the leading buckets identical to the first.
     */
    static Histogram quantiles(double[] q, double[] c) {
        Histogram.Builder h = Histogram.newBuilder().setType(Histogram.HistogramType.QUANTILES);
        int n = q.length - 1;
        double[] counts = binWeights(q, c);
        for (int i = 0; i < n; i++) {
            h.addBuckets(bucket(q[i], q[i + 1], counts[i]));
        }
        return h.build();
    }

    private static double[] binWeights(double[] q, double[] c) {
        int n = q.length - 1;
        double[] counts = new double[n];
        for (int i = 0; i < n; i++) {
            counts[i] = c[i + 1] - c[i];
        }
        int i = 0;
        while (i < n) {
            int j = i + 1;
            while (j < n && q[i + 1] == q[j + 1]) {
                j++;
            }
            if (j > i + 1) {
                double sum = 0;
                for (int k = i; k < j; k++) {
                    sum += counts[k];
                }
                Arrays.fill(counts, i, j, sum / (j - i));
            }
            i = j;
        }
        int same = 0;
        while (same < n && q[0] == q[same] && q[1] == q[same + 1]) {
            same++;
        }
        for (int k = 0; k < same; k++) {
            counts[k] += c[0] / same;
        }
        return counts;
    }

    /**
     * The STANDARD histogram of {@code buckets} equal-width buckets between the finite extremes,
     * with −inf and +inf values in point buckets of their own, counts interpolated from the fine
     * quantiles histogram of {@code q} and {@code c} (values assumed uniform within a bucket).
     */
    static Histogram equiWidth(
            double[] q,
            double[] c,
            double finiteMin,
            double finiteMax,
            int buckets,
            double numPosInf) {
        Histogram.Builder h = Histogram.newBuilder().setType(Histogram.HistogramType.STANDARD);
        if (!Double.isFinite(finiteMin) && !Double.isFinite(finiteMax)) {
            return h.addBuckets(bucket(finiteMin, finiteMax, c[c.length - 1])).build();
        }
        // strip -inf: boundaries are right-hand bounds, so buckets ending in -inf go
        int negInf = 0;
        while (negInf < q.length && q[negInf] == Double.NEGATIVE_INFINITY) {
            negInf++;
        }
        double numNegInf = 0;
        if (negInf > 0) {
            numNegInf = c[negInf - 1];
            q = Arrays.copyOfRange(q, negInf, q.length);
            c = Arrays.copyOfRange(c, negInf, c.length);
            for (int i = 0; i < c.length; i++) {
                c[i] -= numNegInf;
            }
        }
        if (numPosInf != 0) {
            int posInf = 0;
            while (posInf < q.length && q[posInf] < Double.POSITIVE_INFINITY) {
                posInf++;
            }
            double finiteMaxCount = c[c.length - 1] - numPosInf;
            q = Arrays.copyOf(q, posInf + 1);
            c = Arrays.copyOf(c, posInf + 1);
            q[posInf] = finiteMax;
            c[posInf] = finiteMaxCount;
        }
        Histogram fine = quantiles(q, c);
        double[] edges;
        if (finiteMin == finiteMax) {
            edges = new double[] {finiteMin, finiteMax};
        } else {
            edges = linspace(finiteMin, finiteMax, buckets + 1);
            for (double e : edges) {
                if (!Double.isFinite(e)) {
                    return h.build(); // overflow: TFDV gives up the same way
                }
            }
        }
        if (numNegInf != 0) {
            h.addBuckets(bucket(Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, numNegInf));
        }
        int start = 0;
        for (int i = 0; i < edges.length - 1; i++) {
            double low = edges[i];
            double high = edges[i + 1];
            double count = 0;
            for (int k = start; k < fine.getBucketsCount(); k++) {
                Histogram.Bucket b = fine.getBuckets(k);
                double overlap;
                boolean precedes = false;
                if (b.getHighValue() == b.getLowValue() && b.getLowValue() == low) {
                    // a point bucket on the left edge belongs to the first interval only
                    overlap = i == 0 ? 1.0 : 0.0;
                    precedes = i != 0;
                } else if (b.getHighValue() < low) {
                    overlap = 0;
                    precedes = true;
                } else if (b.getLowValue() > high) {
                    break;
                } else if (low <= b.getLowValue() && high >= b.getHighValue()) {
                    overlap = 1.0;
                } else if (low <= b.getLowValue()) {
                    overlap = (high - b.getLowValue()) / (b.getHighValue() - b.getLowValue());
                } else if (high >= b.getHighValue()) {
                    overlap = (b.getHighValue() - low) / (b.getHighValue() - b.getLowValue());
                } else {
                    overlap = (high - low) / (b.getHighValue() - b.getLowValue());
                }
                if (precedes) {
                    start = k;
                }
                count += overlap * b.getSampleCount();
            }
            h.addBuckets(bucket(low, high, count));
        }
        if (numPosInf != 0) {
            h.addBuckets(bucket(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, numPosInf));
        }
        return h.build();
    }

    /** numpy's linspace: evenly spaced, the last point exactly {@code stop}. */
    private static double[] linspace(double start, double stop, int num) {
        double[] out = new double[num];
        double step = (stop - start) / (num - 1);
        for (int i = 0; i < num; i++) {
            out[i] = start + i * step;
        }
        out[num - 1] = stop;
        return out;
    }

    static Histogram.Bucket bucket(double low, double high, double count) {
        return Histogram.Bucket.newBuilder()
                .setLowValue(low)
                .setHighValue(high)
                .setSampleCount(count)
                .build();
    }
}
