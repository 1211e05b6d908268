package io.tfstream.validation;

import java.util.List;
import java.util.Map;
import org.tensorflow.metadata.v0.DriftSkewInfo;

/**
 * One reason of a window (or drift) evaluation with the numbers an alert carries
 * (docs/validation.md#alert-format).
 *
 * @param affectedExamples examples that showed it (all examples for window-level reasons)
 * @param firstSeen event time of the first offending record, or {@code Long.MAX_VALUE}
 * @param lastSeen event time of the last offending record, or {@code Long.MIN_VALUE}
 * @param observed what the window measured, e.g. {@code fraction_present}
 * @param expected the schema constraint, e.g. {@code presence.min_fraction}
 * @param measurement the comparator measurement (drift only), else null
 */
public record WindowFinding(
        Finding finding,
        AlertScope scope,
        long affectedExamples,
        long firstSeen,
        long lastSeen,
        List<ExampleRef> exampleRefs,
        Map<String, Object> observed,
        Map<String, Object> expected,
        DriftSkewInfo.Measurement measurement) {
    public WindowFinding {
        exampleRefs = List.copyOf(exampleRefs);
        observed = Map.copyOf(observed);
        expected = Map.copyOf(expected);
    }
}
