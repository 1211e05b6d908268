package io.tfstream.api.model;

import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Tumbling event-time windows of a size: a window's batch is closed once the watermark passes its
 * end plus the allowed lateness; a record arriving after that is late and goes to the dead letters
 * (reason {@code late}) or is dropped ({@link LateRecords}), counted either way. One key's window
 * buffers at most {@code maxBufferedBytes} of record values before they are parsed and emitted
 * early. A class with a builder, so that a new setting keeps user code compiling and linking.
 */
@PublicEvolving
public final class WindowSettings implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Bytes of record values one key's window buffers by default. */
    public static final long DEFAULT_MAX_BUFFERED_BYTES = 64L << 20;

    private final long sizeMs;
    private final long allowedLatenessMs;
    private final LateRecords lateRecords;
    private final long maxBufferedBytes;

    private WindowSettings(
            long sizeMs, long allowedLatenessMs, LateRecords lateRecords, long maxBufferedBytes) {
        this.sizeMs = sizeMs;
        this.allowedLatenessMs = allowedLatenessMs;
        this.lateRecords = lateRecords;
        this.maxBufferedBytes = maxBufferedBytes;
    }

    /** Windows of {@code size} (positive); everything else as the defaults of {@code batch.*}. */
    public static Builder builder(Duration size) {
        return new Builder(size);
    }

    public long sizeMs() {
        return sizeMs;
    }

    public long allowedLatenessMs() {
        return allowedLatenessMs;
    }

    public LateRecords lateRecords() {
        return lateRecords;
    }

    public long maxBufferedBytes() {
        return maxBufferedBytes;
    }

    /** The start of the window holding event time {@code t} (epoch millis). */
    public long windowStart(long t) {
        return t - Math.floorMod(t, sizeMs);
    }

    /** When the window starting at {@code start} closes: the last watermark it waits for. */
    public long closesAt(long start) {
        return start + sizeMs - 1 + allowedLatenessMs;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WindowSettings w
                && w.sizeMs == sizeMs
                && w.allowedLatenessMs == allowedLatenessMs
                && w.lateRecords == lateRecords
                && w.maxBufferedBytes == maxBufferedBytes;
    }

    @Override
    public int hashCode() {
        return Objects.hash(sizeMs, allowedLatenessMs, lateRecords, maxBufferedBytes);
    }

    @Override
    public String toString() {
        return "WindowSettings{size="
                + sizeMs
                + " ms, allowedLateness="
                + allowedLatenessMs
                + " ms, lateRecords="
                + lateRecords
                + ", maxBufferedBytes="
                + maxBufferedBytes
                + "}";
    }

    /** Collects the settings; {@link #build()} checks them and names the one that is wrong. */
    @PublicEvolving
    public static final class Builder {
        private final Duration size;
        private Duration allowedLateness = Duration.ZERO;
        private LateRecords lateRecords = LateRecords.DEAD_LETTER;
        private long maxBufferedBytes = DEFAULT_MAX_BUFFERED_BYTES;

        private Builder(Duration size) {
            this.size = size;
        }

        /** How long past its end a window waits for late records (default 0). */
        public Builder setAllowedLateness(Duration allowedLateness) {
            this.allowedLateness = allowedLateness;
            return this;
        }

        /** A record whose window has closed: {@code DEAD_LETTER} (default) or {@code DROP}. */
        public Builder setLateRecords(LateRecords lateRecords) {
            this.lateRecords = lateRecords;
            return this;
        }

        /**
         * Bytes of record values one key's window buffers before it emits early (default 64 MiB).
         */
        public Builder setMaxBufferedBytes(long maxBufferedBytes) {
            this.maxBufferedBytes = maxBufferedBytes;
            return this;
        }

        /**
         * @throws IllegalArgumentException naming the first wrong setting
         */
        public WindowSettings build() {
            if (size == null || size.isNegative() || size.isZero()) {
                throw new IllegalArgumentException("window size must be positive, got " + size);
            }
            if (allowedLateness == null || allowedLateness.isNegative()) {
                throw new IllegalArgumentException(
                        "allowed lateness must be >= 0, got " + allowedLateness);
            }
            if (lateRecords != LateRecords.DEAD_LETTER && lateRecords != LateRecords.DROP) {
                throw new IllegalArgumentException(
                        "lateRecords of a window must be DEAD_LETTER or DROP, got " + lateRecords);
            }
            if (maxBufferedBytes <= 0) {
                throw new IllegalArgumentException(
                        "max buffered bytes must be positive, got " + maxBufferedBytes);
            }
            return new WindowSettings(
                    size.toMillis(), allowedLateness.toMillis(), lateRecords, maxBufferedBytes);
        }
    }
}
