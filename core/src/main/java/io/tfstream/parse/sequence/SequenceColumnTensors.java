package io.tfstream.parse.sequence;

import io.tfstream.parse.sequence.SequenceParsePlan.Key;
import io.tfstream.tensor.BytesBuffer;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.RaggedTensor;
import io.tfstream.tensor.SparseTensor;
import io.tfstream.tensor.Tensor;
import java.util.List;

/**
 * The tensors of a batch decoded by {@link SequenceOnePass}, the same as {@link
 * SequenceContextAssembler} and {@link SequenceListAssembler} build for a batch (leading dimension
 * {@code B}): dense values as decoded (context) or padded to the longest list, sparse indices and
 * ragged splits from the per-record and per-step counts.
 */
final class SequenceColumnTensors {
    private SequenceColumnTensors() {}

    static Tensor context(SequenceColumn col, int b) {
        Key key = col.key;
        switch (key.kind) {
            case DENSE:
                {
                    long[] shape = new long[key.shape.length + 1];
                    shape[0] = b;
                    System.arraycopy(key.shape, 0, shape, 1, key.shape.length);
                    return new DenseTensor(shape, col.finish());
                }
            case SPARSE:
                {
                    int n = col.recordEnds[b];
                    long[] indices = new long[n * 2];
                    long maxCols = 0;
                    int at = 0;
                    for (int e = 0; e < b; e++) {
                        int count = col.recordEnds[e + 1] - col.recordEnds[e];
                        maxCols = Math.max(maxCols, count);
                        for (int i = 0; i < count; i++) {
                            indices[at++] = e;
                            indices[at++] = i;
                        }
                    }
                    return new SparseTensor(indices, col.finish(), new long[] {b, maxCols});
                }
            default:
                {
                    long[] splits = new long[b + 1];
                    for (int e = 1; e <= b; e++) {
                        splits[e] = col.recordEnds[e];
                    }
                    return RaggedTensor.ofOwned(
                            col.finish(), new long[] {splits[b]}, List.of(splits), key.splitsDtype);
                }
        }
    }

    /** A FixedLenSequenceFeature: values {@code [B, T_max] + shape} and lengths {@code [B]}. */
    static DenseTensor[] denseList(SequenceColumn col, int b) {
        Key key = col.key;
        int r = (int) key.elements;
        long[] lengths = new long[b];
        int maxSteps = 0;
        for (int e = 0; e < b; e++) {
            int steps = col.recordEnds[e + 1] - col.recordEnds[e];
            lengths[e] = steps;
            maxSteps = Math.max(maxSteps, steps);
        }
        int width = maxSteps * r;
        Column values;
        switch (key.dtype) {
            case INT64:
                {
                    long[] src = col.int64s.array();
                    long[] dst = new long[b * width];
                    for (int e = 0; e < b; e++) {
                        int from = col.recordEnds[e] * r;
                        System.arraycopy(src, from, dst, e * width, (int) lengths[e] * r);
                    }
                    values = Column.ofInt64(dst, dst.length);
                    break;
                }
            case FLOAT32:
                {
                    float[] src = col.floats.array();
                    float[] dst = new float[b * width];
                    for (int e = 0; e < b; e++) {
                        int from = col.recordEnds[e] * r;
                        System.arraycopy(src, from, dst, e * width, (int) lengths[e] * r);
                    }
                    values = Column.ofFloat32(dst, dst.length);
                    break;
                }
            default:
                {
                    BytesBuffer src = col.bytes;
                    BytesBuffer dst = new BytesBuffer(b * width, src.offsets()[src.size()]);
                    for (int e = 0; e < b; e++) {
                        int from = col.recordEnds[e] * r;
                        int to = from + (int) lengths[e] * r;
                        for (int i = from; i < to; i++) {
                            dst.add(src.data(), src.start(i), src.length(i));
                        }
                        for (int i = to - from; i < width; i++) {
                            dst.reserveBytes(0);
                        }
                    }
                    values = Column.of(dst);
                }
        }
        col.finish();
        long[] shape = new long[key.shape.length + 2];
        shape[0] = b;
        shape[1] = maxSteps;
        System.arraycopy(key.shape, 0, shape, 2, key.shape.length);
        return new DenseTensor[] {
            new DenseTensor(shape, values),
            new DenseTensor(new long[] {b}, Column.ofInt64(lengths, b))
        };
    }

    /** A VarLenFeature list: indices {@code [N, 3]} = (example, step, value). */
    static SparseTensor sparseList(SequenceColumn col, int b) {
        int n = col.stepEnds[col.steps];
        long[] indices = new long[n * 3];
        long maxRows = 0;
        long maxCols = 0;
        int at = 0;
        for (int e = 0; e < b; e++) {
            int first = col.recordEnds[e];
            int last = col.recordEnds[e + 1];
            maxRows = Math.max(maxRows, last - first);
            for (int s = first; s < last; s++) {
                int count = col.stepEnds[s + 1] - col.stepEnds[s];
                maxCols = Math.max(maxCols, count);
                for (int i = 0; i < count; i++) {
                    indices[at++] = e;
                    indices[at++] = s - first;
                    indices[at++] = i;
                }
            }
        }
        return new SparseTensor(indices, col.finish(), new long[] {b, maxRows, maxCols});
    }

    /** A RaggedFeature list: values with splits {@code [B, (T), (V)]}. */
    static RaggedTensor raggedList(SequenceColumn col, int b) {
        long[] outer = new long[b + 1];
        for (int e = 1; e <= b; e++) {
            outer[e] = col.recordEnds[e];
        }
        long[] inner = new long[col.steps + 1];
        for (int s = 1; s <= col.steps; s++) {
            inner[s] = col.stepEnds[s];
        }
        int n = col.stepEnds[col.steps];
        return RaggedTensor.ofOwned(
                col.finish(), new long[] {n}, List.of(outer, inner), col.key.splitsDtype);
    }
}
