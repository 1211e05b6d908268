package io.tfstream.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.tensorflow.metadata.v0.DatasetFeatureStatistics;
import org.tensorflow.metadata.v0.FeatureNameStatistics;

/** Comparisons of TFDV statistics computed in different orders. */
public final class StatisticsAssertions {
    private StatisticsAssertions() {}

    /**
     * Equal statistics, means and deviations to 1e-6 relative (large values with a small spread
     * lose digits to cancellation): TFDV's pairwise mean and variance updates round differently
     * when the partial sums are grouped differently.
     */
    public static void assertSameStatistics(
            DatasetFeatureStatistics want, DatasetFeatureStatistics got) {
        assertEquals(want.getFeaturesCount(), got.getFeaturesCount());
        for (int i = 0; i < want.getFeaturesCount(); i++) {
            FeatureNameStatistics w = want.getFeatures(i);
            FeatureNameStatistics g = got.getFeatures(i);
            if (w.hasNumStats()) {
                assertClose(w.getNumStats().getMean(), g.getNumStats().getMean());
                assertClose(w.getNumStats().getStdDev(), g.getNumStats().getStdDev());
                var wm = w.getNumStats().getWeightedNumericStats();
                var gm = g.getNumStats().getWeightedNumericStats();
                assertClose(wm.getMean(), gm.getMean());
                assertClose(wm.getStdDev(), gm.getStdDev());
                w = clearMoments(w);
                g = clearMoments(g);
            }
            assertEquals(w, g);
        }
        assertEquals(
                want.toBuilder().clearFeatures().build(), got.toBuilder().clearFeatures().build());
    }

    private static void assertClose(double want, double got) {
        if (Double.compare(want, got) != 0) {
            assertEquals(want, got, 1e-6 * Math.abs(want));
        }
    }

    private static FeatureNameStatistics clearMoments(FeatureNameStatistics f) {
        var b = f.toBuilder();
        b.getNumStatsBuilder().clearMean().clearStdDev();
        if (b.getNumStatsBuilder().hasWeightedNumericStats()) {
            b.getNumStatsBuilder().getWeightedNumericStatsBuilder().clearMean().clearStdDev();
        }
        return b.build();
    }
}
