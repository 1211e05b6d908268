package io.tfstream.stats;

import org.apache.flink.annotation.PublicEvolving;

/**
 * The sizes TFDV's {@code StatsOptions} gives the statistics, and how they are sketched; the
 * defaults are TFDV's.
 *
 * @param numTopValues entries of a string feature's {@code top_values}
 * @param numRankHistogramBuckets entries of its {@code rank_histogram}
 * @param numValuesHistogramBuckets buckets of {@code num_values_histogram}
 * @param numHistogramBuckets buckets of a numeric feature's STANDARD histogram
 * @param numQuantilesHistogramBuckets buckets of its QUANTILES histogram
 * @param epsilon the error of the quantile sketches behind medians, histograms and value-count
 *     histograms, as a fraction of the total weight (TFDV's {@code epsilon}); 0 keeps every
 *     distinct value (exact, memory grows with the data)
 * @param sketchTopValues top values and unique counts from a Misra-Gries and a KMV sketch, as
 *     TFDV's {@code use_sketch_based_topk_uniques}, instead of exact counts of every value
 * @param misraGriesBuckets counters of that Misra-Gries sketch (at least the top values and rank
 *     buckets asked for are kept)
 * @param kmvBuckets fingerprints kept by the KMV sketch of unique values
 */
@PublicEvolving
public record StatsOptions(
        int numTopValues,
        int numRankHistogramBuckets,
        int numValuesHistogramBuckets,
        int numHistogramBuckets,
        int numQuantilesHistogramBuckets,
        double epsilon,
        boolean sketchTopValues,
        int misraGriesBuckets,
        int kmvBuckets) {

    /** TFDV's quantile sketch error. */
    public static final double DEFAULT_EPSILON = 0.01;

    /** TFDV's Misra-Gries and KMV sketch sizes for sketch-based top values. */
    public static final int DEFAULT_MISRA_GRIES_BUCKETS = 1024;

    public static final int DEFAULT_KMV_BUCKETS = 16384;

    /**
     * TFDV's defaults: 20 top values, 1 000 rank buckets, 10 buckets for each histogram, quantile
     * sketches of epsilon 0.01, exact top values.
     */
    public static final StatsOptions DEFAULTS = new StatsOptions(20, 1000, 10, 10, 10);

    public StatsOptions {
        if (numTopValues < 0
                || numRankHistogramBuckets < 0
                || numValuesHistogramBuckets < 1
                || numHistogramBuckets < 1
                || numQuantilesHistogramBuckets < 1) {
            throw new IllegalArgumentException(
                    "statistics options: counts of values must not be negative, of buckets at"
                            + " least 1");
        }
        if (!(epsilon >= 0 && epsilon < 1)) {
            throw new IllegalArgumentException(
                    "statistics options: epsilon must be in [0, 1), got " + epsilon);
        }
        if (misraGriesBuckets < 1 || kmvBuckets < 2) {
            throw new IllegalArgumentException(
                    "statistics options: the Misra-Gries sketch needs at least 1 bucket, the KMV"
                            + " sketch at least 2");
        }
    }

    /** These sizes with TFDV's sketches (epsilon 0.01, exact top values). */
    public StatsOptions(
            int numTopValues,
            int numRankHistogramBuckets,
            int numValuesHistogramBuckets,
            int numHistogramBuckets,
            int numQuantilesHistogramBuckets) {
        this(
                numTopValues,
                numRankHistogramBuckets,
                numValuesHistogramBuckets,
                numHistogramBuckets,
                numQuantilesHistogramBuckets,
                DEFAULT_EPSILON,
                false,
                DEFAULT_MISRA_GRIES_BUCKETS,
                DEFAULT_KMV_BUCKETS);
    }

    /** These options with quantile sketches of error {@code epsilon} (0: exact). */
    public StatsOptions withEpsilon(double epsilon) {
        return new StatsOptions(
                numTopValues,
                numRankHistogramBuckets,
                numValuesHistogramBuckets,
                numHistogramBuckets,
                numQuantilesHistogramBuckets,
                epsilon,
                sketchTopValues,
                misraGriesBuckets,
                kmvBuckets);
    }

    /** These options with sketch-based top values and unique counts, or exact ones. */
    public StatsOptions withSketchTopValues(boolean sketch) {
        return new StatsOptions(
                numTopValues,
                numRankHistogramBuckets,
                numValuesHistogramBuckets,
                numHistogramBuckets,
                numQuantilesHistogramBuckets,
                epsilon,
                sketch,
                misraGriesBuckets,
                kmvBuckets);
    }

    /** The Misra-Gries counters a feature gets: TFDV keeps at least what is reported. */
    int topValueBuckets() {
        return Math.max(misraGriesBuckets, Math.max(numTopValues, numRankHistogramBuckets));
    }
}
