package io.tfstream.spec.schema;

import java.util.ArrayList;
import java.util.List;
import org.tensorflow.metadata.v0.Path;

/**
 * tfx-bsl's {@code ColumnPath}: the steps from the schema root to a (possibly nested) column.
 * {@link #toString()} joins the steps with dots, as {@code str(ColumnPath)} does.
 */
record ColumnPath(List<String> steps) {
    ColumnPath {
        steps = List.copyOf(steps);
    }

    static ColumnPath of(String... steps) {
        return new ColumnPath(List.of(steps));
    }

    static ColumnPath of(Path path) {
        return new ColumnPath(path.getStepList());
    }

    int size() {
        return steps.size();
    }

    /** The path without its last step; the root for a path of length 0 or 1. */
    ColumnPath parent() {
        return steps.isEmpty() ? this : new ColumnPath(steps.subList(0, steps.size() - 1));
    }

    ColumnPath child(String step) {
        List<String> s = new ArrayList<>(steps);
        s.add(step);
        return new ColumnPath(s);
    }

    @Override
    public String toString() {
        return String.join(".", steps);
    }
}
