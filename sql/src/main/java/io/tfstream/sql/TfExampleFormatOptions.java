package io.tfstream.sql;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The options of {@code 'format' = 'tf-example'} (written {@code tf-example.<key>} in a table's
 * WITH clause); {@link TfRecordFormatOptions} has the same keys under {@code tfrecord.}.
 */
@PublicEvolving
public final class TfExampleFormatOptions {
    private TfExampleFormatOptions() {}

    public static final String IDENTIFIER = "tf-example";

    public static final ConfigOption<String> SCHEMA_PATH =
            ConfigOptions.key("schema-path")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "A TFMD schema (.pbtxt or .pb) or SPEC.json on the planner's file"
                                    + " system. The columns must be features of its parse spec"
                                    + " with the same value type and depth, and records are parsed"
                                    + " with the whole spec as tf.io.parse_example does (defaults,"
                                    + " required features). Without it every column is a"
                                    + " VarLenFeature and an absent feature is NULL.");

    public static final ConfigOption<Boolean> IGNORE_PARSE_ERRORS =
            ConfigOptions.key("ignore-parse-errors")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Skip a record that does not parse or does not fit the columns (counted"
                                    + " in the metric "
                                    + ParseErrorMetric.NAME
                                    + ") instead of failing the job.");
}
