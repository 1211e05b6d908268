package io.tfstream.api.model;

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

    public DeadLetterGuard {
        if (!(maxFraction >= 0)) {
            throw new IllegalArgumentException("dlq.max-fraction must be >= 0, got " + maxFraction);
        }
        if (window == null || window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("dlq.window must be positive, got " + window);
        }
        if (minRecords < 1) {
            throw new IllegalArgumentException("dlq.min-records must be >= 1, got " + minRecords);
        }
    }

    /** The breaker switched off. */
    public static DeadLetterGuard off() {
        return new DeadLetterGuard(1.0, Duration.ofMinutes(1), DEFAULT_MIN_RECORDS);
    }

    public boolean enabled() {
        return maxFraction < 1.0;
    }
}
