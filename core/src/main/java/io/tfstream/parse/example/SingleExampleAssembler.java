package io.tfstream.parse.example;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.composite.RaggedPartitions;
import io.tfstream.parse.composite.SparseFeatureMerge;
import io.tfstream.parse.wire.KeyColumn;
import io.tfstream.parse.wire.RawKey;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.FixedLenSequenceFeature;
import io.tfstream.spec.KeyOrder;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.SparseFeature;
import io.tfstream.spec.VarLenFeature;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.SparseTensor;
import io.tfstream.tensor.Tensor;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Turns the raw columns of one {@code parse_single_example} record into the user's tensors: the
 * kernel's scalar-input outputs (fixed dense {@code S}, FixedLenSequence {@code [T] + S}, VarLen
 * indices {@code [N, 1]} with dense_shape {@code [N]}, ragged values {@code [N]}) and then
 * SparseFeature merges and RaggedFeature partitions as Python's single-example path builds them.
 */
final class SingleExampleAssembler {
    private SingleExampleAssembler() {}

    static ParsedExample assemble(ExampleParsePlan plan, KeyColumn[] columns, ParseLimits limits)
            throws ExampleParseException {
        Map<RawKey, Column> values = new HashMap<>();
        for (KeyColumn c : columns) {
            values.put(c.key, c.finish());
        }
        Map<String, SparseTensor> sparse = new HashMap<>();
        for (RawKey k : plan.sparse) {
            sparse.put(k.name, varLen(values.get(k)));
        }
        SortedMap<String, Tensor> out = new TreeMap<>(KeyOrder.CODE_POINT);
        for (Map.Entry<String, FeatureSpec> e : plan.specs.features().entrySet()) {
            String name = e.getKey();
            FeatureSpec spec = e.getValue();
            if (spec instanceof FixedLenFeature f) {
                out.put(name, new DenseTensor(dims(-1, f.shape()), values.get(plan.dense(name))));
            } else if (spec instanceof FixedLenSequenceFeature f) {
                RawKey key = plan.dense(name);
                Column v = values.get(key);
                out.put(name, new DenseTensor(dims(v.size() / key.stride, f.shape()), v));
            } else if (spec instanceof VarLenFeature) {
                out.put(name, sparse.get(name));
            } else if (spec instanceof SparseFeature s) {
                out.put(name, SparseFeatureMerge.merge(s, 0, sparse::get, true));
            } else if (spec instanceof RaggedFeature r) {
                out.put(
                        name,
                        RaggedPartitions.single(
                                name,
                                r,
                                values.get(plan.ragged(r.valueKey())),
                                k -> values.get(plan.ragged(k)),
                                limits));
            }
        }
        return new ParsedExample(out);
    }

    private static SparseTensor varLen(Column v) {
        int n = v.size();
        long[] indices = new long[n];
        for (int i = 0; i < n; i++) {
            indices[i] = i;
        }
        return new SparseTensor(indices, v, new long[] {n});
    }

    /** {@code shape}, or {@code [steps] + shape} when {@code steps >= 0}. */
    private static long[] dims(long steps, List<Long> shape) {
        boolean withSteps = steps >= 0;
        int lead = withSteps ? 1 : 0;
        long[] d = new long[shape.size() + lead];
        if (withSteps) {
            d[0] = steps;
        }
        for (int i = 0; i < shape.size(); i++) {
            d[i + lead] = shape.get(i);
        }
        return d;
    }
}
