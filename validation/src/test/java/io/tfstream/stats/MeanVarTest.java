package io.tfstream.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The mean and variance accumulators: the quick path of unit weights gives the same bits. */
class MeanVarTest {
    /**
     * A unit-weight value added on the quick path ends in the same bits as TFDV's pairwise
     * combination of the accumulator with a one-value accumulator (the general path).
     */
    @Test
    void unitWeightsTakeTheQuickPathToTheSameBits() {
        Random rnd = new Random(11);
        MeanVar quick = new MeanVar();
        MeanVar general = new MeanVar();
        for (int i = 0; i < 200_000; i++) {
            double v =
                    switch (i % 4) {
                        case 0 -> rnd.nextGaussian() * 1e6;
                        case 1 -> rnd.nextInt(10);
                        case 2 -> (float) rnd.nextDouble();
                        default -> rnd.nextLong();
                    };
            quick.add(v, 1);
            MeanVar one = new MeanVar();
            one.add(v, 1);
            general.merge(one);
            assertEquals(general.count, quick.count);
            assertEquals(
                    Double.doubleToRawLongBits(general.mean),
                    Double.doubleToRawLongBits(quick.mean),
                    "mean after " + i);
            assertEquals(
                    Double.doubleToRawLongBits(general.variance),
                    Double.doubleToRawLongBits(quick.variance),
                    "variance after " + i);
            assertEquals(general.weightsMean, quick.weightsMean);
        }
    }

    /** Weighted values keep the general path; mixing them in leaves the quick path. */
    @Test
    void weightsOtherThanOneTakeTheGeneralPath() {
        MeanVar a = new MeanVar();
        MeanVar b = new MeanVar();
        double[] values = {3, 5, 7, 11};
        double[] weights = {1, 2, 1, 0.5};
        for (int i = 0; i < values.length; i++) {
            a.add(values[i], weights[i]);
            MeanVar one = new MeanVar();
            one.add(values[i], weights[i]);
            b.merge(one);
        }
        assertEquals(b.mean, a.mean);
        assertEquals(b.variance, a.variance);
        assertEquals(b.weightsMean, a.weightsMean);
    }
}
