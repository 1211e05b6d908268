package io.tfstream.operators.validation;

import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * A serialized {@link io.tfstream.validation.WindowAccumulator} of one event-time window {@code
 * [windowStart, windowEnd)}: a subtask's partial restricted to feature-path split {@code split} on
 * its way to the window operator, or a whole partial ({@code split} -1) in operator state.
 *
 * @param version the {@link io.tfstream.validation.WindowAccumulatorSerializer} version of {@code
 *     accumulator}
 * @param lateCount records that arrived after this window had been emitted (not in it)
 * @param fingerprint the schema fingerprint the window's records were validated under (a window
 *     spanning a schema change has one partial per fingerprint, docs/schema-changes.md); empty in
 *     partials of layout version 1, which mean the configured schema
 * @param schema the TFMD schema of that fingerprint, on the first partial of a fingerprint a
 *     batch-and-parse subtask sends to a split (so the window operator can evaluate it), else empty
 */
@Internal
public record WindowPartial(
        int split,
        long windowStart,
        long windowEnd,
        long lateCount,
        int version,
        byte[] accumulator,
        String fingerprint,
        byte[] schema) {
    public WindowPartial {
        Objects.requireNonNull(accumulator, "accumulator");
        Objects.requireNonNull(fingerprint, "fingerprint");
        Objects.requireNonNull(schema, "schema");
        if (windowEnd <= windowStart) {
            throw new IllegalArgumentException(
                    "window [" + windowStart + ", " + windowEnd + ") is empty");
        }
    }

    /** A partial of the configured schema (fingerprint unknown: the layout before live schemas). */
    public WindowPartial(
            int split,
            long windowStart,
            long windowEnd,
            long lateCount,
            int version,
            byte[] accumulator) {
        this(split, windowStart, windowEnd, lateCount, version, accumulator, "", new byte[0]);
    }

    /** This partial without the schema bytes (once the window operator has kept them). */
    public WindowPartial withoutSchema() {
        return schema.length == 0
                ? this
                : new WindowPartial(
                        split,
                        windowStart,
                        windowEnd,
                        lateCount,
                        version,
                        accumulator,
                        fingerprint,
                        new byte[0]);
    }
}
