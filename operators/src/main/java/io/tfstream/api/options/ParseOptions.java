package io.tfstream.api.options;

import static org.apache.flink.configuration.ConfigOptions.key;

import io.tfstream.parse.ParseLimits;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The parse limits (the job's {@code parse.*}, a SQL table's {@code tf-example.*} or {@code
 * tfrecord.*}): what one record may hold before it is refused. Keys are relative to the stage;
 * {@link #OPTIONS} lists them with their types and checks.
 */
@PublicEvolving
public final class ParseOptions {
    private ParseOptions() {}

    public static final ConfigOption<MemorySize> MAX_RECORD_BYTES =
            key("max-record-bytes")
                    .memoryType()
                    .defaultValue(new MemorySize(ParseLimits.DEFAULT_MAX_RECORD_BYTES))
                    .withDescription(
                            "Largest record parsed; a larger one does not parse (the job"
                                    + " dead-letters it with reason limit_exceeded).");

    public static final ConfigOption<Integer> MAX_VALUES_PER_FEATURE =
            key("max-values-per-feature")
                    .intType()
                    .defaultValue(ParseLimits.DEFAULT_MAX_VALUES_PER_FEATURE)
                    .withDescription("Most values one feature of one record may hold.");

    public static final ConfigOption<Integer> MAX_FEATURES_PER_EXAMPLE =
            key("max-features-per-example")
                    .intType()
                    .defaultValue(ParseLimits.DEFAULT_MAX_FEATURES_PER_EXAMPLE)
                    .withDescription("Most feature map entries one record may hold.");

    public static final ConfigOption<MemorySize> MAX_BYTES_PER_VALUE =
            key("max-bytes-per-value")
                    .memoryType()
                    .defaultValue(new MemorySize(ParseLimits.DEFAULT_MAX_BYTES_PER_VALUE))
                    .withDescription("Largest single bytes_list value.");

    public static final ConfigOption<Integer> MAX_RAGGED_ROWS =
            key("max-ragged-rows")
                    .intType()
                    .defaultValue(ParseLimits.DEFAULT_MAX_RAGGED_ROWS)
                    .withDescription(
                            "Most rows a RaggedFeature's value_rowids partition may give one"
                                    + " batch.");

    /**
     * The limits {@code config} sets (keys relative to the stage; defaults for those unset),
     * checked; an error names a key as {@code prefix + key}.
     */
    public static ParseLimits limits(ReadableConfig config, String prefix) {
        return new ParseLimits(
                (int) OPTIONS.get(config, MAX_RECORD_BYTES, prefix).getBytes(),
                OPTIONS.get(config, MAX_VALUES_PER_FEATURE, prefix),
                OPTIONS.get(config, MAX_FEATURES_PER_EXAMPLE, prefix),
                (int) OPTIONS.get(config, MAX_BYTES_PER_VALUE, prefix).getBytes(),
                OPTIONS.get(config, MAX_RAGGED_ROWS, prefix));
    }

    /** Every option above, in order, with its type and check. */
    public static final OptionList OPTIONS =
            OptionList.builder()
                    .add(MAX_RECORD_BYTES, OptionCheck.arrayBytes())
                    .add(MAX_VALUES_PER_FEATURE, OptionCheck.atLeast(1))
                    .add(MAX_FEATURES_PER_EXAMPLE, OptionCheck.atLeast(1))
                    .add(MAX_BYTES_PER_VALUE, OptionCheck.arrayBytes())
                    .add(MAX_RAGGED_ROWS, OptionCheck.atLeast(1))
                    .build();
}
