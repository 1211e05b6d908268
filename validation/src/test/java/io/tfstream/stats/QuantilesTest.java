package io.tfstream.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The quantile sketch against tfx-bsl's own test vectors ({@code
 * tfx_bsl/sketches/quantiles_sketch_test.py} at c6462b6: the single-stream cases and the accuracy
 * test) and against exact ranks on random data, merged from parts and serialized.
 */
class QuantilesTest {
    private static final double TFX_EPS = 0.00001;

    private static double[] linspace(int from, int to) {
        double[] v = new double[to - from + 1];
        for (int i = 0; i < v.length; i++) {
            v[i] = from + i;
        }
        return v;
    }

    private static void add(Quantiles q, double[] values, double weight) {
        for (double v : values) {
            q.add(v, weight);
        }
    }

    private static Quantiles oneToThreeHundred(double w1, double w2, double w3) {
        Quantiles q = new Quantiles(TFX_EPS);
        add(q, linspace(1, 100), w1);
        add(q, linspace(101, 200), w2);
        add(q, linspace(201, 300), w3);
        return q;
    }

    @Test
    void tfxBslUnweighted() {
        double[][] r = oneToThreeHundred(1, 1, 1).boundaries(5);
        assertArrayEquals(new double[] {1, 61, 121, 181, 241, 300}, r[0]);
        assertArrayEquals(new double[] {1, 61, 121, 181, 241, 300}, r[1]);
    }

    @Test
    void tfxBslLumpy() {
        Quantiles q = new Quantiles(TFX_EPS);
        add(q, new double[] {1, 2, 3, 4, 2, 2, 2, 2, 1, 2, 3, 4}, 1);
        double[][] r = q.boundaries(3);
        assertArrayEquals(new double[] {1, 2, 3, 4}, r[0]);
        assertArrayEquals(new double[] {2, 8, 10, 12}, r[1]);
    }

    @Test
    void tfxBslMoreQuantilesThanValues() {
        Quantiles q = new Quantiles(TFX_EPS);
        for (int i = 0; i < 100; i++) {
            q.add(0, 1);
        }
        double[][] r = q.boundaries(3);
        assertArrayEquals(new double[] {0, 0, 0, 0}, r[0]);
        assertArrayEquals(new double[] {100, 100, 100, 100}, r[1]);
    }

    @Test
    void tfxBslWeightedWithNanAndNegativeWeights() {
        Quantiles q = oneToThreeHundred(1, 2, 3);
        q.add(-100, Double.NaN);
        q.add(Double.NaN, 10000);
        q.add(100000000, 0);
        q.add(200000000, -1);
        double[][] r = q.boundaries(5);
        assertArrayEquals(new double[] {1, 111, 171, 221, 261, 300}, r[0]);
        assertArrayEquals(new double[] {1, 122, 242, 363, 483, 600}, r[1]);
    }

    @Test
    void tfxBslInfinity() {
        Quantiles q = new Quantiles(TFX_EPS);
        double inf = Double.POSITIVE_INFINITY;
        add(q, new double[] {1, 2, inf, inf, -inf, 3, 4, 5, -inf, 1, inf, -inf}, 1);
        assertArrayEquals(new double[] {-inf, -inf, 1, 4, inf, inf}, q.boundaries(5)[0]);
    }

    @Test
    void tfxBslMergeOfSerializedHalves() throws IOException {
        Quantiles a = new Quantiles(TFX_EPS);
        add(a, linspace(1, 100), 1);
        Quantiles b = new Quantiles(TFX_EPS);
        add(b, linspace(101, 200), 2);
        add(b, linspace(201, 300), 3);
        Quantiles merged = roundTrip(a);
        merged.merge(roundTrip(b));
        assertArrayEquals(new double[] {1, 111, 171, 221, 261, 300}, merged.boundaries(5)[0]);
    }

    /** TFDV's sketch (eps 0.01 / 3, 2^32 elements): 20 levels of 5 701 entries. */
    @Test
    void tfdvSketchSize() {
        assertEquals(5701, new Quantiles(0.01).blockSize());
    }

    /**
     * tfx-bsl's {@code test_accuracy}: values {@code N-1 … 0} with weights {@code 0 … N-1}, every
     * quantile within eps of its level (or the level between its neighbours' cdf), and the reported
     * cumulative weights within eps of the true cdf.
     */
    @ParameterizedTest
    @CsvSource({
        "1024, 0.5, 625",
        "1024, 0.01, 729",
        "16384, 0.01, 1000",
        "16384, 0.001, 1024",
        "262144, 0.01, 1000",
        "524288, 0.001, 729",
        "524288, 0.5, 1024"
    })
    void tfxBslAccuracy(int n, double eps, int numQuantiles) {
        Quantiles q = new Quantiles(eps, n);
        for (int i = 0; i < n; i++) {
            q.add(n - 1 - i, i);
        }
        double total = (n - 1.0) * n / 2;
        java.util.function.DoubleUnaryOperator cdf = x -> (2.0 * (n - 1) - x) * (x + 1) / 2 / total;
        double[][] r = q.boundaries(numQuantiles);
        double maxReported = Arrays.stream(r[1]).max().orElseThrow();
        for (int i = 0; i < r[0].length; i++) {
            double level = (double) i / (r[0].length - 1);
            double x = r[0][i];
            boolean ok =
                    Math.abs(level - cdf.applyAsDouble(x)) < eps
                            || (cdf.applyAsDouble(x - 1) < level
                                    && level < cdf.applyAsDouble(x + 1))
                            || (level == 0 && cdf.applyAsDouble(x - 1) == 0);
            assertTrue(ok, "quantile " + i + " = " + x + " of level " + level);
            assertEquals(cdf.applyAsDouble(x), r[1][i] / maxReported, eps, "cdf at " + x);
        }
    }

    /**
     * Random values in 64 parts (each sketched, serialized and merged, as the job's windows are):
     * every quantile's true rank within eps × N of its requested rank.
     */
    @Test
    void mergedPartsStayWithinTheBound() throws IOException {
        Random random = new Random(7);
        int n = 400_000;
        double eps = 0.01;
        double[] all = new double[n];
        Quantiles merged = new Quantiles(eps);
        Quantiles onePass = new Quantiles(eps);
        int k = 0;
        for (int part = 0; part < 64; part++) {
            Quantiles p = new Quantiles(eps);
            for (int i = 0; i < n / 64; i++) {
                double v = random.nextGaussian() * 1000;
                all[k++] = v;
                p.add(v, 1);
                onePass.add(v, 1);
            }
            merged.merge(roundTrip(p));
        }
        Arrays.sort(all);
        for (Quantiles q : new Quantiles[] {merged, onePass}) {
            assertTrue(q.size() < 25 * q.blockSize(), "bounded: " + q.size());
            double[][] r = q.boundaries(1000);
            for (int i = 0; i <= 1000; i++) {
                double want = (double) i * n / 1000;
                int below = lowerBound(all, r[0][i]);
                int upTo = upperBound(all, r[0][i]);
                double err = want < below ? below - want : want > upTo ? want - upTo : 0;
                assertTrue(err <= eps * n, "quantile " + i + " off by " + err);
            }
        }
    }

    /** Below one buffer the sketch is exact: merged parts answer as one pass, as exact mode. */
    @Test
    void exactBelowTheFirstBuffer() throws IOException {
        Random random = new Random(3);
        Quantiles exact = new Quantiles(0);
        Quantiles sketch = new Quantiles(0.01);
        Quantiles merged = new Quantiles(0.01);
        for (int part = 0; part < 10; part++) {
            Quantiles p = new Quantiles(0.01);
            for (int i = 0; i < 1000; i++) {
                double v = random.nextInt(700) / 7.0;
                double w = 1 + random.nextInt(3);
                exact.add(v, w);
                sketch.add(v, w);
                p.add(v, w);
            }
            merged.merge(roundTrip(p));
        }
        for (int buckets : new int[] {10, 1000}) {
            double[][] e = exact.boundaries(buckets);
            assertArrayEquals(e[0], sketch.boundaries(buckets)[0]);
            assertArrayEquals(e[1], sketch.boundaries(buckets)[1]);
            assertArrayEquals(e[0], merged.boundaries(buckets)[0]);
            assertArrayEquals(e[1], roundTrip(merged).boundaries(buckets)[1]);
        }
    }

    private static int lowerBound(double[] a, double x) {
        int lo = 0;
        int hi = a.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < x) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static int upperBound(double[] a, double x) {
        int lo = 0;
        int hi = a.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] <= x) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    static Quantiles roundTrip(Quantiles q) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        q.write(new DataOutputStream(bytes));
        return Quantiles.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
    }

    /**
     * Merging sketches that hold only buffered values copies their buffers in bulk: the sketch is
     * the one adding the same values one by one makes, flushed at the same points (the written
     * bytes equal), weighted or not, and so is one read back from bytes.
     */
    @ParameterizedTest
    @CsvSource({"3000, 1", "3000, 0", "11402, 1", "700, 0"})
    void bulkMergesAndReadsHoldWhatValueByValueWould(int partSize, int unit) throws IOException {
        Random rnd = new Random(partSize + unit);
        Quantiles merged = new Quantiles(0.01);
        Quantiles added = new Quantiles(0.01);
        for (int part = 0; part < 5; part++) {
            Quantiles p = new Quantiles(0.01);
            for (int i = 0; i < partSize; i++) {
                double v = i % 7 == 0 ? Double.NaN : i % 11 == 0 ? -0.0 : rnd.nextGaussian();
                double w = unit == 1 ? 1 : rnd.nextInt(3);
                p.add(v, w);
                added.add(v, w);
            }
            if (partSize < 11_402) {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                p.write(new DataOutputStream(bytes));
                p =
                        Quantiles.read(
                                new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
            }
            merged.merge(p);
        }
        ByteArrayOutputStream a = new ByteArrayOutputStream();
        merged.write(new DataOutputStream(a));
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        added.write(new DataOutputStream(b));
        if (partSize < 11_402) {
            assertArrayEquals(b.toByteArray(), a.toByteArray());
        } else {
            // a full part was flushed into its own summary: what a merge of summaries gives
            assertEquals(added.boundaries(10)[1][10], merged.boundaries(10)[1][10], 1e-6);
        }
    }
}
