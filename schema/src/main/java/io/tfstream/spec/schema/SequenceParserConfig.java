package io.tfstream.spec.schema;

import com.google.protobuf.TextFormat;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.spec.SparseFeature;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.tensorflow.metadata.v0.Feature;
import org.tensorflow.metadata.v0.FeatureType;
import org.tensorflow.metadata.v0.Path;
import org.tensorflow.metadata.v0.Schema;
import org.tensorflow.metadata.v0.TensorRepresentation;

/**
 * The context and feature-list specs of a SequenceExample schema, as tfx-bsl's {@code
 * CreateTfSequenceExampleParserConfig(schema)}: only the explicit representations of group {@code
 * ""} are used; one whose value column is a top-level feature is a context spec, one whose value
 * column is the child of a STRUCT (conventionally {@code ##SEQUENCE##}) is a ragged feature-list
 * spec keyed by the child's name.
 */
public final class SequenceParserConfig {
    private SequenceParserConfig() {}

    /**
     * @throws SchemaRejectedException with tfx-bsl's message when it raises, or when a spec kind is
     *     not allowed where it lands (a SparseFeature in the context)
     */
    public static SequenceFeatureSpecs create(Schema schema, FixedLenDefaults defaults) {
        Map<String, TensorRepresentation> trs =
                TensorRepresentations.explicit(schema)
                        .orElseThrow(
                                () ->
                                        SchemaRejectedException.of(
                                                structName(schema),
                                                "TensorRepresentations are required."));
        Map<ColumnPath, FeatureType> types = new LinkedHashMap<>();
        collectPrimitiveTypes(List.of(), schema.getFeatureList(), types);
        Map<String, FeatureSpec> context = new LinkedHashMap<>();
        Map<String, FeatureSpec> sequence = new LinkedHashMap<>();
        for (Map.Entry<String, TensorRepresentation> e : trs.entrySet()) {
            String name = e.getKey();
            TensorRepresentation tr = e.getValue();
            ColumnPath value =
                    TensorRepresentations.valueColumn(tr)
                            .orElseThrow(
                                    () ->
                                            SchemaRejectedException.of(
                                                    name,
                                                    "TensorRepresentation: None is not"
                                                            + " supported."));
            FeatureType type = types.get(value);
            if (type == null) {
                throw SchemaRejectedException.of(
                        name,
                        "Features referred in TensorRepresentations but not found in the schema: {"
                                + value
                                + "}");
            }
            if (value.size() == 1) {
                FeatureSpec spec =
                        ParserConfigFromTensorRepresentation.create(name, tr, type, defaults);
                if (spec instanceof SparseFeature) {
                    throw SchemaRejectedException.of(
                            name,
                            "A sparse_tensor cannot be a context feature of a SequenceExample:"
                                    + " parse_sequence_example context features are FixedLen,"
                                    + " VarLen or Ragged");
                }
                context.put(name, spec);
            } else if (value.size() == 2) {
                if (!tr.hasRaggedTensor()) {
                    throw SchemaRejectedException.of(
                            name,
                            "Only a ragged_tensor can refer to the sequence feature "
                                    + value
                                    + "; got "
                                    + tr.getKindCase().name().toLowerCase(Locale.ROOT));
                }
                TensorRepresentation.Builder seq = tr.toBuilder();
                List<String> steps = tr.getRaggedTensor().getFeaturePath().getStepList();
                seq.getRaggedTensorBuilder()
                        .setFeaturePath(
                                Path.newBuilder().addAllStep(steps.subList(1, steps.size())));
                sequence.put(
                        name,
                        ParserConfigFromTensorRepresentation.create(
                                name, seq.build(), type, defaults));
            } else {
                throw SchemaRejectedException.of(
                        name,
                        "Only primitive or struct of primitive features are supported, got "
                                + TextFormat.printer().printToString(tr));
            }
        }
        return new SequenceFeatureSpecs(FeatureSpecs.of(context), FeatureSpecs.of(sequence));
    }

    private static String structName(Schema schema) {
        for (Feature f : schema.getFeatureList()) {
            if (f.getType() == FeatureType.STRUCT) {
                return f.getName();
            }
        }
        return "##SEQUENCE##";
    }

    /** tfx-bsl's {@code _GetPrimitiveFeatureTypes}: types of all leaves, recursing into STRUCTs. */
    private static void collectPrimitiveTypes(
            List<String> prefix, List<Feature> features, Map<ColumnPath, FeatureType> out) {
        for (Feature f : features) {
            List<String> steps = new ArrayList<>(prefix);
            steps.add(f.getName());
            if (f.getType() == FeatureType.STRUCT) {
                if (f.getStructDomain().getSparseFeatureCount() > 0) {
                    throw SchemaRejectedException.of(
                            f.getName(), "Struct features with sparse domains are not supported.");
                }
                collectPrimitiveTypes(steps, f.getStructDomain().getFeatureList(), out);
            } else {
                out.put(new ColumnPath(steps), f.getType());
            }
        }
    }
}
