package io.tfstream.spec.schema;

import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.SequenceFeatureSpecs;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * tensorflow_transform's view of a parse spec: one dict. For SequenceExample data {@code
 * schema_as_feature_spec} merges the context and feature-list specs as {@code {**context,
 * **sequence}}, so a feature list wins over a context feature of the same name. Only for comparing
 * with TFT; parsers keep the two apart.
 */
public final class TftView {
    private TftView() {}

    public static FeatureSpecs featureSpec(ParseSpec spec) {
        if (spec instanceof FeatureSpecs f) {
            return f;
        }
        SequenceFeatureSpecs s = (SequenceFeatureSpecs) spec;
        Map<String, FeatureSpec> merged = new LinkedHashMap<>(s.context().features());
        merged.putAll(s.featureLists().features());
        return FeatureSpecs.of(merged);
    }
}
