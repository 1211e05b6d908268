package io.tfstream.api.model;

import io.tfstream.text.Quoted;
import java.io.Serializable;
import java.time.Duration;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The optional circuit breaker: when more than {@code maxFraction} of the records of the last
 * {@code window} (processing time, per subtask) went to the dead-letter output, and at least {@code
 * minRecords} arrived in that window, the job is stopped instead of dead-lettering everything. Off
 * when {@code maxFraction} is 1 or more.
 */
@PublicEvolving
public record DeadLetterGuard(double maxFraction, Duration window, long minRecords)
        implements Serializable {
    public static final long DEFAULT_MIN_RECORDS = 100;

    /** The window by default. */
    public static final Duration DEFAULT_WINDOW = Duration.ofMinutes(1);

    /** Checked as the {@code dlq.*} options are, named as the components. */
    public DeadLetterGuard {
        if (!(maxFraction >= 0)) {
            throw invalid(maxFraction, "maxFraction", ">= 0 (1 or more: off)");
        }
        if (window == null) {
            throw new IllegalArgumentException("window must be set");
        }
        if (window.isNegative() || window.isZero()) {
            throw invalid(window, "window", "a positive duration");
        }
        if (minRecords < 1) {
            throw invalid(minRecords, "minRecords", ">= 1");
        }
    }

    /** The breaker switched off. */
    public static DeadLetterGuard off() {
        return new DeadLetterGuard(1.0, DEFAULT_WINDOW, DEFAULT_MIN_RECORDS);
    }

    // The options' wording (OptionCheck), without depending on the options.
    private static IllegalArgumentException invalid(Object value, String name, String expected) {
        return new IllegalArgumentException(
                "invalid value '"
                        + Quoted.cut(String.valueOf(value))
                        + "' for "
                        + name
                        + ": expected "
                        + expected);
    }

    public boolean enabled() {
        return maxFraction < 1.0;
    }
}
