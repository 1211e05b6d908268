package io.tfstream.parse.composite;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseErrorKind;
import io.tfstream.spec.SparseFeature;
import io.tfstream.tensor.BytesBuffer;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.SparseTensor;
import java.util.Arrays;
import java.util.function.Function;

/**
 * Builds a {@link SparseFeature}'s SparseTensor from its parsed index and value features as
 * Python's {@code sparse_merge_impl} ({@code sparse_ops.py}) does: the batch id from the first
 * index key (no batch column for {@code parse_single_example}), one coordinate column per index key
 * in the spec's order, {@code dense_shape = [B] + size} verbatim, sorted row-major as {@code
 * SparseReorder} unless {@code already_sorted}. Index ranges are not checked; only the totals must
 * agree, with the texts of TensorFlow's {@code ConcatV2} (index keys) and {@code SparseReorder}
 * (values) kernels. Values sharing one coordinate keep their input order (TensorFlow leaves that
 * order unspecified).
 */
public final class SparseFeatureMerge {
    private SparseFeatureMerge() {}

    /** Batch: {@code rawOf} gives the VarLen tensors {@code [B, max_len]} of the raw keys. */
    public static SparseTensor merge(
            SparseFeature spec, int rows, Function<String, SparseTensor> rawOf)
            throws ExampleParseException {
        return merge(spec, rows, rawOf, false);
    }

    /**
     * {@code single}: the raw keys are {@code parse_single_example}'s 1-D VarLen tensors and the
     * result has no batch dimension ({@code rows} is then ignored).
     */
    public static SparseTensor merge(
            SparseFeature spec, int rows, Function<String, SparseTensor> rawOf, boolean single)
            throws ExampleParseException {
        int k = spec.indexKeys().size();
        SparseTensor first = rawOf.apply(spec.indexKeys().get(0));
        int n = first.numValues();
        for (int j = 1; j < k; j++) {
            SparseTensor ij = rawOf.apply(spec.indexKeys().get(j));
            if (ij.numValues() != n) {
                throw new ExampleParseException(
                        ParseErrorKind.INCONSISTENT_BATCH,
                        -1,
                        spec.indexKeys().get(j),
                        "ConcatOp : Dimension 0 in both shapes must be equal: shape[0] = ["
                                + n
                                + (single ? ",0" : ",1")
                                + "] vs. shape["
                                + (j + 1)
                                + "] = ["
                                + ij.numValues()
                                + ",1]");
            }
        }
        SparseTensor values = rawOf.apply(spec.valueKey());
        if (values.numValues() != n) {
            throw new ExampleParseException(
                    ParseErrorKind.INCONSISTENT_BATCH,
                    -1,
                    spec.valueKey(),
                    "Number of elements in indices ("
                            + n
                            + ") and values ("
                            + values.numValues()
                            + ") do not match");
        }
        int lead = single ? 0 : 1;
        int rank = k + lead;
        long[] indices = new long[Math.multiplyExact(n, rank)];
        if (!single) {
            for (int i = 0; i < n; i++) {
                indices[i * rank] = first.index(i, 0);
            }
        }
        for (int j = 0; j < k; j++) {
            Column ids = rawOf.apply(spec.indexKeys().get(j)).values();
            for (int i = 0; i < n; i++) {
                indices[i * rank + lead + j] = ids.int64(i);
            }
        }
        long[] shape = new long[rank];
        if (!single) {
            shape[0] = rows;
        }
        for (int j = 0; j < k; j++) {
            shape[j + lead] = spec.size().get(j);
        }
        Column vals = values.values();
        if (spec.alreadySorted() || isSorted(indices, n, rank)) {
            return new SparseTensor(indices, vals, shape);
        }
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(
                order,
                (a, b) -> {
                    for (int d = 0; d < rank; d++) {
                        int c = Long.compare(indices[a * rank + d], indices[b * rank + d]);
                        if (c != 0) {
                            return c;
                        }
                    }
                    return 0;
                });
        long[] sortedIdx = new long[n * rank];
        for (int i = 0; i < n; i++) {
            System.arraycopy(indices, order[i] * rank, sortedIdx, i * rank, rank);
        }
        return new SparseTensor(sortedIdx, permute(vals, order), shape);
    }

    private static boolean isSorted(long[] indices, int n, int rank) {
        for (int i = 1; i < n; i++) {
            for (int d = 0; d < rank; d++) {
                int c = Long.compare(indices[(i - 1) * rank + d], indices[i * rank + d]);
                if (c < 0) {
                    break;
                }
                if (c > 0) {
                    return false;
                }
            }
        }
        return true;
    }

    private static Column permute(Column v, Integer[] order) {
        int n = order.length;
        switch (v.dtype()) {
            case INT64:
                long[] l = new long[n];
                for (int i = 0; i < n; i++) {
                    l[i] = v.int64(order[i]);
                }
                return Column.ofInt64(l, n);
            case FLOAT32:
                float[] f = new float[n];
                for (int i = 0; i < n; i++) {
                    f[i] = v.float32(order[i]);
                }
                return Column.ofFloat32(f, n);
            default:
                BytesBuffer b = new BytesBuffer(n, 64);
                for (int i = 0; i < n; i++) {
                    b.add(v.bytesData(), v.bytesStart(order[i]), v.bytesLength(order[i]));
                }
                return Column.of(b);
        }
    }
}
