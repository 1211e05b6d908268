package io.tfstream.parse.example;

import io.tfstream.tensor.Tensor;
import java.util.Collections;
import java.util.SortedMap;

/**
 * The tensors {@code tf.io.parse_single_example} returns for one record, keyed by output feature
 * name in sorted order, without a batch dimension.
 */
public final class ParsedExample {
    private final SortedMap<String, Tensor> features;

    ParsedExample(SortedMap<String, Tensor> features) {
        this.features = Collections.unmodifiableSortedMap(features);
    }

    public SortedMap<String, Tensor> features() {
        return features;
    }

    public Tensor feature(String name) {
        return features.get(name);
    }

    @Override
    public String toString() {
        return "ParsedExample" + features;
    }
}
