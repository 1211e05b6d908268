package io.tfstream.stats;

import java.util.Map;
import java.util.TreeMap;

/**
 * An exact weighted quantile summary: every distinct value with its weight, sorted. It answers as
 * tfx-bsl's weighted quantiles summary ({@code GenerateQuantilesAndCumulativeWeights}) does while
 * that summary is still exact (TFDV's sketch, with epsilon 0.01, is exact up to about 5 700
 * distinct values); above that TFDV's answers are within its sketch's error of these, and depend on
 * how its batches were merged. NaN is never added.
 */
final class Quantiles {
    private final TreeMap<Double, Double> weights = new TreeMap<>();

    /** Adds {@code value} with weight {@code weight} (NaN values and weights ≤ 0 are ignored). */
    void add(double value, double weight) {
        if (Double.isNaN(value) || !(weight > 0)) {
            return;
        }
        // -0.0 and 0.0 are one value, as in the sketch's comparison
        weights.merge(value == 0 ? 0.0 : value, weight, Double::sum);
    }

    /** Adds everything {@code other} holds. */
    void merge(Quantiles other) {
        other.weights.forEach((v, w) -> weights.merge(v, w, Double::sum));
    }

    boolean isEmpty() {
        return weights.isEmpty();
    }

    /** Distinct values held. */
    int size() {
        return weights.size();
    }

    /** Sum of the weights held. */
    double totalWeight() {
        double w = 0;
        for (double x : weights.values()) {
            w += x;
        }
        return w;
    }

    /** Σ weight × value over the values held. */
    double weightedSum() {
        double s = 0;
        for (Map.Entry<Double, Double> e : weights.entrySet()) {
            s += e.getKey() * e.getValue();
        }
        return s;
    }

    /** Σ weight × (value − mean)² over the values held. */
    double weightedSquares(double mean) {
        double s = 0;
        for (Map.Entry<Double, Double> e : weights.entrySet()) {
            double d = e.getKey() - mean;
            s += d * d * e.getValue();
        }
        return s;
    }

    /**
     * The {@code n + 1} quantile boundaries of ranks {@code 0, W/n, …, W} and, parallel to them,
     * the cumulative weight up to and including each boundary's value ({@code result[0]}: values,
     * {@code result[1]}: weights). Must not be empty.
     */
    double[][] boundaries(int n) {
        int size = weights.size();
        double[] v = new double[size];
        double[] w = new double[size];
        double[] minRank = new double[size];
        double[] maxRank = new double[size];
        int i = 0;
        double cum = 0;
        for (Map.Entry<Double, Double> e : weights.entrySet()) {
            v[i] = e.getKey();
            w[i] = e.getValue();
            minRank[i] = cum;
            cum += w[i];
            maxRank[i] = cum;
            i++;
        }
        double total = cum;
        double[] q = new double[n + 1];
        double[] c = new double[n + 1];
        int cur = 0;
        for (int r = 0; r <= n; r++) {
            double d2 = 2 * ((double) r * total / n);
            int next = cur + 1;
            while (next < size && d2 >= minRank[next] + maxRank[next]) {
                next++;
            }
            cur = next - 1;
            int pick =
                    next == size || d2 < (minRank[cur] + w[cur]) + (maxRank[next] - w[next])
                            ? cur
                            : next;
            q[r] = v[pick];
            c[r] = maxRank[pick];
        }
        return new double[][] {q, c};
    }
}
