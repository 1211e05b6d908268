package io.tfstream.validation;

import io.tfstream.stats.ByteKeyTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The distances of TFDV's {@code metrics.cc}: L-infinity between two value→count maps (each
 * normalized by its own total; the value reported is the one attaining the maximum, last in byte
 * order on ties) and the Jensen-Shannon divergence, log base 2, capped at 1.
 */
final class Divergences {
    private Divergences() {}

    /** {@code LInftyDistance}: {distance, value} over the union of the two tables' values. */
    static Object[] lInfinity(ByteKeyTable cur, ByteKeyTable prev) {
        double tc = total(cur);
        double tp = total(prev);
        byte[][] keys = union(cur, prev);
        double best = 0;
        byte[] at = new byte[0];
        for (byte[] k : keys) {
            double p = share(cur, k, tc);
            double q = share(prev, k, tp);
            double d = Math.abs(p - q);
            if (d >= best) {
                best = d;
                at = k;
            }
        }
        return new Object[] {best, TfdvFormat.cEscape(at)};
    }

    /** JSD of two categorical distributions. */
    static double jensenShannon(ByteKeyTable cur, ByteKeyTable prev) {
        byte[][] keys = union(cur, prev);
        double[] p = new double[keys.length];
        double[] q = new double[keys.length];
        for (int i = 0; i < keys.length; i++) {
            p[i] = count(cur, keys[i]);
            q[i] = count(prev, keys[i]);
        }
        return jensenShannon(p, q);
    }

    /**
     * TFDV's {@code JensenShannonDivergence} of two numeric features: each side's {@code STANDARD}
     * histogram ({@link StandardHistogram}), aligned as {@code AlignHistograms} does (point and
     * infinite buckets stripped, the rest rebucketed onto the union of both sides' boundaries
     * assuming values spread evenly inside a bucket, point masses added back per distinct point,
     * infinite mass as one bucket per side, NaN in two buckets that never overlap), then the JSD of
     * the normalized counts. NaN when a side has nothing to normalize.
     */
    static double jensenShannon(ValueHistogram cur, ValueHistogram prev) {
        StandardHistogram a = StandardHistogram.of(cur, StandardHistogram.TFDV_BUCKETS);
        StandardHistogram b = StandardHistogram.of(prev, StandardHistogram.TFDV_BUCKETS);
        double[][] aligned = align(a, b);
        return jensenShannon(aligned[0], aligned[1]);
    }

    /** {@code AlignHistograms}: the two sides' counts over one common list of buckets. */
    static double[][] align(StandardHistogram h1, StandardHistogram h2) {
        Stripped s1 = strip(h1);
        Stripped s2 = strip(h2);
        java.util.TreeSet<Double> b1 = boundaries(s1.buckets);
        java.util.TreeSet<Double> b2 = boundaries(s2.buckets);
        List<Double> c1 = counts(s1.buckets);
        List<Double> c2 = counts(s2.buckets);
        if (!b1.equals(b2)) {
            java.util.TreeSet<Double> all = new java.util.TreeSet<>(b1);
            all.addAll(b2);
            double[] bounds = all.stream().mapToDouble(Double::doubleValue).toArray();
            c1 = rebucket(bounds, s1.buckets);
            c2 = rebucket(bounds, s2.buckets);
        }
        java.util.TreeSet<Double> points = new java.util.TreeSet<>(s1.points.keySet());
        points.addAll(s2.points.keySet());
        for (double p : points) {
            c1.add(s1.points.getOrDefault(p, 0.0));
            c2.add(s2.points.getOrDefault(p, 0.0));
        }
        if (s1.infinite != 0) {
            c1.add(s1.infinite);
            c2.add(0.0);
        }
        if (s2.infinite != 0) {
            c1.add(0.0);
            c2.add(s2.infinite);
        }
        if (h1.numNan > 0 || h2.numNan > 0) {
            c1.add(0.0);
            c1.add(h1.numNan);
            c2.add(h2.numNan);
            c2.add(0.0);
        }
        return new double[][] {
            c1.stream().mapToDouble(Double::doubleValue).toArray(),
            c2.stream().mapToDouble(Double::doubleValue).toArray()
        };
    }

    /**
     * A histogram without its point and infinite buckets ({@code StripPointAndInfiniteBuckets}).
     */
    private record Stripped(
            List<double[]> buckets, java.util.TreeMap<Double, Double> points, double infinite) {}

    private static Stripped strip(StandardHistogram h) {
        List<double[]> buckets = new ArrayList<>();
        java.util.TreeMap<Double, Double> points = new java.util.TreeMap<>();
        double infinite = 0;
        for (double[] b : h.buckets) {
            if (!Double.isFinite(b[0]) || !Double.isFinite(b[1])) {
                infinite += b[2];
            } else if (b[0] == b[1]) {
                points.merge(b[0], b[2], Double::sum);
            } else {
                buckets.add(b);
            }
        }
        return new Stripped(buckets, points, infinite);
    }

    private static java.util.TreeSet<Double> boundaries(List<double[]> buckets) {
        java.util.TreeSet<Double> s = new java.util.TreeSet<>();
        for (double[] b : buckets) {
            s.add(b[0]);
            s.add(b[1]);
        }
        return s;
    }

    private static List<Double> counts(List<double[]> buckets) {
        List<Double> c = new ArrayList<>();
        for (double[] b : buckets) {
            c.add(b[2]);
        }
        return c;
    }

    /**
     * {@code RebucketHistogram}: the counts of {@code buckets} over the buckets between consecutive
     * {@code bounds} (which hold every bound of {@code buckets}), spread evenly inside a bucket.
     */
    private static List<Double> rebucket(double[] bounds, List<double[]> buckets) {
        List<Double> out = new ArrayList<>();
        int index = 0;
        for (double[] b : buckets) {
            double low = b[0];
            double high = b[1];
            while (low > bounds[index]) {
                out.add(0.0);
                index++;
            }
            int from = index;
            while (high > bounds[index]) {
                index++;
            }
            for (int i = from; i < index; i++) {
                out.add((bounds[i + 1] - bounds[i]) / (high - low) * b[2]);
            }
        }
        for (int i = index; i < bounds.length - 1; i++) {
            out.add(0.0);
        }
        return out;
    }

    /** {@code (KL(P‖M) + KL(Q‖M)) / 2} of two unnormalized count vectors, capped at 1. */
    static double jensenShannon(double[] p, double[] q) {
        double sp = Arrays.stream(p).sum();
        double sq = Arrays.stream(q).sum();
        if (sp == 0 || sq == 0) {
            return Double.NaN;
        }
        double kl = 0;
        for (int i = 0; i < p.length; i++) {
            double a = p[i] / sp;
            double b = q[i] / sq;
            double m = (a + b) / 2;
            if (a > 0) {
                kl += a * log2(a / m);
            }
            if (b > 0) {
                kl += b * log2(b / m);
            }
        }
        return Math.min(1.0, kl / 2);
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }

    private static double total(ByteKeyTable t) {
        double s = 0;
        for (int i = 0; i < t.size(); i++) {
            s += t.count(i);
        }
        return s;
    }

    private static double count(ByteKeyTable t, byte[] k) {
        int id = t.find(k, 0, k.length);
        return id < 0 ? 0 : t.count(id);
    }

    private static double share(ByteKeyTable t, byte[] k, double total) {
        return total == 0 ? 0 : count(t, k) / total;
    }

    private static byte[][] union(ByteKeyTable a, ByteKeyTable b) {
        java.util.TreeSet<byte[]> keys = new java.util.TreeSet<>(Arrays::compareUnsigned);
        for (int i = 0; i < a.size(); i++) {
            keys.add(a.key(i));
        }
        for (int i = 0; i < b.size(); i++) {
            keys.add(b.key(i));
        }
        return keys.toArray(new byte[0][]);
    }
}
