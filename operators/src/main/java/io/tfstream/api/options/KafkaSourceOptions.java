package io.tfstream.api.options;

import static org.apache.flink.configuration.ConfigOptions.key;

import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;

/**
 * The Kafka source's options (the job's {@code source.*}): servers, topics, consumer group, where
 * to start and stop. Keys are relative to the stage; {@link #OPTIONS} lists them with their types
 * and checks.
 */
@PublicEvolving
public final class KafkaSourceOptions {
    private KafkaSourceOptions() {}

    public static final ConfigOption<String> BOOTSTRAP_SERVERS =
            key("bootstrap-servers")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("Kafka bootstrap servers of the input (required).");

    public static final ConfigOption<List<String>> TOPICS =
            key("topics")
                    .stringType()
                    .asList()
                    .noDefaultValue()
                    .withDescription(
                            "Input topics (a YAML list or a ';'-separated string). Exactly one of"
                                    + " source.topics and source.topic-pattern.");

    public static final ConfigOption<String> TOPIC_PATTERN =
            key("topic-pattern")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Java regular expression of input topics; new matching topics are"
                                    + " picked up while the job runs.");

    public static final ConfigOption<String> GROUP_ID =
            key("group-id")
                    .stringType()
                    .defaultValue("tfstream")
                    .withDescription(
                            "Kafka consumer group; offsets are committed to it on checkpoints"
                                    + " (for monitoring and for source.starting-offsets:"
                                    + " committed).");

    public static final ConfigOption<String> STARTING_OFFSETS =
            key("starting-offsets")
                    .stringType()
                    .defaultValue("committed")
                    .withDescription(
                            "Where a job without a checkpoint starts: committed (the group's"
                                    + " committed offsets, earliest where none), earliest,"
                                    + " latest, or timestamp:<epoch ms>.");

    public static final ConfigOption<StoppingOffsets> STOPPING_OFFSETS =
            key("stopping-offsets")
                    .enumType(StoppingOffsets.class)
                    .defaultValue(StoppingOffsets.NONE)
                    .withDescription(
                            "none: read forever; latest: stop at the end offsets the partitions"
                                    + " have when the job starts (a bounded run, e.g. a backfill:"
                                    + " the job finishes after a final checkpoint that commits"
                                    + " every output).");

    /** Every option above, in order, with its type and check. */
    public static final OptionList OPTIONS =
            OptionList.builder()
                    .add(BOOTSTRAP_SERVERS, String.class, null)
                    .add(TOPICS, List.class, null)
                    .add(TOPIC_PATTERN, String.class, null)
                    .add(GROUP_ID)
                    .add(STARTING_OFFSETS, (v, name) -> startingOffsets(v, name))
                    .add(STOPPING_OFFSETS)
                    .build();

    /**
     * The offsets {@link #STARTING_OFFSETS}'s {@code value} names: {@code committed} (the group's,
     * earliest where none), {@code earliest}, {@code latest} or {@code timestamp:<epoch ms>}.
     *
     * @throws IllegalArgumentException "invalid value ... for NAME", {@code name} being how the
     *     reader set it
     */
    // Kafka 4 deprecates OffsetResetStrategy, which the connector's committedOffsets still takes.
    @SuppressWarnings("deprecation")
    public static OffsetsInitializer startingOffsets(String value, String name) {
        String v = value.trim();
        switch (v) {
            case "committed":
                return OffsetsInitializer.committedOffsets(
                        org.apache.kafka.clients.consumer.OffsetResetStrategy.EARLIEST);
            case "earliest":
                return OffsetsInitializer.earliest();
            case "latest":
                return OffsetsInitializer.latest();
            default:
                String t = v.startsWith("timestamp:") ? v.substring("timestamp:".length()) : "";
                // non-negative epoch millis that fit a long
                if (!t.isEmpty() && t.length() <= 18 && t.chars().allMatch(Character::isDigit)) {
                    return OffsetsInitializer.timestamp(Long.parseLong(t));
                }
                throw OptionCheck.invalid(
                        value, name, "committed, earliest, latest or timestamp:<epoch ms>");
        }
    }

    /** {@link #STOPPING_OFFSETS}. */
    public enum StoppingOffsets {
        NONE,
        LATEST
    }
}
