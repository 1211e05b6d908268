package io.tfstream.spec.schema;

import com.google.protobuf.Message;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.SequenceFeatureSpecs;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.tensorflow.metadata.v0.Feature;
import org.tensorflow.metadata.v0.FeatureType;
import org.tensorflow.metadata.v0.Schema;
import org.tensorflow.metadata.v0.StringDomain;
import org.tensorflow.metadata.v0.TensorRepresentation;

/**
 * Derives the parse spec of a TFMD schema exactly as tensorflow_transform's {@code
 * schema_utils.schema_as_feature_spec} does on top of tfx-bsl's open-source path:
 *
 * <ul>
 *   <li>no STRUCT feature: {@code InferTensorRepresentationsFromMixedSchema} then {@code
 *       CreateTfExampleParserConfig} per representation, typed by its value feature → {@link
 *       FeatureSpecs} (SPEC.json);
 *   <li>a STRUCT feature (SequenceExample data, {@code ##SEQUENCE##}): {@code
 *       CreateTfSequenceExampleParserConfig} → {@link SequenceFeatureSpecs} (SEQSPEC.json), context
 *       and feature lists kept apart; {@link TftView} gives TFT's merged dict.
 * </ul>
 *
 * TFT's {@code _standardize_default_value} (bytes decoded to str where possible, one-element
 * defaults unwrapped) changes only the Python form of a default, not the parsed tensors; {@link
 * io.tfstream.spec.DefaultValue} keeps the raw bytes as flat values. Domains are TFT's {@code
 * domains}. Rejected schemas raise {@link SchemaRejectedException} with upstream's message.
 */
public final class FeatureSpecFromSchema {
    private FeatureSpecFromSchema() {}

    /** The open-source derivation: fixed-shape features get no default. */
    public static SchemaSpec derive(Schema schema) {
        return derive(schema, FixedLenDefaults.NONE);
    }

    /**
     * @param defaults {@link FixedLenDefaults#LEGACY} gives FixedLen specs without an explicit
     *     default the legacy table's default
     * @throws SchemaRejectedException when tfx-bsl or tensorflow_transform reject the schema
     */
    public static SchemaSpec derive(Schema schema, FixedLenDefaults defaults) {
        for (Feature f : schema.getFeatureList()) {
            if (f.getType() == FeatureType.STRUCT) {
                SequenceFeatureSpecs seq = SequenceParserConfig.create(schema, defaults);
                return new SchemaSpec(
                        seq, SchemaDomains.forSequence(schema, TftView.featureSpec(seq)));
            }
        }
        Map<String, Feature> byName = new LinkedHashMap<>();
        for (Feature f : schema.getFeatureList()) {
            byName.put(f.getName(), f);
        }
        Map<String, StringDomain> stringDomains = SchemaDomains.stringDomains(schema);
        Map<String, FeatureSpec> specs = new LinkedHashMap<>();
        Map<String, Message> domains = new LinkedHashMap<>();
        for (Map.Entry<String, TensorRepresentation> e :
                TensorRepresentations.inferMixed(schema).entrySet()) {
            String name = e.getKey();
            TensorRepresentation tr = e.getValue();
            Feature value = valueFeature(name, tr, byName);
            specs.put(
                    name,
                    ParserConfigFromTensorRepresentation.create(
                            name, tr, value.getType(), defaults));
            Message domain = SchemaDomains.of(value, stringDomains);
            if (domain != null) {
                domains.put(name, domain);
            }
        }
        return new SchemaSpec(FeatureSpecs.of(specs), domains);
    }

    private static Feature valueFeature(
            String name, TensorRepresentation tr, Map<String, Feature> byName) {
        Optional<ColumnPath> column = TensorRepresentations.valueColumn(tr);
        if (column.isEmpty()) {
            throw SchemaRejectedException.of(name, "TensorRepresentation: None is not supported.");
        }
        Feature f = byName.get(column.get().toString());
        if (f != null) {
            return f;
        }
        if (tr.hasRaggedTensor() && column.get().size() > 1) {
            throw SchemaRejectedException.of(
                    name,
                    "Parsing spec from a RaggedTensor with multiple steps in feature_path is not"
                            + " implemented.");
        }
        if (tr.hasRaggedTensor() && column.get().size() == 0) {
            throw SchemaRejectedException.of(
                    name, "RaggedTensor representation with empty feature_path.");
        }
        throw SchemaRejectedException.of(
                name,
                "Features referred in TensorRepresentations but not found in the schema: {"
                        + column.get()
                        + "}");
    }
}
