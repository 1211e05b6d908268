package io.tfstream.testing;

import io.tfstream.sample.SeedDataset;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import java.util.List;
import java.util.Map;

/**
 * The seed-001 dataset: four scalar features per Example, as in TensorFlow's TFRecord tutorial
 * ({@code feature0} a 0/1 int64, {@code feature1} an int64 in 0..4, {@code feature2} one of five
 * animal names, {@code feature3} a standard-normal float), serialized with protobuf-java.
 * Deterministic for a seed.
 */
public final class Seed001Corpus {
    private static final String[] ANIMALS = {"cat", "dog", "chicken", "horse", "goat"};

    private Seed001Corpus() {}

    /** The four features as required scalar {@code FixedLenFeature}s. */
    public static FeatureSpecs spec() {
        return FeatureSpecs.of(
                Map.<String, FeatureSpec>of(
                        "feature0", FixedLenFeature.required(List.of(), DType.INT64),
                        "feature1", FixedLenFeature.required(List.of(), DType.INT64),
                        "feature2", FixedLenFeature.required(List.of(), DType.STRING),
                        "feature3", FixedLenFeature.required(List.of(), DType.FLOAT32)));
    }

    /** {@code n} serialized Examples ({@link SeedDataset#records}). */
    public static List<byte[]> records(int n, long seed) {
        return SeedDataset.records(n, seed);
    }
}
