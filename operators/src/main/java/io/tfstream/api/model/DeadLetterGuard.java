package io.tfstream.api.model;

import io.tfstream.api.options.DeadLetterOptions;
import io.tfstream.api.options.OptionCheck;
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

    /** Checked as the {@code dlq.*} options are, named as the components. */
    public DeadLetterGuard {
        if (!(maxFraction >= 0)) {
            throw OptionCheck.invalid(maxFraction, "maxFraction", ">= 0 (1 or more: off)");
        }
        if (window == null) {
            throw new IllegalArgumentException("window must be set");
        }
        DeadLetterOptions.OPTIONS.check(DeadLetterOptions.WINDOW, window, "window");
        DeadLetterOptions.OPTIONS.check(DeadLetterOptions.MIN_RECORDS, minRecords, "minRecords");
    }

    /** The breaker switched off. */
    public static DeadLetterGuard off() {
        return new DeadLetterGuard(
                1.0, DeadLetterOptions.WINDOW.defaultValue(), DEFAULT_MIN_RECORDS);
    }

    public boolean enabled() {
        return maxFraction < 1.0;
    }
}
