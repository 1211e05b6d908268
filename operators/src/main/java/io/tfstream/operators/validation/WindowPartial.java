package io.tfstream.operators.validation;

import java.util.Objects;

/**
 * A serialized {@link io.tfstream.validation.WindowAccumulator} of one event-time window {@code
 * [windowStart, windowEnd)}: a subtask's partial restricted to feature-path split {@code split} on
 * its way to the window operator, or a whole partial ({@code split} -1) in operator state.
 *
 * @param version the {@link io.tfstream.validation.WindowAccumulatorSerializer} version of {@code
 *     accumulator}
 * @param lateCount records that arrived after this window had been emitted (not in it)
 */
public record WindowPartial(
        int split,
        long windowStart,
        long windowEnd,
        long lateCount,
        int version,
        byte[] accumulator) {
    public WindowPartial {
        Objects.requireNonNull(accumulator, "accumulator");
        if (windowEnd <= windowStart) {
            throw new IllegalArgumentException(
                    "window [" + windowStart + ", " + windowEnd + ") is empty");
        }
    }
}
