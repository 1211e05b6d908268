package io.tfstream.validation;

import io.tfstream.parse.ParseLimits;
import io.tfstream.stats.StatsOptions;

/**
 * Settings of a {@link ValidationSchema}, each bounding memory or choosing between TFDV's behaviour
 * and the streaming one (see the decisions in the package documentation).
 *
 * @param environment the validation environment ({@code default_environment} value), or null for
 *     none (every feature is in)
 * @param tfdvRecordPresence true: an absent feature with any presence constraint is {@code
 *     SCHEMA_MISSING_COLUMN} in every record, as TFDV's {@code validate_instance}; false (the
 *     default): only features with {@code min_fraction: 1} or a {@code shape}
 * @param maxSamplesPerAnomaly distinct sample values kept per anomaly, per record and per window
 * @param maxExampleRefs example references kept per window roll-up
 * @param maxDistinctValues distinct values counted per feature and window (TFDV's {@code
 *     num_rank_histogram_buckets}); beyond it values are only counted in total, and unique counts
 *     become lower bounds
 * @param maxUnknownFeatures distinct unknown feature names kept per window
 * @param minDriftExamples fewest examples with the feature, on each side, before a drift comparator
 *     is computed
 * @param parseLimits limits on the untrusted records
 * @param statistics TFDV's feature statistics of each window kept too, sized by these options
 *     (null: none)
 * @param statisticsSplits the data splits ({@code shards.splits}) the statistics are kept per, one
 *     dataset each, by name in order; empty: one dataset of every record
 * @param statisticsWeightFeature the schema feature whose one value weighs each record in weighted
 *     statistics too (TFDV's {@code weight_feature}), or null for none
 */
public record ValidationOptions(
        String environment,
        boolean tfdvRecordPresence,
        int maxSamplesPerAnomaly,
        int maxExampleRefs,
        int maxDistinctValues,
        int maxUnknownFeatures,
        long minDriftExamples,
        ParseLimits parseLimits,
        StatsOptions statistics,
        java.util.List<String> statisticsSplits,
        String statisticsWeightFeature) {

    public static final int DEFAULT_MAX_SAMPLES_PER_ANOMALY = 10;
    public static final int DEFAULT_MAX_EXAMPLE_REFS = 5;
    public static final int DEFAULT_MAX_DISTINCT_VALUES = 1000;
    public static final int DEFAULT_MAX_UNKNOWN_FEATURES = 256;
    public static final long DEFAULT_MIN_DRIFT_EXAMPLES = 100;

    public ValidationOptions {
        positive("maxSamplesPerAnomaly", maxSamplesPerAnomaly);
        positive("maxExampleRefs", maxExampleRefs);
        positive("maxDistinctValues", maxDistinctValues);
        positive("maxUnknownFeatures", maxUnknownFeatures);
        if (minDriftExamples < 0) {
            throw new IllegalArgumentException(
                    "minDriftExamples must be >= 0, got " + minDriftExamples);
        }
        if (parseLimits == null) {
            throw new IllegalArgumentException("parseLimits must be set");
        }
        statisticsSplits = java.util.List.copyOf(statisticsSplits);
    }

    public static ValidationOptions defaults() {
        return new ValidationOptions(
                null,
                false,
                DEFAULT_MAX_SAMPLES_PER_ANOMALY,
                DEFAULT_MAX_EXAMPLE_REFS,
                DEFAULT_MAX_DISTINCT_VALUES,
                DEFAULT_MAX_UNKNOWN_FEATURES,
                DEFAULT_MIN_DRIFT_EXAMPLES,
                ParseLimits.defaults(),
                null,
                java.util.List.of(),
                null);
    }

    public ValidationOptions withEnvironment(String env) {
        return new ValidationOptions(
                env,
                tfdvRecordPresence,
                maxSamplesPerAnomaly,
                maxExampleRefs,
                maxDistinctValues,
                maxUnknownFeatures,
                minDriftExamples,
                parseLimits,
                statistics,
                statisticsSplits,
                statisticsWeightFeature);
    }

    public ValidationOptions withTfdvRecordPresence(boolean v) {
        return new ValidationOptions(
                environment,
                v,
                maxSamplesPerAnomaly,
                maxExampleRefs,
                maxDistinctValues,
                maxUnknownFeatures,
                minDriftExamples,
                parseLimits,
                statistics,
                statisticsSplits,
                statisticsWeightFeature);
    }

    public ValidationOptions withMinDriftExamples(long v) {
        return new ValidationOptions(
                environment,
                tfdvRecordPresence,
                maxSamplesPerAnomaly,
                maxExampleRefs,
                maxDistinctValues,
                maxUnknownFeatures,
                v,
                parseLimits,
                statistics,
                statisticsSplits,
                statisticsWeightFeature);
    }

    public ValidationOptions withMaxDistinctValues(int v) {
        return new ValidationOptions(
                environment,
                tfdvRecordPresence,
                maxSamplesPerAnomaly,
                maxExampleRefs,
                v,
                maxUnknownFeatures,
                minDriftExamples,
                parseLimits,
                statistics,
                statisticsSplits,
                statisticsWeightFeature);
    }

    /** These options with window statistics sized by {@code stats} (null: none). */
    public ValidationOptions withStatistics(StatsOptions stats) {
        return new ValidationOptions(
                environment,
                tfdvRecordPresence,
                maxSamplesPerAnomaly,
                maxExampleRefs,
                maxDistinctValues,
                maxUnknownFeatures,
                minDriftExamples,
                parseLimits,
                stats,
                statisticsSplits,
                statisticsWeightFeature);
    }

    /**
     * These options with the statistics kept per data split: {@code splits} by name, in order
     * (empty: one dataset of every record).
     */
    public ValidationOptions withStatisticsSplits(java.util.List<String> splits) {
        return new ValidationOptions(
                environment,
                tfdvRecordPresence,
                maxSamplesPerAnomaly,
                maxExampleRefs,
                maxDistinctValues,
                maxUnknownFeatures,
                minDriftExamples,
                parseLimits,
                statistics,
                splits,
                statisticsWeightFeature);
    }

    /** These options with weighted statistics too, weighted by {@code feature} (null: none). */
    public ValidationOptions withStatisticsWeightFeature(String feature) {
        return new ValidationOptions(
                environment,
                tfdvRecordPresence,
                maxSamplesPerAnomaly,
                maxExampleRefs,
                maxDistinctValues,
                maxUnknownFeatures,
                minDriftExamples,
                parseLimits,
                statistics,
                statisticsSplits,
                feature);
    }

    /** Datasets the statistics are kept as: one per data split, at least one. */
    public int statisticsDatasets() {
        return Math.max(1, statisticsSplits.size());
    }

    /** These options with limits {@code limits} on the records. */
    public ValidationOptions withParseLimits(ParseLimits limits) {
        return new ValidationOptions(
                environment,
                tfdvRecordPresence,
                maxSamplesPerAnomaly,
                maxExampleRefs,
                maxDistinctValues,
                maxUnknownFeatures,
                minDriftExamples,
                limits,
                statistics,
                statisticsSplits,
                statisticsWeightFeature);
    }

    private static void positive(String name, int v) {
        if (v <= 0) {
            throw new IllegalArgumentException(name + " must be positive, got " + v);
        }
    }
}
