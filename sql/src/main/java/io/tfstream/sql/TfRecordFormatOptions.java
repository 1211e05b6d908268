package io.tfstream.sql;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The options of {@code 'format' = 'tfrecord'} (written {@code tfrecord.<key>} in a filesystem
 * table's WITH clause).
 */
@PublicEvolving
public final class TfRecordFormatOptions {
    private TfRecordFormatOptions() {}

    public static final String IDENTIFIER = "tfrecord";

    /** {@link #RECORD_FORMAT}: each record is a serialized Example mapped to the columns. */
    public static final String TF_EXAMPLE = "tf-example";

    /** {@link #RECORD_FORMAT}: each record is the one BYTES column. */
    public static final String RAW = "raw";

    public static final ConfigOption<String> RECORD_FORMAT =
            ConfigOptions.key("record-format")
                    .stringType()
                    .defaultValue(TF_EXAMPLE)
                    .withDescription(
                            "What a record holds: 'tf-example' (a serialized tf.train.Example,"
                                    + " mapped to the columns by feature name) or 'raw' (the record"
                                    + " bytes as the table's one BYTES column).");

    public static final ConfigOption<String> COMPRESSION =
            ConfigOptions.key("compression")
                    .stringType()
                    .defaultValue("auto")
                    .withDescription(
                            "'auto' (reading: detected per file from its name and first bytes;"
                                    + " writing: none), 'none', 'gzip' or 'zlib' (TensorFlow's"
                                    + " compression_type '', GZIP, ZLIB).");

    public static final ConfigOption<String> SCHEMA_PATH =
            ConfigOptions.key("schema-path")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "As tf-example.schema-path: a TFMD schema or SPEC.json the columns must"
                                    + " agree with; records are parsed with its whole spec.");

    public static final ConfigOption<Boolean> IGNORE_PARSE_ERRORS =
            ConfigOptions.key("ignore-parse-errors")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Skip records that do not parse or fit the columns, and damaged regions"
                                    + " of a file (logged per file and counted per table in the JMX"
                                    + " counters "
                                    + SkipCounters.DOMAIN
                                    + ":type=TfRecordSkipped), instead of failing with the file and"
                                    + " byte offset.");
}
