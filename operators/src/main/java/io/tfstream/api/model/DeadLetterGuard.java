package io.tfstream.api.model;

import io.tfstream.text.Quoted;
import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The optional circuit breaker: when more than {@code maxFraction} of the records of the last
 * {@code window} (processing time, per subtask) went to the dead-letter output, and at least {@code
 * minRecords} arrived in that window, the job is stopped instead of dead-lettering everything. Off
 * when {@code maxFraction} is 1 or more. A class with a builder, so that a new setting keeps user
 * code compiling and linking.
 */
@PublicEvolving
public final class DeadLetterGuard implements Serializable {
    private static final long serialVersionUID = 1L;

    public static final long DEFAULT_MIN_RECORDS = 100;

    /** The window by default. */
    public static final Duration DEFAULT_WINDOW = Duration.ofMinutes(1);

    private final double maxFraction;
    private final Duration window;
    private final long minRecords;

    private DeadLetterGuard(double maxFraction, Duration window, long minRecords) {
        this.maxFraction = maxFraction;
        this.window = window;
        this.minRecords = minRecords;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The breaker switched off. */
    public static DeadLetterGuard off() {
        return builder().build();
    }

    public double maxFraction() {
        return maxFraction;
    }

    public Duration window() {
        return window;
    }

    public long minRecords() {
        return minRecords;
    }

    public boolean enabled() {
        return maxFraction < 1.0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeadLetterGuard g
                && Double.compare(g.maxFraction, maxFraction) == 0
                && g.window.equals(window)
                && g.minRecords == minRecords;
    }

    @Override
    public int hashCode() {
        return Objects.hash(maxFraction, window, minRecords);
    }

    @Override
    public String toString() {
        return "DeadLetterGuard{maxFraction="
                + maxFraction
                + ", window="
                + window
                + ", minRecords="
                + minRecords
                + "}";
    }

    /** Collects the settings; {@link #build()} checks them as the {@code dlq.*} options are. */
    @PublicEvolving
    public static final class Builder {
        private double maxFraction = 1.0;
        private Duration window = DEFAULT_WINDOW;
        private long minRecords = DEFAULT_MIN_RECORDS;

        private Builder() {}

        /** The job stops above this fraction of dead letters (default 1: off). */
        public Builder setMaxFraction(double maxFraction) {
            this.maxFraction = maxFraction;
            return this;
        }

        /** The processing-time window the fraction is taken over (default 1 min). */
        public Builder setWindow(Duration window) {
            this.window = window;
            return this;
        }

        /** A window is judged only once it holds this many records (default 100). */
        public Builder setMinRecords(long minRecords) {
            this.minRecords = minRecords;
            return this;
        }

        /**
         * @throws IllegalArgumentException naming the first wrong setting
         */
        public DeadLetterGuard build() {
            if (!(maxFraction >= 0)) {
                throw Quoted.invalidValue(maxFraction, "maxFraction", ">= 0 (1 or more: off)");
            }
            if (window == null) {
                throw new IllegalArgumentException("window must be set");
            }
            if (window.isNegative() || window.isZero()) {
                throw Quoted.invalidValue(window, "window", "a positive duration");
            }
            if (minRecords < 1) {
                throw Quoted.invalidValue(minRecords, "minRecords", ">= 1");
            }
            return new DeadLetterGuard(maxFraction, window, minRecords);
        }
    }
}
