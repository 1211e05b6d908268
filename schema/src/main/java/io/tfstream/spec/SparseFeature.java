package io.tfstream.spec;

import java.util.List;
import java.util.Objects;

/**
 * {@code tf.io.SparseFeature(index_key, value_key, dtype, size, already_sorted)}: a SparseTensor
 * {@code [batch] + size} built from int64 index features and one value feature. {@code size} is
 * taken verbatim; {@code -1} means unknown, as tfx-bsl emits for index features without an {@code
 * int_domain}.
 */
public record SparseFeature(
        List<String> indexKeys,
        String valueKey,
        DType dtype,
        List<Long> size,
        boolean alreadySorted)
        implements FeatureSpec {

    public SparseFeature {
        Objects.requireNonNull(indexKeys, "Missing index_key for SparseFeature");
        indexKeys = List.copyOf(indexKeys);
        Objects.requireNonNull(valueKey, "Missing value_key for SparseFeature");
        Objects.requireNonNull(dtype, "Missing type for SparseFeature");
        Objects.requireNonNull(size, "Missing size for SparseFeature");
        size = List.copyOf(size);
        if (size.size() != indexKeys.size()) {
            throw new IllegalArgumentException(
                    "SparseFeature has "
                            + indexKeys.size()
                            + " index keys but size has "
                            + size.size()
                            + " dimensions "
                            + size);
        }
        for (int i = 0; i < size.size(); i++) {
            if (size.get(i) < -1) {
                throw new IllegalArgumentException(
                        "SparseFeature size "
                                + size
                                + " has dimension "
                                + i
                                + " = "
                                + size.get(i)
                                + "; sizes must be >= 0, or -1 for unknown");
            }
        }
    }
}
