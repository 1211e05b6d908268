package io.tfstream.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.stats.ByteKeyTable;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.tensorflow.metadata.v0.FeatureNameStatistics;
import org.tensorflow.metadata.v0.Histogram;
import org.tensorflow.metadata.v0.NumericStatistics;
import org.tensorflow.metadata.v0.RankHistogram;
import org.tensorflow.metadata.v0.StringStatistics;

/**
 * Drift between two statistics protos is the drift alerts' measure of the same distributions: the
 * cases of TFDV's {@code metrics_test.cc} read from {@code STANDARD} histograms and rank
 * histograms.
 */
class StatisticsDriftTest {
    private static FeatureNameStatistics numeric(long nan, double[]... buckets) {
        Histogram.Builder h = Histogram.newBuilder().setType(Histogram.HistogramType.STANDARD);
        h.setNumNan(nan);
        for (double[] b : buckets) {
            h.addBuckets(
                    Histogram.Bucket.newBuilder()
                            .setLowValue(b[0])
                            .setHighValue(b[1])
                            .setSampleCount(b[2]));
        }
        // a QUANTILES histogram first: the STANDARD one is the one read
        return FeatureNameStatistics.newBuilder()
                .setName("x")
                .setType(FeatureNameStatistics.Type.FLOAT)
                .setNumStats(
                        NumericStatistics.newBuilder()
                                .addHistograms(
                                        Histogram.newBuilder()
                                                .setType(Histogram.HistogramType.QUANTILES)
                                                .addBuckets(
                                                        Histogram.Bucket.newBuilder()
                                                                .setLowValue(-100)
                                                                .setHighValue(100)
                                                                .setSampleCount(4)))
                                .addHistograms(h))
                .build();
    }

    private static FeatureNameStatistics categorical(Object... labelsAndCounts) {
        RankHistogram.Builder r = RankHistogram.newBuilder();
        for (int i = 0; i < labelsAndCounts.length; i += 2) {
            r.addBuckets(
                    RankHistogram.Bucket.newBuilder()
                            .setLabel((String) labelsAndCounts[i])
                            .setSampleCount(((Number) labelsAndCounts[i + 1]).doubleValue()));
        }
        return FeatureNameStatistics.newBuilder()
                .setName("s")
                .setType(FeatureNameStatistics.Type.STRING)
                .setStringStats(StringStatistics.newBuilder().setRankHistogram(r))
                .build();
    }

    @Test
    void numericDriftIsTfdvsJensenShannonOfTheStandardHistograms() {
        var d =
                StatisticsDrift.of(
                                numeric(0, new double[] {1, 2, 2}, new double[] {2, 3, 2}),
                                numeric(0, new double[] {2, 4, 2}, new double[] {4, 6, 2}))
                        .orElseThrow();
        assertEquals(StatisticsDrift.Measure.JENSEN_SHANNON_DIVERGENCE, d.measure());
        assertEquals(0.65563906222, d.value(), 1e-9);
        assertEquals(null, d.atValue());
        // no overlap: 1; the same histogram: 0; NaN on both sides never overlaps (1 of 7 values)
        assertEquals(
                1.0,
                StatisticsDrift.of(
                                numeric(0, new double[] {0, 1, 2}, new double[] {1, 2, 2}),
                                numeric(0, new double[] {3, 4, 2}, new double[] {4, 6, 2}))
                        .orElseThrow()
                        .value(),
                1e-9);
        var same = numeric(0, new double[] {1, 2, 3}, new double[] {2, 5, 3});
        assertEquals(0.0, StatisticsDrift.of(same, same).orElseThrow().value(), 1e-12);
        var withNan = numeric(1, new double[] {1, 4, 3}, new double[] {4, 5, 3});
        assertEquals(1.0 / 7, StatisticsDrift.of(withNan, withNan).orElseThrow().value(), 1e-9);
    }

    @Test
    void categoricalDriftIsTheLInfinityDistanceTheAlertsCompute() {
        FeatureNameStatistics cur = categorical("a", 3, "b", 1);
        FeatureNameStatistics prev = categorical("a", 1, "c", 1);
        var d = StatisticsDrift.of(cur, prev).orElseThrow();
        assertEquals(StatisticsDrift.Measure.L_INFTY, d.measure());
        // shares: a .75 vs .5, b .25 vs 0, c 0 vs .5: the largest difference is c's
        assertEquals(0.5, d.value(), 1e-12);
        assertEquals("c", d.atValue());
        // the alerts' computation over the same counts
        Object[] alerts = Divergences.lInfinity(table("a", 3, "b", 1), table("a", 1, "c", 1));
        assertEquals(alerts[0], d.value());
        assertEquals(alerts[1], d.atValue());
    }

    @Test
    void differentKindsOrNoHistogramHaveNoDrift() {
        assertTrue(StatisticsDrift.of(categorical("a", 1), numeric(0)).isEmpty());
        FeatureNameStatistics noHistogram =
                FeatureNameStatistics.newBuilder()
                        .setName("x")
                        .setNumStats(NumericStatistics.getDefaultInstance())
                        .build();
        assertTrue(StatisticsDrift.of(noHistogram, numeric(0)).isEmpty());
    }

    private static ByteKeyTable table(Object... labelsAndCounts) {
        ByteKeyTable t = new ByteKeyTable(16);
        for (int i = 0; i < labelsAndCounts.length; i += 2) {
            byte[] k = ((String) labelsAndCounts[i]).getBytes(StandardCharsets.UTF_8);
            t.add(k, 0, k.length, ((Number) labelsAndCounts[i + 1]).longValue());
        }
        return t;
    }
}
