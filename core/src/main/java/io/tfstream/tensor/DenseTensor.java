package io.tfstream.tensor;

import io.tfstream.spec.DType;
import java.util.Arrays;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A dense tensor: a shape and its values flattened in row-major order. A parsed FixedLenFeature is
 * {@code [B] + shape} and a FixedLenSequenceFeature {@code [B, max_steps] + shape}, as the {@code
 * dense_values} outputs of TensorFlow's {@code ParseExampleV2}.
 */
@PublicEvolving
public final class DenseTensor implements Tensor {
    private final long[] shape;
    private final Column values;

    public DenseTensor(long[] shape, Column values) {
        this.shape = shape.clone();
        this.values = Objects.requireNonNull(values);
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        if (n != values.size()) {
            throw new IllegalArgumentException(
                    "shape "
                            + Arrays.toString(shape)
                            + " needs "
                            + n
                            + " values, have "
                            + values.size());
        }
    }

    @Override
    public DType dtype() {
        return values.dtype();
    }

    public long[] shape() {
        return shape.clone();
    }

    @Override
    public Column values() {
        return values;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DenseTensor
                && Arrays.equals(shape, ((DenseTensor) o).shape)
                && values.equals(((DenseTensor) o).values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(shape) * 31 + values.hashCode();
    }

    @Override
    public String toString() {
        return "Dense" + Arrays.toString(shape) + values;
    }
}
