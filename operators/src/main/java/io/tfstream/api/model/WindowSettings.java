package io.tfstream.api.model;

import java.io.Serializable;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Tumbling event-time windows of {@code sizeMs}: a window's batch is closed once the watermark
 * passes its end plus {@code allowedLatenessMs}; a record arriving after that is late and goes to
 * the dead letters (reason {@code late}) or is dropped, by {@link LateRecords} (counted either
 * way). One key's window buffers at most {@code maxBufferedBytes} of record values before they are
 * parsed and emitted early.
 */
@PublicEvolving
public record WindowSettings(
        long sizeMs, long allowedLatenessMs, LateRecords lateRecords, long maxBufferedBytes)
        implements Serializable {
    public WindowSettings {
        if (sizeMs <= 0) {
            throw new IllegalArgumentException("window size must be positive, got " + sizeMs);
        }
        if (allowedLatenessMs < 0) {
            throw new IllegalArgumentException(
                    "allowed lateness must be >= 0, got " + allowedLatenessMs);
        }
        java.util.Objects.requireNonNull(lateRecords, "lateRecords");
        if (maxBufferedBytes <= 0) {
            throw new IllegalArgumentException(
                    "max buffered bytes must be positive, got " + maxBufferedBytes);
        }
    }

    /** What happens to a record whose window has closed. */
    public enum LateRecords {
        /** Dead-lettered with reason {@code late}. */
        DEAD_LETTER,
        /** Dropped. */
        DROP
    }

    /** The start of the window holding event time {@code t} (epoch millis). */
    public long windowStart(long t) {
        return t - Math.floorMod(t, sizeMs);
    }

    /** When the window starting at {@code start} closes: the last watermark it waits for. */
    public long closesAt(long start) {
        return start + sizeMs - 1 + allowedLatenessMs;
    }
}
