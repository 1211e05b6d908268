package io.tfstream.tensor;

import io.tfstream.spec.DType;
import io.tfstream.spec.RowSplitsDType;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A RaggedTensor as nested row splits over flat values. {@code rowSplits} lists every ragged level,
 * outermost (the batch) first; {@code valuesShape} is the shape of the flat values ({@code [n]}, or
 * {@code [n, k, ...]} when trailing uniform partitions reshape them). A parsed RaggedFeature
 * without partitions has one level, the {@code ragged_row_splits} output of TensorFlow's {@code
 * ParseExampleV2} ({@code [B + 1]}, starting at 0), over its {@code ragged_values}; splits are held
 * as longs whatever {@link #rowSplitsDtype()} says.
 */
@PublicEvolving
public final class RaggedTensor implements Tensor {
    private final Column values;
    private final long[] valuesShape;
    private final List<long[]> rowSplits;
    private final RowSplitsDType rowSplitsDtype;

    public RaggedTensor(
            Column values, long[] valuesShape, List<long[]> rowSplits, RowSplitsDType dtype) {
        this(values, valuesShape.clone(), copies(rowSplits), dtype);
    }

    /** Takes the arrays as they are. */
    private RaggedTensor(
            Column values, long[] valuesShape, long[][] rowSplits, RowSplitsDType dtype) {
        this.values = Objects.requireNonNull(values);
        this.valuesShape = valuesShape;
        this.rowSplits = List.of(rowSplits);
        this.rowSplitsDtype = Objects.requireNonNull(dtype);
        long n = 1;
        for (long d : valuesShape) {
            n *= d;
        }
        if (n != values.size()) {
            throw new IllegalArgumentException(
                    "values_shape "
                            + Arrays.toString(valuesShape)
                            + " needs "
                            + n
                            + " values, have "
                            + values.size());
        }
    }

    /**
     * As the constructor, but taking {@code valuesShape} and the splits as they are: the caller
     * hands the arrays over and never writes them again (a parser's output, spared the copies).
     */
    public static RaggedTensor ofOwned(
            Column values, long[] valuesShape, List<long[]> rowSplits, RowSplitsDType dtype) {
        return new RaggedTensor(values, valuesShape, rowSplits.toArray(new long[0][]), dtype);
    }

    private static long[][] copies(List<long[]> rowSplits) {
        long[][] copy = new long[rowSplits.size()][];
        for (int i = 0; i < copy.length; i++) {
            copy[i] = rowSplits.get(i).clone();
        }
        return copy;
    }

    @Override
    public DType dtype() {
        return values.dtype();
    }

    @Override
    public Column values() {
        return values;
    }

    public long[] valuesShape() {
        return valuesShape.clone();
    }

    /** Row splits of every ragged level, outermost first; read only. */
    public List<long[]> rowSplits() {
        return rowSplits;
    }

    public RowSplitsDType rowSplitsDtype() {
        return rowSplitsDtype;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof RaggedTensor)) {
            return false;
        }
        RaggedTensor r = (RaggedTensor) o;
        if (rowSplits.size() != r.rowSplits.size() || rowSplitsDtype != r.rowSplitsDtype) {
            return false;
        }
        for (int i = 0; i < rowSplits.size(); i++) {
            if (!Arrays.equals(rowSplits.get(i), r.rowSplits.get(i))) {
                return false;
            }
        }
        return Arrays.equals(valuesShape, r.valuesShape) && values.equals(r.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode() * 31 + rowSplits.size();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Ragged{values=").append(values);
        sb.append(", values_shape=").append(Arrays.toString(valuesShape)).append(", row_splits=");
        for (long[] s : rowSplits) {
            sb.append(Arrays.toString(s));
        }
        return sb.append(' ').append(rowSplitsDtype.jsonName()).append('}').toString();
    }
}
