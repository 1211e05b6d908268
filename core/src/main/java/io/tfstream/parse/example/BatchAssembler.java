package io.tfstream.parse.example;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.composite.RaggedPartitions;
import io.tfstream.parse.composite.SparseFeatureMerge;
import io.tfstream.parse.wire.KeyColumn;
import io.tfstream.parse.wire.RawKey;
import io.tfstream.spec.DType;
import io.tfstream.spec.DefaultValue;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.FixedLenSequenceFeature;
import io.tfstream.spec.KeyOrder;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.SparseFeature;
import io.tfstream.spec.VarLenFeature;
import io.tfstream.tensor.BytesBuffer;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.RaggedTensor;
import io.tfstream.tensor.SparseTensor;
import io.tfstream.tensor.Tensor;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Turns the raw per-key columns of a batch into the user's tensors: the kernel's outputs (dense,
 * VarLen sparse, ragged values + row splits) and the Python-side composites built from them
 * (SparseFeature, RaggedFeature partitions).
 */
final class BatchAssembler {
    private final ExampleParsePlan plan;
    private final ParseLimits limits;

    BatchAssembler(ExampleParsePlan plan, ParseLimits limits) {
        this.plan = plan;
        this.limits = limits;
    }

    ParsedBatch assemble(KeyColumn[] columns, int rows, int[] rowToRecord)
            throws ExampleParseException {
        Map<RawKey, KeyColumn> byKey = new HashMap<>();
        for (KeyColumn c : columns) {
            byKey.put(c.key, c);
        }
        Map<RawKey, Tensor> raw = new HashMap<>();
        for (KeyColumn c : columns) {
            raw.put(c.key, rawTensor(c, rows));
        }
        SortedMap<String, Tensor> out = new TreeMap<>(KeyOrder.CODE_POINT);
        for (Map.Entry<String, FeatureSpec> e : plan.specs.features().entrySet()) {
            String name = e.getKey();
            FeatureSpec spec = e.getValue();
            if (spec instanceof FixedLenFeature || spec instanceof FixedLenSequenceFeature) {
                out.put(name, raw.get(plan.dense(name)));
            } else if (spec instanceof VarLenFeature) {
                out.put(name, raw.get(plan.sparse(name)));
            } else if (spec instanceof RaggedFeature r) {
                RaggedTensor values = (RaggedTensor) raw.get(plan.ragged(r.valueKey()));
                out.put(
                        name,
                        RaggedPartitions.batched(
                                name,
                                r,
                                values,
                                k -> (RaggedTensor) raw.get(plan.ragged(k)),
                                limits));
            } else if (spec instanceof SparseFeature s) {
                out.put(
                        name,
                        SparseFeatureMerge.merge(
                                s, rows, k -> (SparseTensor) raw.get(plan.sparse(k))));
            }
        }
        return new ParsedBatch(rows, out, rowToRecord);
    }

    private static Tensor rawTensor(KeyColumn c, int rows) {
        RawKey key = c.key;
        switch (key.kind) {
            case DENSE_FIXED:
                return new DenseTensor(batchShape(rows, key.shape), c.finish());
            case DENSE_VARLEN:
                return varlenDense(c, rows);
            case SPARSE:
                return sparse(c, rows);
            default:
                long[] splits = new long[rows + 1];
                for (int r = 0; r <= rows; r++) {
                    splits[r] = c.ends[r];
                }
                Column values = c.finish();
                return RaggedTensor.ofOwned(
                        values, new long[] {values.size()}, List.of(splits), key.splitsDtype);
        }
    }

    private static long[] batchShape(int rows, List<Long> shape) {
        long[] s = new long[shape.size() + 1];
        s[0] = rows;
        for (int i = 0; i < shape.size(); i++) {
            s[i + 1] = shape.get(i);
        }
        return s;
    }

    private static SparseTensor sparse(KeyColumn c, int rows) {
        int n = c.ends[rows];
        long[] indices = new long[n * 2];
        int max = 0;
        int k = 0;
        for (int r = 0; r < rows; r++) {
            int from = c.ends[r];
            int to = c.ends[r + 1];
            max = Math.max(max, to - from);
            for (int j = 0; j < to - from; j++) {
                indices[k++] = r;
                indices[k++] = j;
            }
        }
        return new SparseTensor(indices, c.finish(), new long[] {rows, max});
    }

    /** FixedLenSequenceFeature in parse_example: {@code [B, T_max] + S} padded. */
    private static DenseTensor varlenDense(KeyColumn c, int rows) {
        RawKey key = c.key;
        int stride = key.stride;
        int maxCount = 0;
        for (int r = 0; r < rows; r++) {
            maxCount = Math.max(maxCount, c.ends[r + 1] - c.ends[r]);
        }
        int maxSteps = maxCount / stride;
        long[] shape = new long[key.shape.size() + 2];
        shape[0] = rows;
        shape[1] = maxSteps;
        for (int i = 0; i < key.shape.size(); i++) {
            shape[i + 2] = key.shape.get(i);
        }
        int perRow = maxSteps * stride;
        int total = Math.multiplyExact(rows, perRow);
        Column src = c.finish();
        DefaultValue pad = key.defaultValue;
        DType dtype = key.dtype;
        if (dtype == DType.INT64) {
            long[] v = new long[total];
            long p = pad.int64(0);
            for (int r = 0; r < rows; r++) {
                int from = c.ends[r];
                int n = c.ends[r + 1] - from;
                System.arraycopy(src.int64Array(), from, v, r * perRow, n);
                java.util.Arrays.fill(v, r * perRow + n, (r + 1) * perRow, p);
            }
            return new DenseTensor(shape, Column.ofInt64(v, total));
        } else if (dtype == DType.FLOAT32) {
            float[] v = new float[total];
            float p = pad.float32(0);
            for (int r = 0; r < rows; r++) {
                int from = c.ends[r];
                int n = c.ends[r + 1] - from;
                System.arraycopy(src.float32Array(), from, v, r * perRow, n);
                java.util.Arrays.fill(v, r * perRow + n, (r + 1) * perRow, p);
            }
            return new DenseTensor(shape, Column.ofFloat32(v, total));
        } else {
            BytesBuffer b = new BytesBuffer(total, 64);
            byte[] p = pad.bytesAt(0);
            for (int r = 0; r < rows; r++) {
                int from = c.ends[r];
                int n = c.ends[r + 1] - from;
                for (int i = 0; i < n; i++) {
                    b.add(src.bytesData(), src.bytesStart(from + i), src.bytesLength(from + i));
                }
                for (int i = n; i < perRow; i++) {
                    b.add(p, 0, p.length);
                }
            }
            return new DenseTensor(shape, Column.of(b));
        }
    }
}
