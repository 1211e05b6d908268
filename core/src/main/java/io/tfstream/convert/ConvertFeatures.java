package io.tfstream.convert;

import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.Partition;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.SparseFeature;
import io.tfstream.spec.VarLenFeature;
import java.io.Serializable;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The Example features a converter writes: every key the parse spec reads from an Example (a
 * FixedLen or VarLen feature's name, a SparseFeature's index and value keys, a RaggedFeature's
 * value and partition keys) with its type; index and partition keys are INT64. Slots are numbered
 * in name order, so converted Examples list their features sorted. Small and serializable.
 */
public final class ConvertFeatures implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String[] names;
    private final DType[] types;
    private transient Map<String, Integer> slots;
    private transient Set<String> prefixes;

    private ConvertFeatures(TreeMap<String, DType> features) {
        this.names = features.keySet().toArray(new String[0]);
        this.types = features.values().toArray(new DType[0]);
    }

    /** The features of {@code spec}; a SequenceExample spec is refused. */
    public static ConvertFeatures of(ParseSpec spec) {
        if (!(spec instanceof FeatureSpecs specs)) {
            throw new IllegalArgumentException(
                    "JSON and Avro records convert to tf.train.Example only; the schema describes"
                            + " SequenceExample data");
        }
        TreeMap<String, DType> out = new TreeMap<>();
        for (Map.Entry<String, FeatureSpec> e : specs.features().entrySet()) {
            FeatureSpec f = e.getValue();
            if (f instanceof FixedLenFeature x) {
                put(out, e.getKey(), x.dtype());
            } else if (f instanceof VarLenFeature v) {
                put(out, e.getKey(), v.dtype());
            } else if (f instanceof SparseFeature s) {
                put(out, s.valueKey(), s.dtype());
                s.indexKeys().forEach(k -> put(out, k, DType.INT64));
            } else if (f instanceof RaggedFeature r) {
                put(out, r.valueKey(), r.dtype());
                for (Partition p : r.partitions()) {
                    if (!(p instanceof Partition.UniformRowLength)) {
                        put(out, p.key(), DType.INT64);
                    }
                }
            }
        }
        return new ConvertFeatures(out);
    }

    /** Features {@code name → type}, for tests and tools. */
    public static ConvertFeatures of(Map<String, DType> features) {
        return new ConvertFeatures(new TreeMap<>(features));
    }

    private static void put(TreeMap<String, DType> out, String name, DType type) {
        DType before = out.putIfAbsent(name, type);
        if (before != null && before != type) {
            throw new IllegalArgumentException(
                    "feature '" + name + "' is read as both " + before.jsonName() + " and " + type);
        }
    }

    /** The features {@code name → type}, in name order. */
    public java.util.SortedMap<String, DType> asMap() {
        TreeMap<String, DType> m = new TreeMap<>();
        for (int i = 0; i < names.length; i++) {
            m.put(names[i], types[i]);
        }
        return m;
    }

    public int size() {
        return names.length;
    }

    public String name(int slot) {
        return names[slot];
    }

    public DType type(int slot) {
        return types[slot];
    }

    /** The slot of feature {@code name}, or -1. */
    public int slot(String name) {
        if (slots == null) {
            Map<String, Integer> m = new HashMap<>();
            for (int i = 0; i < names.length; i++) {
                m.put(names[i], i);
            }
            slots = m;
        }
        Integer s = slots.get(name);
        return s == null ? -1 : s;
    }

    /** A writer of these features' Examples. */
    public io.tfstream.parse.ExampleBuilder exampleBuilder() {
        return new io.tfstream.parse.ExampleBuilder(
                java.util.List.of(names), java.util.List.of(types));
    }

    /** Whether some feature is named {@code path.<something>}: a nested object that matters. */
    public boolean isPrefix(String path) {
        if (prefixes == null) {
            Set<String> p = new HashSet<>();
            for (String n : names) {
                for (int i = n.indexOf('.'); i > 0; i = n.indexOf('.', i + 1)) {
                    p.add(n.substring(0, i));
                }
            }
            prefixes = p;
        }
        return prefixes.contains(path);
    }

    /** The name of a feature's type as the docs and errors write it: INT, FLOAT or BYTES. */
    public static String kind(DType type) {
        return switch (type) {
            case INT64 -> "INT";
            case FLOAT32 -> "FLOAT";
            case STRING -> "BYTES";
        };
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ConvertFeatures f
                && Arrays.equals(names, f.names)
                && Arrays.equals(types, f.types);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(names);
    }
}
