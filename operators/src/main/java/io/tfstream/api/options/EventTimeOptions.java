package io.tfstream.api.options;

import static org.apache.flink.configuration.ConfigOptions.key;

import io.tfstream.api.model.EventTimeSettings;
import java.time.Duration;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;

/**
 * Where event time comes from and how watermarks follow it (the job's {@code event-time.*}). Keys
 * are relative to the stage; {@link #OPTIONS} lists them with their types and checks.
 */
@PublicEvolving
public final class EventTimeOptions {
    private EventTimeOptions() {}

    public static final ConfigOption<EventTimeSettings.Source> SOURCE =
            key("source")
                    .enumType(EventTimeSettings.Source.class)
                    .defaultValue(EventTimeSettings.Source.KAFKA_TIMESTAMP)
                    .withDescription(
                            "Where event time comes from: kafka_timestamp (the record's Kafka"
                                    + " timestamp) or feature (event-time.feature).");

    public static final ConfigOption<String> FEATURE =
            key("feature")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "int64 feature (a context feature for SequenceExamples) holding the"
                                    + " event time; a record without a valid value is"
                                    + " dead-lettered with reason parse_error.");

    public static final ConfigOption<EventTimeSettings.Unit> UNIT =
            key("unit")
                    .enumType(EventTimeSettings.Unit.class)
                    .defaultValue(EventTimeSettings.Unit.MILLIS)
                    .withDescription(
                            "Unit of event-time.feature: millis or seconds since the epoch.");

    public static final ConfigOption<Duration> OUT_OF_ORDERNESS =
            key("max-out-of-orderness")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(5))
                    .withDescription("How far behind the newest event time a record may arrive.");

    public static final ConfigOption<Duration> IDLENESS =
            key("idleness")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(30))
                    .withDescription(
                            "A partition without records for this long stops holding back the"
                                    + " watermark (0: never).");

    /** Every option above, in order, with its type and check. */
    public static final OptionList OPTIONS =
            OptionList.builder()
                    .add(SOURCE)
                    .add(FEATURE, String.class, null)
                    .add(UNIT)
                    .add(OUT_OF_ORDERNESS, OptionCheck.notNegative())
                    .add(IDLENESS, OptionCheck.notNegative())
                    .build();
}
