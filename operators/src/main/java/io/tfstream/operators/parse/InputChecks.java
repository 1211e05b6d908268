package io.tfstream.operators.parse;

import io.tfstream.operators.convert.ConvertSettings;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.SequenceFeatureSpecs;
import java.util.Objects;

/**
 * What a new schema must keep for the records reaching the operator, checked by {@link LiveSchema}
 * before a switch: JSON or Avro input must still convert to its Examples ({@link
 * ConvertSettings#problem}), and the feature the windows are keyed by ({@code batch.key:
 * feature:<name>}), read before the operator with the spec the job started with, must stay as it
 * is.
 */
final class InputChecks {
    private InputChecks() {}

    /**
     * Why {@code next} cannot replace {@code inForce} for this input, or null.
     *
     * @param conversion the conversion inside the operator, or null
     * @param keyFeature the feature the windows are keyed by, or null
     */
    static String problem(
            ParseSpec inForce, ParseSpec next, ConvertSettings conversion, String keyFeature) {
        if (keyFeature != null) {
            FeatureSpec before = keyed(inForce, keyFeature);
            FeatureSpec after = keyed(next, keyFeature);
            if (after == null) {
                return "batch.key feature:" + keyFeature + ": it removes that feature";
            }
            if (!Objects.equals(before, after)) {
                return "batch.key feature:"
                        + keyFeature
                        + ": it changes that feature ("
                        + before
                        + " -> "
                        + after
                        + "); the key is read with the schema the job started with";
            }
        }
        return conversion == null ? null : conversion.problem(next);
    }

    private static FeatureSpec keyed(ParseSpec spec, String feature) {
        FeatureSpecs f = spec instanceof SequenceFeatureSpecs s ? s.context() : (FeatureSpecs) spec;
        return f.features().get(feature);
    }
}
