package io.tfstream.validation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Numeric Jensen-Shannon drift as TFDV computes it: the cases of TFDV's {@code metrics_test.cc}
 * (aligning and rebucketing two {@code STANDARD} histograms), and the {@code STANDARD} histogram
 * derived from the window's grid as {@code generate_equi_width_histogram} derives it from a
 * quantile sketch.
 */
class NumericDriftTest {
    private static double jsd(StandardHistogram a, StandardHistogram b) {
        double[][] aligned = Divergences.align(a, b);
        return Divergences.jensenShannon(aligned[0], aligned[1]);
    }

    @Test
    void tfdvSameStatistics() {
        StandardHistogram h =
                StandardHistogram.withNan(0)
                        .add(1.0, 2.3333333, 2.9866667)
                        .add(2.3333333, 3.6666667, 1.0066667)
                        .add(3.6666667, 5.0, 2.0066667);
        assertEquals(0.0, jsd(h, h), 1e-5);
    }

    /**
     * TFDV's {@code AlignHistograms} puts each side's NaN count in a bucket of its own, so NaN on
     * both sides counts as a difference: one NaN among 7 values on each side gives 1/7.
     */
    @Test
    void nanOnBothSidesNeverOverlaps() {
        StandardHistogram h =
                StandardHistogram.withNan(1)
                        .add(1.0, 2.3333333, 2.9866667)
                        .add(2.3333333, 3.6666667, 1.0066667)
                        .add(3.6666667, 5.0, 2.0066667);
        assertEquals(1.0 / 7, jsd(h, h), 1e-7);
    }

    @Test
    void tfdvDifferentBucketBoundaries() {
        StandardHistogram a = StandardHistogram.withNan(0).add(1, 2, 2).add(2, 3, 2);
        StandardHistogram b = StandardHistogram.withNan(0).add(2, 4, 2).add(4, 6, 2);
        double[][] aligned = Divergences.align(a, b);
        assertArrayEquals(new double[] {2, 2, 0, 0}, aligned[0], 1e-12);
        assertArrayEquals(new double[] {0, 1, 1, 2}, aligned[1], 1e-12);
        assertEquals(0.65563906222, jsd(a, b), 1e-5);
    }

    @Test
    void tfdvNoOverlap() {
        StandardHistogram a = StandardHistogram.withNan(0).add(0, 1, 2).add(1, 2, 2);
        StandardHistogram b = StandardHistogram.withNan(0).add(3, 4, 2).add(4, 6, 2);
        assertEquals(1.0, jsd(a, b), 1e-5);
    }

    @Test
    void tfdvAllValuesInOneBucket() {
        StandardHistogram a = StandardHistogram.withNan(0).add(1, 1, 4);
        StandardHistogram b = StandardHistogram.withNan(0).add(2, 4, 2).add(4, 6, 2);
        assertEquals(1.0, jsd(a, b), 1e-5);
    }

    @Test
    void tfdvWithNaNs() {
        StandardHistogram a = StandardHistogram.withNan(1).add(1, 2, 3);
        StandardHistogram b = StandardHistogram.withNan(0).add(1, 2, 4);
        assertEquals(0.13792538096, jsd(a, b), 1e-5);
    }

    @Test
    void infiniteMassIsOneBucketPerSide() {
        StandardHistogram a =
                StandardHistogram.withNan(0)
                        .add(Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, 1)
                        .add(0, 1, 3);
        StandardHistogram b =
                StandardHistogram.withNan(0)
                        .add(0, 1, 3)
                        .add(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, 1);
        double[][] aligned = Divergences.align(a, b);
        assertArrayEquals(new double[] {3, 1, 0}, aligned[0], 0);
        assertArrayEquals(new double[] {3, 0, 1}, aligned[1], 0);
    }

    @Test
    void linspaceIsNumpys() {
        double[] y = StandardHistogram.linspace(0, 1, 11);
        assertEquals(0.30000000000000004, y[3], 0); // numpy.linspace(0, 1, 11)[3]
        assertEquals(1.0, y[10], 0);
        assertEquals(0.7000000000000001, y[7], 0);
    }

    @Test
    void standardHistogramHasTenEqualBucketsOverTheFiniteRangeAndKeepsTheMass() {
        Random r = new Random(1);
        ValueHistogram h = new ValueHistogram();
        for (int i = 0; i < 10_000; i++) {
            h.add(100 + 900 * r.nextDouble());
        }
        h.add(Double.NaN);
        h.add(Double.POSITIVE_INFINITY);
        h.add(Double.NEGATIVE_INFINITY);
        h.add(Double.NEGATIVE_INFINITY);
        StandardHistogram s = StandardHistogram.of(h, StandardHistogram.TFDV_BUCKETS);
        assertEquals(12, s.buckets.size());
        assertArrayEquals(
                new double[] {Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, 2},
                s.buckets.get(0),
                0);
        assertArrayEquals(
                new double[] {Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, 1},
                s.buckets.get(11),
                0);
        assertEquals(1, s.numNan, 0);
        double width = (h.finiteMax - h.finiteMin) / 10;
        double total = 0;
        for (int i = 1; i <= 10; i++) {
            double[] b = s.buckets.get(i);
            assertEquals(width, b[1] - b[0], 1e-9);
            // uniform data: each tenth holds about a tenth, up to the grid's 12.5 % resolution
            assertEquals(1000, b[2], 150, "bucket " + i);
            total += b[2];
        }
        assertEquals(h.finiteMin, s.buckets.get(1)[0], 0);
        assertEquals(h.finiteMax, s.buckets.get(10)[1], 0);
        assertEquals(10_000, total, 1e-6);
    }

    @Test
    void oneDistinctValueIsAPointBucket() {
        ValueHistogram h = new ValueHistogram();
        for (int i = 0; i < 5; i++) {
            h.add(3.5);
        }
        StandardHistogram s = StandardHistogram.of(h, 10);
        assertEquals(1, s.buckets.size());
        assertArrayEquals(new double[] {3.5, 3.5, 5}, s.buckets.get(0), 0);
    }

    @Test
    void noFiniteValueIsOneBucketOfAllInfiniteValues() {
        ValueHistogram h = new ValueHistogram();
        h.add(Double.POSITIVE_INFINITY);
        h.add(Double.NEGATIVE_INFINITY);
        h.add(Double.NaN);
        StandardHistogram s = StandardHistogram.of(h, 10);
        assertEquals(1, s.buckets.size());
        assertArrayEquals(
                new double[] {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 2},
                s.buckets.get(0),
                0);
    }

    @Test
    void gridBoundsEnclosEveryValue() {
        Random r = new Random(5);
        for (int i = 0; i < 100_000; i++) {
            double v = (r.nextBoolean() ? 1 : -1) * Math.scalb(r.nextDouble(), r.nextInt(160) - 80);
            int b = ValueHistogram.bucket(v);
            assertTrue(
                    ValueHistogram.lower(b) <= v && v <= ValueHistogram.upper(b),
                    v + " in bucket " + b);
        }
    }

    @Test
    void driftOfTheWindowGrids() {
        Random r = new Random(3);
        ValueHistogram same1 = new ValueHistogram();
        ValueHistogram same2 = new ValueHistogram();
        ValueHistogram shifted = new ValueHistogram();
        ValueHistogram disjoint = new ValueHistogram();
        for (int i = 0; i < 20_000; i++) {
            same1.add(r.nextGaussian() * 10 + 50);
            same2.add(r.nextGaussian() * 10 + 50);
            shifted.add(r.nextGaussian() * 10 + 60);
            disjoint.add(r.nextGaussian() + 1000);
        }
        double same = Divergences.jensenShannon(same1, same2);
        double shift = Divergences.jensenShannon(same1, shifted);
        assertTrue(same < 0.01, "same distribution " + same);
        assertTrue(shift > 0.1 && shift < 0.5, "shifted by one sigma " + shift);
        assertEquals(1.0, Divergences.jensenShannon(same1, disjoint), 1e-9);
    }
}
