package io.tfstream.spec;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code tf.io.FixedLenFeature(shape, dtype, default_value)}: a dense tensor of a fully known
 * shape. Without a default the feature is required. The default, when present, holds exactly {@code
 * prod(shape)} values (Python reshapes {@code default_value} to the shape).
 */
public record FixedLenFeature(List<Long> shape, DType dtype, Optional<DefaultValue> defaultValue)
        implements FeatureSpec {

    public FixedLenFeature {
        shape = Shapes.checkKnown("FixedLenFeature", shape);
        Objects.requireNonNull(dtype, "Missing type for FixedLenFeature");
        Objects.requireNonNull(defaultValue, "defaultValue");
        if (defaultValue.isPresent()) {
            DefaultValue d = defaultValue.get();
            if (d.dtype() != dtype) {
                throw new IllegalArgumentException(
                        "default_value of dtype "
                                + d.dtype().jsonName()
                                + " does not match FixedLenFeature dtype "
                                + dtype.jsonName());
            }
            long n = Shapes.numElements(shape);
            if (d.size() != n) {
                throw new IllegalArgumentException(
                        "Cannot reshape a tensor with "
                                + d.size()
                                + " elements to shape "
                                + Shapes.format(shape)
                                + " ("
                                + n
                                + " elements)");
            }
        }
    }

    public static FixedLenFeature required(List<Long> shape, DType dtype) {
        return new FixedLenFeature(shape, dtype, Optional.empty());
    }

    public static FixedLenFeature withDefault(List<Long> shape, DType dtype, DefaultValue d) {
        return new FixedLenFeature(shape, dtype, Optional.of(d));
    }

    /** Number of values one example contributes: {@code prod(shape)}. */
    public long numElements() {
        return Shapes.numElements(shape);
    }
}
