package io.tfstream.sql;

import io.tfstream.tensor.Column;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.RaggedTensor;
import io.tfstream.tensor.SparseTensor;
import io.tfstream.tensor.Tensor;
import java.util.List;
import org.apache.flink.table.data.GenericArrayData;

/**
 * Reads one column's values row by row out of the tensor the parser built for its feature: a dense
 * tensor ({@code FixedLenFeature}), the sparse tensor of a {@code VarLenFeature} (one row per
 * example, values in order) or a ragged tensor (row splits per level, then uniform dimensions).
 * Arrays nest as the tensor does; scalars are the one value of their row.
 */
final class TensorColumnReader {
    private final ExampleColumn column;
    private final LeafValues leaves;
    private Tensor tensor;
    private Column values;
    private int[] rowStarts = new int[1];
    private long[] dims;

    TensorColumnReader(ExampleColumn column, LeafValues leaves) {
        this.column = column;
        this.leaves = leaves;
    }

    ExampleColumn column() {
        return column;
    }

    /** Points the reader at a new batch's tensor with {@code rows} rows. */
    void reset(Tensor t, int rows) {
        this.tensor = t;
        if (t instanceof SparseTensor s) {
            values = s.values();
            if (rowStarts.length < rows + 1) {
                rowStarts = new int[rows + 1];
            }
            // Values are ordered by row: count each row's, then make the counts cumulative.
            java.util.Arrays.fill(rowStarts, 0, rows + 1, 0);
            for (int i = 0; i < s.numValues(); i++) {
                rowStarts[(int) s.index(i, 0) + 1]++;
            }
            for (int r = 0; r < rows; r++) {
                rowStarts[r + 1] += rowStarts[r];
            }
        } else if (t instanceof DenseTensor d) {
            values = d.values();
            long[] shape = d.shape();
            dims = java.util.Arrays.copyOfRange(shape, 1, shape.length);
        } else {
            RaggedTensor r = (RaggedTensor) t;
            values = r.values();
            long[] shape = r.valuesShape();
            dims = java.util.Arrays.copyOfRange(shape, 1, shape.length);
        }
    }

    /** The number of top-level values of {@code row} in a VarLenFeature's sparse tensor. */
    int sparseCount(int row) {
        return rowStarts[row + 1] - rowStarts[row];
    }

    /**
     * The column's value for {@code row}: a scalar, or nested {@link GenericArrayData}.
     *
     * @throws RowDecodeException when a scalar column's row does not hold exactly one value or a
     *     value does not fit the column's type
     */
    Object value(int row) throws RowDecodeException {
        if (tensor instanceof SparseTensor) {
            int from = rowStarts[row];
            int to = rowStarts[row + 1];
            if (column.depth() == 0) {
                if (to - from != 1) {
                    throw new RowDecodeException(
                            "Column '"
                                    + column.name()
                                    + "' is a scalar "
                                    + column.leafName()
                                    + " but its feature has "
                                    + (to - from)
                                    + " values (declare it as ARRAY to read lists)");
                }
                return leaves.get(column, values, from);
            }
            Object[] out = new Object[to - from];
            for (int i = from; i < to; i++) {
                out[i - from] = leaves.get(column, values, i);
            }
            return new GenericArrayData(out);
        }
        if (tensor instanceof DenseTensor) {
            long per = product(dims, 0);
            return dense(row * per, 0);
        }
        List<long[]> splits = ((RaggedTensor) tensor).rowSplits();
        long[] top = splits.get(0);
        return ragged(splits, 1, top[row], top[row + 1]);
    }

    private Object dense(long base, int level) throws RowDecodeException {
        if (level == dims.length) {
            return leaves.get(column, values, (int) base);
        }
        long stride = product(dims, level + 1);
        Object[] out = new Object[(int) dims[level]];
        for (int i = 0; i < out.length; i++) {
            out[i] = dense(base + i * stride, level + 1);
        }
        return new GenericArrayData(out);
    }

    private Object ragged(List<long[]> splits, int level, long from, long to)
            throws RowDecodeException {
        Object[] out = new Object[(int) (to - from)];
        if (level == splits.size()) {
            long stride = product(dims, 0);
            for (int i = 0; i < out.length; i++) {
                out[i] = dense((from + i) * stride, 0);
            }
        } else {
            long[] s = splits.get(level);
            for (int i = 0; i < out.length; i++) {
                int item = (int) (from + i);
                out[i] = ragged(splits, level + 1, s[item], s[item + 1]);
            }
        }
        return new GenericArrayData(out);
    }

    private static long product(long[] dims, int from) {
        long n = 1;
        for (int i = from; i < dims.length; i++) {
            n *= dims[i];
        }
        return n;
    }
}
