package io.tfstream.validation;

import java.util.List;
import org.tensorflow.example.Example;

/** Feeds Examples into a window accumulator, as the window operator does. */
final class Windows {
    private Windows() {}

    static WindowAccumulator window(ValidationSchema s, List<Example> examples) {
        return window(s, examples, 0);
    }

    static WindowAccumulator window(ValidationSchema s, List<Example> examples, long firstOffset) {
        RecordValidator v = new RecordValidator(s);
        RecordResult r = new RecordResult();
        RecordRef ref = new RecordRef();
        WindowAccumulator a = new WindowAccumulator(s);
        long offset = firstOffset;
        for (Example e : examples) {
            byte[] b = e.toByteArray();
            v.validateExample(b, 0, b.length, r);
            a.add(v, r, ref.set("events", 0, offset, 1000 + offset));
            offset++;
        }
        return a;
    }

    static List<Finding> findings(WindowAccumulator a) {
        return WindowEvaluator.evaluate(a).stream().map(WindowFinding::finding).toList();
    }
}
