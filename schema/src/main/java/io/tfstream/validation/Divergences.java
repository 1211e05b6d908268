package io.tfstream.validation;

import java.util.Arrays;

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
     * JSD of two numeric histograms on the shared grid; NaN counts get a bucket per side, so NaN on
     * both sides still counts as different, as TFDV does.
     */
    static double jensenShannon(ValueHistogram cur, ValueHistogram prev) {
        int n = ValueHistogram.BUCKETS;
        double[] p = new double[n + 4];
        double[] q = new double[n + 4];
        for (int i = 0; i < n; i++) {
            p[i] = cur.counts[i];
            q[i] = prev.counts[i];
        }
        p[n] = cur.posInf;
        q[n] = prev.posInf;
        p[n + 1] = cur.negInf;
        q[n + 1] = prev.negInf;
        p[n + 2] = cur.nan;
        q[n + 3] = prev.nan;
        return jensenShannon(p, q);
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
