package io.tfstream.spec.schema;

import com.google.protobuf.TextFormat;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.tensorflow.metadata.v0.Feature;
import org.tensorflow.metadata.v0.FeatureType;
import org.tensorflow.metadata.v0.FixedShape;
import org.tensorflow.metadata.v0.LifecycleStage;
import org.tensorflow.metadata.v0.Path;
import org.tensorflow.metadata.v0.Schema;
import org.tensorflow.metadata.v0.SparseFeature;
import org.tensorflow.metadata.v0.TensorRepresentation;

/**
 * The {@code TensorRepresentation}s of a schema, as tfx-bsl's {@code tensor_representation_util}
 * derives them on its open-source (non-legacy) path: {@code InferTensorRepresentationsFromSchema}
 * ({@link #infer}), {@code InferTensorRepresentationsFromMixedSchema} ({@link #inferMixed}) and
 * {@code GetTensorRepresentationsFromSchema} for the default group {@code ""} ({@link #explicit}).
 * Maps are ordered as upstream's dicts.
 */
public final class TensorRepresentations {
    /** Name of the default {@code tensor_representation_group}. */
    public static final String DEFAULT_GROUP = "";

    private static final Set<LifecycleStage> DISQUALIFYING_STAGES =
            Set.of(
                    LifecycleStage.DEPRECATED,
                    LifecycleStage.DISABLED,
                    LifecycleStage.PLANNED,
                    LifecycleStage.ALPHA,
                    LifecycleStage.DEBUG_ONLY,
                    LifecycleStage.VALIDATION_DERIVED);

    private TensorRepresentations() {}

    /** The explicit representations of group {@code ""}, or empty when the group is absent. */
    public static Optional<Map<String, TensorRepresentation>> explicit(Schema schema) {
        if (!schema.containsTensorRepresentationGroup(DEFAULT_GROUP)) {
            return Optional.empty();
        }
        return Optional.of(
                new LinkedHashMap<>(
                        schema.getTensorRepresentationGroupOrThrow(DEFAULT_GROUP)
                                .getTensorRepresentationMap()));
    }

    /**
     * Explicit representations of group {@code ""} first; then every inferred one whose name is
     * neither an explicit name nor a column an explicit representation consumes.
     */
    public static Map<String, TensorRepresentation> inferMixed(Schema schema) {
        Optional<Map<String, TensorRepresentation>> explicit = explicit(schema);
        Map<String, TensorRepresentation> inferred = infer(schema);
        if (explicit.isEmpty()) {
            return inferred;
        }
        Map<String, TensorRepresentation> result = explicit.get();
        Set<String> sourceColumns = new HashSet<>();
        for (TensorRepresentation tr : result.values()) {
            for (ColumnPath c : sourceColumns(tr)) {
                sourceColumns.add(c.toString());
            }
        }
        for (Map.Entry<String, TensorRepresentation> e : inferred.entrySet()) {
            if (!result.containsKey(e.getKey()) && !sourceColumns.contains(e.getKey())) {
                result.put(e.getKey(), e.getValue());
            }
        }
        return result;
    }

    /**
     * Sparse features first (in {@code sparse_feature} order, consuming their index and value
     * columns), then the remaining features in schema order: STRUCT children become ragged tensors,
     * a {@code shape} gives a dense tensor (only with {@code presence.min_fraction == 1}), anything
     * else a varlen sparse tensor, or a ragged one when {@code represent_variable_length_as_ragged}
     * is set. Deprecated features are skipped.
     *
     * @throws SchemaRejectedException with tfx-bsl's message when it raises
     */
    @SuppressWarnings("deprecation") // tfx-bsl still honours the deprecated `deprecated` flag
    public static Map<String, TensorRepresentation> infer(Schema schema) {
        Map<String, Feature> remaining = new LinkedHashMap<>();
        for (Feature f : schema.getFeatureList()) {
            remaining.put(f.getName(), f);
        }
        Map<String, TensorRepresentation> result = new LinkedHashMap<>();
        for (SparseFeature sf : schema.getSparseFeatureList()) {
            if (shouldInclude(sf.getDeprecated(), sf.getLifecycleStage())) {
                result.put(sf.getName(), SparseInference.infer(sf, remaining));
            }
        }
        for (Feature f : remaining.values()) {
            if (!shouldInclude(f.getDeprecated(), f.getLifecycleStage())) {
                continue;
            }
            if (f.getType() == FeatureType.STRUCT) {
                result.putAll(inferStruct(f));
            } else if (f.hasShape()) {
                double minFraction = f.getPresence().getMinFraction();
                if (minFraction != 1) {
                    throw SchemaRejectedException.naming(
                            f.getName(),
                            "Feature "
                                    + f.getName()
                                    + " had shape "
                                    + TextFormat.printer().printToString(f.getShape())
                                    + " set but min_fraction "
                                    + PyRepr.ofDouble(minFraction)
                                    + " != 1.  Use value_count not shape field when"
                                    + " min_fraction != 1.");
                }
                result.put(f.getName(), dense(f.getName(), f.getShape()));
            } else if (schema.getRepresentVariableLengthAsRagged()) {
                result.put(f.getName(), ragged(Path.newBuilder().addStep(f.getName()).build()));
            } else {
                result.put(
                        f.getName(),
                        TensorRepresentation.newBuilder()
                                .setVarlenSparseTensor(
                                        TensorRepresentation.VarLenSparseTensor.newBuilder()
                                                .setColumnName(f.getName()))
                                .build());
            }
        }
        return result;
    }

    /** tfx-bsl's {@code _ShouldIncludeFeature}. */
    static boolean shouldInclude(boolean deprecated, LifecycleStage stage) {
        return !deprecated && !DISQUALIFYING_STAGES.contains(stage);
    }

    private static Map<String, TensorRepresentation> inferStruct(Feature f) {
        if (f.getStructDomain().getSparseFeatureCount() > 0) {
            throw SchemaRejectedException.naming(
                    f.getName(),
                    "Got sparse features in struct domain of "
                            + f.getName()
                            + ". Struct features with sparse domains are not supported.");
        }
        Map<String, TensorRepresentation> result = new LinkedHashMap<>();
        for (Feature child : f.getStructDomain().getFeatureList()) {
            if (child.getType() == FeatureType.STRUCT) {
                throw SchemaRejectedException.naming(
                        f.getName(),
                        "Got STRUCT feature "
                                + child.getName()
                                + " in struct domain of "
                                + f.getName()
                                + ". STRUCT features with multiple levels of nestedness are not"
                                + " supported.");
            }
            ColumnPath p = ColumnPath.of(f.getName(), child.getName());
            result.put(p.toString(), ragged(Path.newBuilder().addAllStep(p.steps()).build()));
        }
        return result;
    }

    private static TensorRepresentation dense(String column, FixedShape shape) {
        return TensorRepresentation.newBuilder()
                .setDenseTensor(
                        TensorRepresentation.DenseTensor.newBuilder()
                                .setColumnName(column)
                                .setShape(shape))
                .build();
    }

    private static TensorRepresentation ragged(Path path) {
        return TensorRepresentation.newBuilder()
                .setRaggedTensor(
                        TensorRepresentation.RaggedTensor.newBuilder().setFeaturePath(path))
                .build();
    }

    /** tfx-bsl's {@code GetSourceColumnsFromTensorRepresentation}. */
    static List<ColumnPath> sourceColumns(TensorRepresentation tr) {
        List<ColumnPath> result = new ArrayList<>();
        switch (tr.getKindCase()) {
            case DENSE_TENSOR:
                result.add(ColumnPath.of(tr.getDenseTensor().getColumnName()));
                break;
            case VARLEN_SPARSE_TENSOR:
                result.add(ColumnPath.of(tr.getVarlenSparseTensor().getColumnName()));
                break;
            case SPARSE_TENSOR:
                for (String c : tr.getSparseTensor().getIndexColumnNamesList()) {
                    result.add(ColumnPath.of(c));
                }
                if (tr.getSparseTensor().hasValueColumnName()) {
                    result.add(ColumnPath.of(tr.getSparseTensor().getValueColumnName()));
                }
                break;
            case RAGGED_TENSOR:
                ColumnPath value = ColumnPath.of(tr.getRaggedTensor().getFeaturePath());
                result.add(value);
                for (var p : tr.getRaggedTensor().getPartitionList()) {
                    if (p.hasRowLength()) {
                        result.add(value.parent().child(p.getRowLength()));
                    }
                }
                break;
            default:
                break;
        }
        return result;
    }

    /**
     * tfx-bsl's {@code GetSourceValueColumnFromTensorRepresentation}: the column holding the
     * values; empty for a representation whose kind is unset.
     */
    static Optional<ColumnPath> valueColumn(TensorRepresentation tr) {
        switch (tr.getKindCase()) {
            case DENSE_TENSOR:
                return Optional.of(ColumnPath.of(tr.getDenseTensor().getColumnName()));
            case VARLEN_SPARSE_TENSOR:
                return Optional.of(ColumnPath.of(tr.getVarlenSparseTensor().getColumnName()));
            case SPARSE_TENSOR:
                return Optional.of(ColumnPath.of(tr.getSparseTensor().getValueColumnName()));
            case RAGGED_TENSOR:
                return Optional.of(ColumnPath.of(tr.getRaggedTensor().getFeaturePath()));
            default:
                return Optional.empty();
        }
    }
}
