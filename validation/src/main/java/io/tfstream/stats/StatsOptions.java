package io.tfstream.stats;

import org.apache.flink.annotation.PublicEvolving;

/**
 * The sizes TFDV's {@code StatsOptions} gives the statistics; the defaults are TFDV's.
 *
 * @param numTopValues entries of a string feature's {@code top_values}
 * @param numRankHistogramBuckets entries of its {@code rank_histogram}
 * @param numValuesHistogramBuckets buckets of {@code num_values_histogram}
 * @param numHistogramBuckets buckets of a numeric feature's STANDARD histogram
 * @param numQuantilesHistogramBuckets buckets of its QUANTILES histogram
 */
@PublicEvolving
public record StatsOptions(
        int numTopValues,
        int numRankHistogramBuckets,
        int numValuesHistogramBuckets,
        int numHistogramBuckets,
        int numQuantilesHistogramBuckets) {

    /** TFDV's defaults: 20 top values, 1 000 rank buckets, 10 buckets for each histogram. */
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
    }
}
