package io.tfstream.e2e.parse;

import io.tfstream.spec.DType;
import io.tfstream.spec.SparseFeature;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.SparseTensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.tensorflow.EagerSession;
import org.tensorflow.Operand;
import org.tensorflow.exceptions.TensorFlowException;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.buffer.DataBuffers;
import org.tensorflow.op.Ops;
import org.tensorflow.op.sparse.SparseReorder;
import org.tensorflow.types.TFloat32;
import org.tensorflow.types.TInt64;
import org.tensorflow.types.TString;
import org.tensorflow.types.family.TType;

/**
 * Python's {@code sparse_merge_impl} run as TensorFlow ops (TensorFlow Java, eager) over raw VarLen
 * kernel outputs: {@code ConcatV2} of the first index key's leading index columns and every index
 * key's values as a column, {@code dense_shape[:-1] + size}, then {@code SparseReorder}. Errors
 * come back as the kernels' status messages.
 */
final class TfSparseMerge {
    private TfSparseMerge() {}

    /** The merged tensor before and after SparseReorder, or the first kernel error. */
    record Merged(SparseTensor unsorted, SparseTensor sorted, String error) {}

    static Merged merge(SparseFeature spec, Map<String, io.tfstream.tensor.Tensor> raw) {
        try (EagerSession session = EagerSession.create()) {
            Ops tf = Ops.create(session);
            SparseTensor first = (SparseTensor) raw.get(spec.indexKeys().get(0));
            int rawRank = first.rank();
            List<Operand<TInt64>> columns = new ArrayList<>();
            Operand<TInt64> firstIndices =
                    int64(tf, first.indicesArray(), first.numValues(), rawRank);
            columns.add(
                    tf.slice(
                            firstIndices,
                            tf.constant(new long[] {0, 0}),
                            tf.constant(new long[] {-1, rawRank - 1})));
            for (String k : spec.indexKeys()) {
                SparseTensor ids = (SparseTensor) raw.get(k);
                long[] v = new long[ids.numValues()];
                for (int i = 0; i < v.length; i++) {
                    v[i] = ids.values().int64(i);
                }
                columns.add(tf.expandDims(int64(tf, v, v.length), tf.constant(1)));
            }
            Operand<TInt64> indices = tf.concat(columns, tf.constant(1));
            long[] size = new long[spec.size().size()];
            for (int i = 0; i < size.length; i++) {
                size[i] = spec.size().get(i);
            }
            long[] lead = new long[rawRank - 1];
            System.arraycopy(first.denseShape(), 0, lead, 0, lead.length);
            long[] shape = new long[lead.length + size.length];
            System.arraycopy(lead, 0, shape, 0, lead.length);
            System.arraycopy(size, 0, shape, lead.length, size.length);
            Column values = raw.get(spec.valueKey()).values();
            SparseReorder<? extends TType> sorted =
                    tf.sparse.sparseReorder(indices, constant(tf, values), tf.constant(shape));
            SparseTensor unsorted = new SparseTensor(read(indices.asTensor()), values, shape);
            SparseTensor s =
                    new SparseTensor(
                            read(sorted.outputIndices().asTensor()),
                            column(sorted.outputValues().asTensor(), spec.dtype()),
                            shape);
            return new Merged(unsorted, s, null);
        } catch (TensorFlowException | IllegalArgumentException e) {
            return new Merged(null, null, TfParseOracle.statusMessage(e.getMessage()));
        }
    }

    private static Operand<TInt64> int64(Ops tf, long[] v, long... dims) {
        try (TInt64 t = TInt64.tensorOf(Shape.of(dims), DataBuffers.of(v, true, false))) {
            return tf.constantOf(t);
        }
    }

    private static Operand<? extends TType> constant(Ops tf, Column c) {
        int n = c.size();
        switch (c.dtype()) {
            case INT64:
                long[] l = new long[n];
                for (int i = 0; i < n; i++) {
                    l[i] = c.int64(i);
                }
                return int64(tf, l, n);
            case FLOAT32:
                float[] f = new float[n];
                for (int i = 0; i < n; i++) {
                    f[i] = c.float32(i);
                }
                try (TFloat32 t = TFloat32.tensorOf(Shape.of(n), DataBuffers.of(f, true, false))) {
                    return tf.constantOf(t);
                }
            default:
                byte[][] b = new byte[n][];
                for (int i = 0; i < n; i++) {
                    b[i] = c.bytes(i);
                }
                try (TString t =
                        TString.tensorOfBytes(Shape.of(n), DataBuffers.of(b, true, false))) {
                    return tf.constantOf(t);
                }
        }
    }

    private static long[] read(org.tensorflow.Tensor t) {
        long[] a = new long[(int) t.shape().size()];
        ((TInt64) t).copyTo(DataBuffers.of(a, false, false));
        return a;
    }

    private static Column column(org.tensorflow.Tensor t, DType dtype) {
        int n = (int) t.shape().size();
        switch (dtype) {
            case INT64:
                return Column.ofInt64(read(t), n);
            case FLOAT32:
                float[] f = new float[n];
                ((TFloat32) t).copyTo(DataBuffers.of(f, false, false));
                return Column.ofFloat32(f, n);
            default:
                byte[][] b = new byte[n][];
                ((TString) t).asBytes().copyTo(DataBuffers.of(b, false, false));
                return Column.strings(b);
        }
    }
}
