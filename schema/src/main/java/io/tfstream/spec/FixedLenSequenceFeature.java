package io.tfstream.spec;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code tf.io.FixedLenSequenceFeature(shape, dtype, allow_missing, default_value)}: a dense tensor
 * whose first dimension varies per example; {@code shape} is the shape of one step. The default,
 * when present, is the single padding value (0 or the empty string when absent).
 */
public record FixedLenSequenceFeature(
        List<Long> shape, DType dtype, boolean allowMissing, Optional<DefaultValue> defaultValue)
        implements FeatureSpec {

    public FixedLenSequenceFeature {
        shape = Shapes.checkKnown("FixedLenSequenceFeature", shape);
        Objects.requireNonNull(dtype, "Missing type for FixedLenSequenceFeature");
        Objects.requireNonNull(defaultValue, "defaultValue");
        if (defaultValue.isPresent()) {
            DefaultValue d = defaultValue.get();
            if (d.dtype() != dtype) {
                throw new IllegalArgumentException(
                        "default_value of dtype "
                                + d.dtype().jsonName()
                                + " does not match FixedLenSequenceFeature dtype "
                                + dtype.jsonName());
            }
            if (d.size() != 1) {
                throw new IllegalArgumentException(
                        "Cannot reshape a tensor with "
                                + d.size()
                                + " elements to shape [] (1 elements)");
            }
        }
    }

    /** Values per step: {@code prod(shape)}. */
    public long stepElements() {
        return Shapes.numElements(shape);
    }

    /** The padding value: the default when given, else 0, 0.0 or the empty string. */
    public DefaultValue paddingValue() {
        return defaultValue.orElseGet(() -> DefaultValue.zero(dtype));
    }
}
