package io.tfstream.tensor;

import io.tfstream.spec.DType;
import java.util.Arrays;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A SparseTensor: {@code indices} is an {@code [N, rank]} int64 matrix stored row-major, {@code
 * values} has N entries and {@code denseShape} has {@code rank} entries. A parsed VarLenFeature is
 * {@code indices [N, 2]} rows {@code [example, position]}, {@code dense_shape [B, max_len]}, as the
 * {@code sparse_indices / sparse_values / sparse_shapes} outputs of TensorFlow's {@code
 * ParseExampleV2}.
 */
@PublicEvolving
public final class SparseTensor implements Tensor {
    private final long[] indices;
    private final Column values;
    private final long[] denseShape;

    /** Takes over {@code indices} (at least {@code values.size() * denseShape.length} long). */
    public SparseTensor(long[] indices, Column values, long[] denseShape) {
        this.indices = Objects.requireNonNull(indices);
        this.values = Objects.requireNonNull(values);
        this.denseShape = denseShape.clone();
        if ((long) values.size() * denseShape.length > indices.length) {
            throw new IllegalArgumentException(
                    "indices hold "
                            + indices.length
                            + " entries, need "
                            + values.size() * denseShape.length);
        }
    }

    @Override
    public DType dtype() {
        return values.dtype();
    }

    public int rank() {
        return denseShape.length;
    }

    public int numValues() {
        return values.size();
    }

    /** Coordinate {@code dim} of value {@code i}. */
    public long index(int i, int dim) {
        return indices[i * denseShape.length + dim];
    }

    /** The row-major {@code [N, rank]} index matrix (valid to {@code N * rank}); read only. */
    public long[] indicesArray() {
        return indices;
    }

    public long[] denseShape() {
        return denseShape.clone();
    }

    @Override
    public Column values() {
        return values;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SparseTensor)) {
            return false;
        }
        SparseTensor s = (SparseTensor) o;
        int n = values.size() * denseShape.length;
        return Arrays.equals(denseShape, s.denseShape)
                && values.equals(s.values)
                && Arrays.equals(indices, 0, n, s.indices, 0, n);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(denseShape) * 31 + values.hashCode();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Sparse{indices=[");
        for (int i = 0; i < values.size(); i++) {
            sb.append(i == 0 ? "[" : ", [");
            for (int d = 0; d < denseShape.length; d++) {
                sb.append(d == 0 ? "" : ",").append(index(i, d));
            }
            sb.append(']');
        }
        return sb.append("], values=")
                .append(values)
                .append(", dense_shape=")
                .append(Arrays.toString(denseShape))
                .append('}')
                .toString();
    }
}
