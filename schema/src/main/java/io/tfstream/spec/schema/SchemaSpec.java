package io.tfstream.spec.schema;

import com.google.protobuf.Message;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.SequenceFeatureSpecs;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a schema yields: the parse spec ({@link FeatureSpecs} for Example data, {@link
 * SequenceFeatureSpecs} when the schema has a STRUCT feature) and, per output name, the domain of
 * its value feature, as tensorflow_transform's {@code SchemaAsFeatureSpecResult(feature_spec,
 * domains)}.
 */
public record SchemaSpec(ParseSpec spec, Map<String, Message> domains) {
    public SchemaSpec {
        Objects.requireNonNull(spec, "spec");
        domains = Collections.unmodifiableMap(new LinkedHashMap<>(domains));
    }

    /** The Example spec. */
    public FeatureSpecs exampleSpecs() {
        if (spec instanceof FeatureSpecs f) {
            return f;
        }
        throw new IllegalStateException(
                "the schema describes SequenceExample data (it has a STRUCT feature); use"
                        + " sequenceSpecs()");
    }

    /** The SequenceExample spec. */
    public SequenceFeatureSpecs sequenceSpecs() {
        if (spec instanceof SequenceFeatureSpecs s) {
            return s;
        }
        throw new IllegalStateException(
                "the schema describes Example data (it has no STRUCT feature); use"
                        + " exampleSpecs()");
    }

    /** tensorflow_transform's single feature-spec dict (context and feature lists merged). */
    public FeatureSpecs tftFeatureSpec() {
        return TftView.featureSpec(spec);
    }
}
