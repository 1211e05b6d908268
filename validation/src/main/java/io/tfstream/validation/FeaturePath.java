package io.tfstream.validation;

import java.util.List;
import org.tensorflow.metadata.v0.Path;

/**
 * A feature's path from the schema root, serialized as TFDV keys {@code Anomalies.anomaly_info}
 * ({@code path.cc::Path::Serialize}): steps joined with {@code .}; a step is written as is when it
 * is non-empty and has none of {@code . ( ) '} (or is wholly wrapped in parentheses), otherwise it
 * is single-quoted with inner quotes doubled.
 */
public record FeaturePath(List<String> steps) {
    public FeaturePath {
        steps = List.copyOf(steps);
    }

    public static FeaturePath of(String... steps) {
        return new FeaturePath(List.of(steps));
    }

    public FeaturePath child(String step) {
        String[] s = steps.toArray(new String[steps.size() + 1]);
        s[steps.size()] = step;
        return of(s);
    }

    /** {@code Path::Serialize}. */
    public String serialized() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < steps.size(); i++) {
            if (i > 0) {
                b.append('.');
            }
            b.append(serializeStep(steps.get(i)));
        }
        return b.toString();
    }

    public Path toProto() {
        return Path.newBuilder().addAllStep(steps).build();
    }

    private static String serializeStep(String step) {
        boolean wrapped = step.length() >= 2 && step.startsWith("(") && step.endsWith(")");
        if (!step.isEmpty() && (wrapped || step.chars().noneMatch(c -> ".()'".indexOf(c) >= 0))) {
            return step;
        }
        return "'" + step.replace("'", "''") + "'";
    }

    @Override
    public String toString() {
        return serialized();
    }
}
