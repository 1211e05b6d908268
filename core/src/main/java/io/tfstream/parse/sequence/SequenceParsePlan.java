package io.tfstream.parse.sequence;

import io.tfstream.spec.DType;
import io.tfstream.spec.DefaultValue;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.FixedLenSequenceFeature;
import io.tfstream.spec.Partition;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.spec.VarLenFeature;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The op parameters of {@code ParseSequenceExampleV2} lowered from a {@link SequenceFeatureSpecs}
 * as Python's {@code parse_sequence_example} does ({@code _ParseOpParams.from_features} over sorted
 * keys, then {@code _parse_sequence_example_raw}), with Python's spec errors.
 */
final class SequenceParsePlan {
    enum Kind {
        DENSE,
        SPARSE,
        RAGGED
    }

    /** One raw key of the op: what is read from the wire under {@code name}. */
    static final class Key {
        final String name;
        final Kind kind;
        final DType dtype;
        final RowSplitsDType splitsDtype;
        final long[] shape;
        final DefaultValue defaultValue;
        final boolean allowMissing;
        final long elements;

        Key(
                String name,
                Kind kind,
                DType dtype,
                RowSplitsDType splitsDtype,
                long[] shape,
                DefaultValue defaultValue,
                boolean allowMissing) {
            this.name = name;
            this.kind = kind;
            this.dtype = dtype;
            this.splitsDtype = splitsDtype;
            this.shape = shape;
            this.defaultValue = defaultValue;
            this.allowMissing = allowMissing;
            long n = 1;
            for (long d : shape) {
                n *= d;
            }
            this.elements = n;
        }
    }

    /** Context raw keys: dense, then sparse, then ragged, each in op order. */
    final List<Key> context;

    /** Feature-list raw keys: dense, then sparse, then ragged, each in op order. */
    final List<Key> featureLists;

    /** User output name to raw key name, per section. */
    final Map<String, String> contextOutputs;

    final Map<String, String> featureListOutputs;

    /** RaggedFeatures with partitions, by output name, per section. */
    final Map<String, RaggedFeature> contextComposites;

    final Map<String, RaggedFeature> featureListComposites;

    private SequenceParsePlan(
            List<Key> context,
            List<Key> featureLists,
            Map<String, String> contextOutputs,
            Map<String, String> featureListOutputs,
            Map<String, RaggedFeature> contextComposites,
            Map<String, RaggedFeature> featureListComposites) {
        this.context = context;
        this.featureLists = featureLists;
        this.contextOutputs = contextOutputs;
        this.featureListOutputs = featureListOutputs;
        this.contextComposites = contextComposites;
        this.featureListComposites = featureListComposites;
    }

    static SequenceParsePlan of(SequenceFeatureSpecs specs) {
        if (specs.context().isEmpty() && specs.featureLists().isEmpty()) {
            throw new IllegalArgumentException(
                    "Both `context_features` and `sequence_features` argument are None, but at"
                            + " least one should have values.");
        }
        Map<String, String> ctxOut = new LinkedHashMap<>();
        Map<String, String> flOut = new LinkedHashMap<>();
        Map<String, RaggedFeature> ctxComposites = new LinkedHashMap<>();
        Map<String, RaggedFeature> flComposites = new LinkedHashMap<>();
        List<Key> ctx = lower(specs.context(), false, ctxOut, ctxComposites);
        List<Key> fl = lower(specs.featureLists(), true, flOut, flComposites);
        return new SequenceParsePlan(ctx, fl, ctxOut, flOut, ctxComposites, flComposites);
    }

    private static List<Key> lower(
            FeatureSpecs specs,
            boolean lists,
            Map<String, String> out,
            Map<String, RaggedFeature> composites) {
        List<Key> dense = new ArrayList<>();
        List<Key> sparse = new ArrayList<>();
        Map<String, Key> ragged = new LinkedHashMap<>();
        for (Map.Entry<String, FeatureSpec> e : specs.features().entrySet()) {
            String k = e.getKey();
            FeatureSpec s = e.getValue();
            if (s instanceof FixedLenFeature && !lists) {
                FixedLenFeature f = (FixedLenFeature) s;
                dense.add(
                        new Key(
                                k,
                                Kind.DENSE,
                                f.dtype(),
                                null,
                                toArray(f.shape()),
                                f.defaultValue().orElse(null),
                                false));
                out.put(k, k);
            } else if (s instanceof FixedLenSequenceFeature && lists) {
                FixedLenSequenceFeature f = (FixedLenSequenceFeature) s;
                if (f.defaultValue().isPresent()) {
                    throw new IllegalArgumentException(
                            "Value feature_list.dense_defaults[" + k + "] must be None");
                }
                long[] shape = toArray(f.shape());
                if (f.stepElements() == 0) {
                    throw new IllegalArgumentException(
                            "FixedLenSequenceFeature "
                                    + k
                                    + " has a step shape "
                                    + f.shape()
                                    + " of zero elements, which TensorFlow's kernel divides by");
                }
                dense.add(new Key(k, Kind.DENSE, f.dtype(), null, shape, null, f.allowMissing()));
                out.put(k, k);
            } else if (s instanceof VarLenFeature) {
                sparse.add(new Key(k, Kind.SPARSE, s.dtype(), null, new long[0], null, false));
                out.put(k, k);
            } else if (s instanceof RaggedFeature) {
                RaggedFeature r = (RaggedFeature) s;
                addRagged(ragged, r.valueKey(), r.dtype(), r.rowSplitsDtype());
                for (Partition part : r.partitions()) {
                    if (!(part instanceof Partition.UniformRowLength)) {
                        addRagged(ragged, part.key(), DType.INT64, r.rowSplitsDtype());
                    }
                }
                if (!r.partitions().isEmpty()) {
                    composites.put(k, r);
                }
                out.put(k, r.valueKey());
            } else {
                throw new IllegalArgumentException(
                        "Unsupported " + s.getClass().getSimpleName() + " " + s + ".");
            }
        }
        checkDisjoint("Dense and sparse", names(dense), names(sparse));
        checkDisjoint("Dense and ragged", names(dense), new ArrayList<>(ragged.keySet()));
        checkDisjoint("Ragged and sparse", new ArrayList<>(ragged.keySet()), names(sparse));
        List<Key> all = new ArrayList<>(dense);
        all.addAll(sparse);
        all.addAll(ragged.values());
        return List.copyOf(all);
    }

    /** A ragged raw key, once per name; the same name must keep its dtype and splits dtype. */
    private static void addRagged(
            Map<String, Key> ragged, String name, DType dtype, RowSplitsDType splits) {
        Key prev = ragged.get(name);
        if (prev != null && prev.dtype != dtype) {
            throw new IllegalArgumentException(
                    "Conflicting type "
                            + pyDtype(prev.dtype.jsonName())
                            + " vs "
                            + pyDtype(dtype.jsonName())
                            + " for feature "
                            + name
                            + ".");
        }
        if (prev != null && prev.splitsDtype != splits) {
            throw new IllegalArgumentException(
                    "Conflicting partition type "
                            + pyDtype(prev.splitsDtype.jsonName())
                            + " vs "
                            + pyDtype(splits.jsonName())
                            + " for feature "
                            + name
                            + ".");
        }
        if (prev == null) {
            ragged.put(name, new Key(name, Kind.RAGGED, dtype, splits, new long[0], null, false));
        }
    }

    private static List<String> names(List<Key> keys) {
        List<String> n = new ArrayList<>();
        for (Key k : keys) {
            n.add(k.name);
        }
        return n;
    }

    private static void checkDisjoint(String what, List<String> a, List<String> b) {
        TreeSet<String> both = new TreeSet<>(a);
        both.retainAll(b);
        if (!both.isEmpty()) {
            StringBuilder sb = new StringBuilder("{");
            for (String s : both) {
                sb.append(sb.length() > 1 ? ", " : "").append('\'').append(s).append('\'');
            }
            throw new IllegalArgumentException(
                    what + " keys must not intersect; intersection: " + sb.append('}'));
        }
    }

    private static String pyDtype(String name) {
        return "<dtype: '" + name + "'>";
    }

    private static long[] toArray(List<Long> shape) {
        long[] a = new long[shape.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = shape.get(i);
        }
        return a;
    }
}
