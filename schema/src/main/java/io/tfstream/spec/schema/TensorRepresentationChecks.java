package io.tfstream.spec.schema;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.tensorflow.metadata.v0.Feature;
import org.tensorflow.metadata.v0.FeatureType;
import org.tensorflow.metadata.v0.Schema;
import org.tensorflow.metadata.v0.TensorRepresentation;
import org.tensorflow.metadata.v0.TensorRepresentationGroup;

/**
 * tfx-bsl's consistency helpers between a schema's features and its {@code TensorRepresentation}s:
 * {@code ProjectTensorRepresentationsInSchema} ({@link #project}) and {@code
 * ValidateTensorRepresentationsInSchema} ({@link #validate}) for the default group {@code ""}.
 */
public final class TensorRepresentationChecks {
    private TensorRepresentationChecks() {}

    /**
     * A schema holding only the named tensors' representations (explicit ones, else inferred) and
     * the top-level features they read.
     *
     * @throws SchemaRejectedException with tfx-bsl's message for an unknown tensor or a source
     *     column that is not a top-level feature
     */
    public static Schema project(Schema schema, Collection<String> tensorNames) {
        Map<String, TensorRepresentation> trs =
                TensorRepresentations.explicit(schema)
                        .orElseGet(() -> TensorRepresentations.infer(schema));
        Set<String> names = new LinkedHashSet<>(tensorNames);
        Set<String> unknown = new TreeSet<>(names);
        unknown.removeAll(trs.keySet());
        if (!unknown.isEmpty()) {
            throw SchemaRejectedException.naming(
                    String.join(", ", unknown),
                    "Unable to project "
                            + unknown.stream()
                                    .map(n -> "'" + n + "'")
                                    .collect(Collectors.joining(", ", "{", "}"))
                            + " because they were not in the original or inferred"
                            + " TensorRepresentations.");
        }
        Set<ColumnPath> paths = new LinkedHashSet<>();
        for (String n : names) {
            paths.addAll(TensorRepresentations.sourceColumns(trs.get(n)));
        }
        Schema.Builder result = Schema.newBuilder();
        for (Feature f : schema.getFeatureList()) {
            if (paths.remove(ColumnPath.of(f.getName()))) {
                result.addFeature(f);
            }
        }
        if (!paths.isEmpty()) {
            throw SchemaRejectedException.naming(
                    pySet(paths),
                    "TensorRepresentations source columns "
                            + pySet(paths)
                            + " are not present in the schema.");
        }
        Map<String, TensorRepresentation> kept = new LinkedHashMap<>();
        for (Map.Entry<String, TensorRepresentation> e : trs.entrySet()) {
            if (names.contains(e.getKey())) {
                kept.put(e.getKey(), e.getValue());
            }
        }
        result.putTensorRepresentationGroup(
                TensorRepresentations.DEFAULT_GROUP,
                TensorRepresentationGroup.newBuilder().putAllTensorRepresentation(kept).build());
        return result.build();
    }

    /**
     * Checks that group {@code ""} exists, that every column it reads is a (leaf) feature and that
     * every leaf feature is read by some representation.
     *
     * @throws SchemaRejectedException with tfx-bsl's message otherwise
     */
    public static void validate(Schema schema) {
        Map<String, TensorRepresentation> trs =
                TensorRepresentations.explicit(schema)
                        .orElseThrow(
                                () ->
                                        SchemaRejectedException.of(
                                                TensorRepresentations.DEFAULT_GROUP,
                                                "TensorRepresentations are not found in the"
                                                        + " schema. Did you specify correct group"
                                                        + " name?"));
        Set<ColumnPath> sources = new LinkedHashSet<>();
        for (TensorRepresentation tr : trs.values()) {
            sources.addAll(TensorRepresentations.sourceColumns(tr));
        }
        Set<ColumnPath> all = new LinkedHashSet<>();
        for (Feature f : schema.getFeatureList()) {
            all.addAll(leafColumns(List.of(), f));
        }
        Set<ColumnPath> missing = new LinkedHashSet<>(sources);
        missing.removeAll(all);
        if (!missing.isEmpty()) {
            throw SchemaRejectedException.naming(
                    pySet(missing),
                    "Features referred in TensorRepresentations but not found in the schema: "
                            + pySet(missing));
        }
        Set<ColumnPath> unused = new LinkedHashSet<>(all);
        unused.removeAll(sources);
        if (!unused.isEmpty()) {
            throw SchemaRejectedException.naming(
                    pySet(unused),
                    "Features present in the schema but not referred in any"
                            + " TensorRepresentation: "
                            + pySet(unused));
        }
    }

    private static List<ColumnPath> leafColumns(List<String> prefix, Feature f) {
        List<String> steps = new ArrayList<>(prefix);
        steps.add(f.getName());
        List<ColumnPath> out = new ArrayList<>();
        if (f.getType() == FeatureType.STRUCT) {
            for (Feature child : f.getStructDomain().getFeatureList()) {
                out.addAll(leafColumns(steps, child));
            }
        } else {
            out.add(new ColumnPath(steps));
        }
        return out;
    }

    /** A set of column paths as Python prints it, sorted for a stable message. */
    private static String pySet(Collection<ColumnPath> paths) {
        return paths.stream()
                .map(ColumnPath::toString)
                .sorted()
                .collect(Collectors.joining(", ", "{", "}"));
    }
}
