package io.tfstream.api.options;

import static org.apache.flink.configuration.ConfigOptions.key;

import io.tfstream.api.model.DeadLetterGuard;
import java.time.Duration;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The dead-letter output and its circuit breaker (the job's {@code dlq.*}). Keys are relative to
 * the stage; {@link #OPTIONS} lists them with their types and checks.
 */
@PublicEvolving
public final class DeadLetterOptions {
    private DeadLetterOptions() {}

    public static final ConfigOption<String> TOPIC =
            key("topic")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Dead-letter topic (required): rejected records, byte for byte, with"
                                    + " tfstream.* headers.");

    public static final ConfigOption<Integer> MAX_ERROR_BYTES =
            key("max-error-bytes")
                    .intType()
                    .defaultValue(1024)
                    .withDescription("The tfstream.error header is cut to this many UTF-8 bytes.");

    public static final ConfigOption<Double> MAX_FRACTION =
            key("max-fraction")
                    .doubleType()
                    .defaultValue(1.0)
                    .withDescription(
                            "Circuit breaker: stop the job (no restart) when more than this"
                                    + " fraction of one subtask's records within dlq.window are"
                                    + " dead-lettered (1: off); records diverted by"
                                    + " validation.actions do not count.");

    public static final ConfigOption<Duration> WINDOW =
            key("window")
                    .durationType()
                    .defaultValue(DeadLetterGuard.DEFAULT_WINDOW)
                    .withDescription("Window of the dead-letter circuit breaker.");

    public static final ConfigOption<Long> MIN_RECORDS =
            key("min-records")
                    .longType()
                    .defaultValue(DeadLetterGuard.DEFAULT_MIN_RECORDS)
                    .withDescription(
                            "The circuit breaker judges a window only once it holds this many"
                                    + " records.");

    /**
     * The circuit breaker {@code config} sets ({@link #MAX_FRACTION}, {@link #WINDOW}, {@link
     * #MIN_RECORDS}, checked), or empty when it sets none of them.
     */
    public static java.util.Optional<DeadLetterGuard> guard(ReadableConfig config) {
        if (config.getOptional(MAX_FRACTION).isEmpty()
                && config.getOptional(WINDOW).isEmpty()
                && config.getOptional(MIN_RECORDS).isEmpty()) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(
                DeadLetterGuard.builder()
                        .setMaxFraction(OPTIONS.get(config, MAX_FRACTION, ""))
                        .setWindow(OPTIONS.get(config, WINDOW, ""))
                        .setMinRecords(OPTIONS.get(config, MIN_RECORDS, ""))
                        .build());
    }

    /** Every option above, in order, with its type and check. */
    public static final OptionList OPTIONS =
            OptionList.builder()
                    .add(TOPIC, String.class, null)
                    .add(MAX_ERROR_BYTES, OptionCheck.atLeast(0))
                    .add(
                            MAX_FRACTION,
                            (f, name) -> {
                                if (!(f >= 0 && f <= 1)) {
                                    throw OptionCheck.invalid(f, name, "0..1 (1: off)");
                                }
                            })
                    .add(WINDOW, OptionCheck.positive())
                    .add(MIN_RECORDS, OptionCheck.atLeast(1))
                    .build();
}
