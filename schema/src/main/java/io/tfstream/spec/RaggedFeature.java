package io.tfstream.spec;

import java.util.List;
import java.util.Objects;

/**
 * {@code tf.io.RaggedFeature(dtype, value_key, partitions, row_splits_dtype)}: a RaggedTensor whose
 * flat values come from {@code valueKey} and whose row partitions (outermost first) come from
 * partition features or uniform row lengths. {@code validate} is always false, as tfx-bsl and TFT
 * produce it.
 */
public record RaggedFeature(
        DType dtype, String valueKey, List<Partition> partitions, RowSplitsDType rowSplitsDtype)
        implements FeatureSpec {

    public RaggedFeature {
        Objects.requireNonNull(dtype, "Missing type for RaggedFeature");
        Objects.requireNonNull(valueKey, "value_key must be a string");
        Objects.requireNonNull(partitions, "partitions must be a list or tuple");
        partitions = List.copyOf(partitions);
        Objects.requireNonNull(rowSplitsDtype, "row_splits_dtype must be int32 or int64");
        if (valueKey.isEmpty()) {
            throw new IllegalArgumentException("value_key may not be empty");
        }
    }
}
