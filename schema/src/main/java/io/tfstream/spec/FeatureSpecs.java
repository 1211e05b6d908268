package io.tfstream.spec;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A feature-spec dict for {@code tf.io.parse_example}: output name to {@link FeatureSpec}, iterated
 * in the sorted key order TensorFlow processes them in.
 */
public final class FeatureSpecs implements ParseSpec {
    private final SortedMap<String, FeatureSpec> features;

    private FeatureSpecs(SortedMap<String, FeatureSpec> features) {
        this.features = Collections.unmodifiableSortedMap(features);
    }

    public static FeatureSpecs of(Map<String, ? extends FeatureSpec> features) {
        TreeMap<String, FeatureSpec> m = new TreeMap<>(KeyOrder.CODE_POINT);
        for (Map.Entry<String, ? extends FeatureSpec> e : features.entrySet()) {
            m.put(
                    Objects.requireNonNull(e.getKey(), "feature name"),
                    Objects.requireNonNull(e.getValue(), "spec of " + e.getKey()));
        }
        return new FeatureSpecs(m);
    }

    public static FeatureSpecs empty() {
        return of(Map.of());
    }

    /** Output name to spec, in code-point order of the names. */
    public SortedMap<String, FeatureSpec> features() {
        return features;
    }

    public FeatureSpec get(String name) {
        return features.get(name);
    }

    public int size() {
        return features.size();
    }

    public boolean isEmpty() {
        return features.isEmpty();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FeatureSpecs && features.equals(((FeatureSpecs) o).features);
    }

    @Override
    public int hashCode() {
        return features.hashCode();
    }

    @Override
    public String toString() {
        return features.toString();
    }
}
