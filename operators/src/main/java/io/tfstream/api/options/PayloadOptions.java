package io.tfstream.api.options;

import static org.apache.flink.configuration.ConfigOptions.key;

import io.tfstream.api.model.PayloadKeyMode;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.MemorySize;

/**
 * The topic of batched tensor payloads (the job's {@code output.batches.*}). Keys are relative to
 * the stage; {@link #OPTIONS} lists them with their types and checks.
 */
@PublicEvolving
public final class PayloadOptions {
    private PayloadOptions() {}

    public static final ConfigOption<String> TOPIC =
            key("topic")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Optional topic of the batched tensor payloads: one tfstream.v1."
                                    + "TensorBatch message per parsed batch (parse_example over"
                                    + " its accepted rows), exactly once.");

    public static final ConfigOption<PayloadKeyMode> KEY =
            key("key")
                    .enumType(PayloadKeyMode.class)
                    .defaultValue(PayloadKeyMode.NONE)
                    .withDescription(
                            "Kafka key of a payload: none, source_partition (the batch's first"
                                    + " source partition as <topic>-<partition>), or batch_key"
                                    + " (batch.mode event_time_window only: the window's"
                                    + " batch.key, i.e. the Kafka key's bytes, <topic>-<partition>"
                                    + " or the feature's value).");

    public static final ConfigOption<MemorySize> MAX_MESSAGE_BYTES =
            key("max-message-bytes")
                    .memoryType()
                    .noDefaultValue()
                    .withDescription(
                            "Largest payload Kafka message (default: output.properties."
                                    + "max.request.size, else 1 MiB; at most the topic's"
                                    + " max.message.bytes, checked at start). 1 KiB of it is kept"
                                    + " for key, headers and framing; a batch over the rest is"
                                    + " split by rows into parts, a record too big alone is"
                                    + " dead-lettered (too_large).");

    /** Every option above, in order, with its type and check. */
    public static final OptionList OPTIONS =
            OptionList.builder()
                    .add(TOPIC, String.class, null)
                    .add(KEY)
                    .add(MAX_MESSAGE_BYTES, MemorySize.class, null)
                    .build();
}
