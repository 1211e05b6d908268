package io.tfstream.api.options;

import static org.apache.flink.configuration.ConfigOptions.key;

import io.tfstream.api.model.StatisticsSettings;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;

/**
 * TFDV's feature statistics of each validation window (the job's {@code statistics.*}). Keys are
 * relative to the stage; {@link #OPTIONS} lists them with their types and checks.
 */
@PublicEvolving
public final class StatisticsOptions {
    private StatisticsOptions() {}

    public static final ConfigOption<Boolean> ENABLED =
            key("enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Compute TFDV's feature statistics (a DatasetFeatureStatisticsList, as"
                                    + " tfdv.load_stats_binary reads it) of every validation"
                                    + " window and schema fingerprint, over the schema's features,"
                                    + " and write them to statistics.topic. Needs"
                                    + " validation.enabled (the statistics are kept in its"
                                    + " windows).");

    public static final ConfigOption<String> TOPIC =
            key("topic")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Kafka topic of the window statistics: one serialized"
                                    + " DatasetFeatureStatisticsList per window and schema"
                                    + " fingerprint, key = <window start>/<fingerprint>, its"
                                    + " dataset named <start>/<end> (ISO-8601), or, with"
                                    + " shards.splits, one dataset per data split named after it"
                                    + " (each over the records of that split), written exactly"
                                    + " once with transactional id prefix <job.name>-statistics;"
                                    + " above 900 KiB rank histograms, then histograms, are left"
                                    + " out. Required with statistics.enabled.");

    public static final ConfigOption<Double> EPSILON =
            key("epsilon")
                    .doubleType()
                    .defaultValue(StatisticsSettings.DEFAULT_EPSILON)
                    .withDescription(
                            "Error of the quantile sketches behind medians, histograms and"
                                    + " value-count histograms, as a fraction of a window's"
                                    + " values (TFDV's epsilon); a smaller one keeps more state"
                                    + " per feature and window. Top values and unique counts"
                                    + " come from TFDV's Misra-Gries (1 024 counters) and KMV"
                                    + " (16 384 fingerprints) sketches.");

    public static final ConfigOption<String> WEIGHT_FEATURE =
            key("weight-feature")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Also weighted statistics (TFDV's weight_feature: weighted_num_examples,"
                                    + " weighted common, numeric and string statistics), each"
                                    + " record weighted by this top-level INT or FLOAT feature of"
                                    + " the schema; a record without exactly one value of it"
                                    + " weighs 0 (TFDV would stop: give the feature a shape or"
                                    + " value_count of 1 and presence min_fraction 1, so that such"
                                    + " a record is an anomaly too); of SequenceExamples, a context"
                                    + " feature.");

    /**
     * The statistics settings {@code config} sets ({@link #EPSILON}, {@link #WEIGHT_FEATURE},
     * checked); {@link #ENABLED} and {@link #TOPIC} are the job's window statistics switch and
     * output.
     *
     * @throws IllegalArgumentException naming the key of a value out of range
     */
    public static StatisticsSettings settings(ReadableConfig config) {
        StatisticsSettings.Builder b = StatisticsSettings.builder();
        b.setEpsilon(OPTIONS.get(config, EPSILON, ""));
        config.getOptional(WEIGHT_FEATURE).ifPresent(b::setWeightFeature);
        return b.build();
    }

    /** Every option above, in order, with its type and check. */
    public static final OptionList OPTIONS =
            OptionList.builder()
                    .add(ENABLED)
                    .add(TOPIC, String.class, null)
                    .add(
                            EPSILON,
                            (e, name) -> {
                                if (!(e > 0 && e < 1)) {
                                    throw OptionCheck.invalid(e, name, "a number in (0, 1)");
                                }
                            })
                    .add(WEIGHT_FEATURE, String.class, null)
                    .build();
}
