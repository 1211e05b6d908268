package io.tfstream.api.options;

import static org.apache.flink.configuration.ConfigOptions.key;

import io.tfstream.api.model.BatchKeySelector;
import io.tfstream.api.model.LateRecords;
import io.tfstream.api.model.WindowSettings;
import java.time.Duration;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.MemorySize;

/**
 * How records are batched before the parse (the job's {@code batch.*}): count batches per subtask
 * or event-time windows per key. Keys are relative to the stage; {@link #OPTIONS} lists them with
 * their types and checks.
 */
@PublicEvolving
public final class BatchOptions {
    private BatchOptions() {}

    public static final ConfigOption<Integer> MAX_RECORDS =
            key("max-records")
                    .intType()
                    .defaultValue(1024)
                    .withDescription("A batch closes at this many records.");

    public static final ConfigOption<MemorySize> MAX_BYTES =
            key("max-bytes")
                    .memoryType()
                    .defaultValue(MemorySize.ofMebiBytes(8))
                    .withDescription("A batch closes at this many bytes of records.");

    public static final ConfigOption<Duration> MAX_DELAY =
            key("max-delay")
                    .durationType()
                    .defaultValue(Duration.ofMillis(200))
                    .withDescription(
                            "A batch closes this long (processing time) after its first record;"
                                    + " also always before a checkpoint.");

    public static final ConfigOption<Mode> MODE =
            key("mode")
                    .enumType(Mode.class)
                    .defaultValue(Mode.COUNT)
                    .withDescription(
                            "count: batches per subtask closed by batch.max-records, -bytes or"
                                    + " -delay (Kafka order kept); event_time_window: tumbling"
                                    + " event-time windows of batch.window per batch.key, closed"
                                    + " by the watermark (Kafka-timestamp event time only).");

    public static final ConfigOption<Duration> WINDOW =
            key("window")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription("Size of the tumbling event-time windows.");

    public static final ConfigOption<Duration> ALLOWED_LATENESS =
            key("allowed-lateness")
                    .durationType()
                    .defaultValue(Duration.ZERO)
                    .withDescription(
                            "A window closes when the watermark passes its end plus this; later"
                                    + " records are late (batch.late-records).");

    public static final ConfigOption<LateRecords> LATE_RECORDS =
            key("late-records")
                    .enumType(LateRecords.class)
                    .defaultValue(LateRecords.DEAD_LETTER)
                    .withDescription(
                            "A record whose window has closed: dead_letter (dead letter, reason"
                                    + " late) or drop; counted either way (metric lateRecords).");

    public static final ConfigOption<MemorySize> WINDOW_MAX_BUFFERED_BYTES =
            key("window-max-buffered-bytes")
                    .memoryType()
                    .defaultValue(new MemorySize(WindowSettings.DEFAULT_MAX_BUFFERED_BYTES))
                    .withDescription(
                            "Memory bound of event-time windows: one key's window buffers at most"
                                    + " this many bytes of record values; the record that reaches"
                                    + " it makes the buffer be parsed and emitted early as payloads"
                                    + " of that window (parts 0: total not known yet) and the"
                                    + " window goes on.");

    public static final ConfigOption<String> KEY =
            key("key")
                    .stringType()
                    .defaultValue("source_partition")
                    .withDescription(
                            "Grouping key of window batches (a window's batch never mixes keys):"
                                    + " kafka_key, source_partition, or feature:<name> (its first"
                                    + " value; a context feature for SequenceExamples).");

    /** Every option above, in order, with its type and check. */
    public static final OptionList OPTIONS =
            OptionList.builder()
                    .add(MAX_RECORDS, OptionCheck.atLeast(1))
                    .add(MAX_BYTES, OptionCheck.oneByteOrMore())
                    .add(MAX_DELAY, OptionCheck.positive())
                    .add(MODE)
                    .add(WINDOW, OptionCheck.positive())
                    .add(ALLOWED_LATENESS, OptionCheck.notNegative())
                    .add(LATE_RECORDS, OptionCheck.oneOf(LateRecords.DEAD_LETTER, LateRecords.DROP))
                    .add(WINDOW_MAX_BUFFERED_BYTES, OptionCheck.oneByteOrMore())
                    .add(
                            KEY,
                            (k, name) -> {
                                if (BatchKeySelector.kindOf(k) == null) {
                                    throw OptionCheck.invalid(
                                            k,
                                            name,
                                            "kafka_key, source_partition or feature:<name>");
                                }
                            })
                    .build();

    /** {@link #MODE}. */
    public enum Mode {
        COUNT,
        EVENT_TIME_WINDOW
    }
}
