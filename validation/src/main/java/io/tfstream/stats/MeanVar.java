package io.tfstream.stats;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * TFDV's numerically stable mean and (population) variance accumulators ({@code
 * variance_util.MeanVarAccumulator} and {@code WeightedMeanVarAccumulator}): partial means and
 * variances combined pairwise, the larger side kept as the base. Unweighted values have weight 1.
 */
final class MeanVar {
    long count;
    double mean;
    double variance;
    double weightsMean;

    /** Adds one value of weight {@code w}. */
    void add(double v, double w) {
        if (w == 1 && weightsMean == 1 && count > 0) {
            // combine(1, v, 0, 1) for unit weights, one division instead of two: the weights' mean
            // stays 1 and both ratios are 1 / (count + 1), the same bits
            double ratio = 1.0 / (count + 1);
            double newMean = mean + ratio * (v - mean);
            variance = variance + ratio * (0.0 - variance + (v - newMean) * (v - mean));
            mean = newMean;
            count++;
            return;
        }
        if (w == 0 && count * weightsMean == 0) {
            count++; // TFDV counts values of zero total weight and nothing else
            return;
        }
        combine(1, v, 0, w);
    }

    void merge(MeanVar o) {
        combine(o.count, o.mean, o.variance, o.weightsMean);
    }

    private void combine(long bCount, double bMean, double bVariance, double bWeightsMean) {
        long aCount = count;
        double aMean = mean;
        double aVariance = variance;
        double aWeightsMean = weightsMean;
        long newCount = aCount + bCount;
        double newWeightSum = aCount * aWeightsMean + bCount * bWeightsMean;
        if (newCount == 0 || newWeightSum == 0) {
            return;
        }
        if (bCount * bWeightsMean > aCount * aWeightsMean) {
            long c = aCount;
            aCount = bCount;
            bCount = c;
            double m = aMean;
            aMean = bMean;
            bMean = m;
            double v = aVariance;
            aVariance = bVariance;
            bVariance = v;
            double w = aWeightsMean;
            aWeightsMean = bWeightsMean;
            bWeightsMean = w;
        }
        double ratio = bCount * bWeightsMean / newWeightSum;
        double newWeightsMean =
                aWeightsMean + (double) bCount / newCount * (bWeightsMean - aWeightsMean);
        double newMean = aMean + ratio * (bMean - aMean);
        double newVariance =
                aVariance + ratio * (bVariance - aVariance + (bMean - newMean) * (bMean - aMean));
        count = newCount;
        mean = newMean;
        variance = newVariance;
        weightsMean = newWeightsMean;
    }

    /** The standard deviation as TFDV reports it: {@code sqrt(max(0, variance))}, NaN as 0. */
    double stdDev() {
        return variance > 0 ? Math.sqrt(variance) : 0;
    }

    void write(DataOutput out) throws IOException {
        out.writeLong(count);
        out.writeDouble(mean);
        out.writeDouble(variance);
        out.writeDouble(weightsMean);
    }

    void read(DataInput in) throws IOException {
        count = in.readLong();
        mean = in.readDouble();
        variance = in.readDouble();
        weightsMean = in.readDouble();
    }
}
