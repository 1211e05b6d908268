package io.tfstream.spec;

import java.util.Objects;

/** {@code tf.io.VarLenFeature(dtype)}: a 2-D SparseTensor {@code [batch, max_len]}. */
public record VarLenFeature(DType dtype) implements FeatureSpec {
    public VarLenFeature {
        Objects.requireNonNull(dtype, "Missing type for VarLenFeature");
    }
}
