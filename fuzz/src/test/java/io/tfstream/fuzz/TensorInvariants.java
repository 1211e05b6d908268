package io.tfstream.fuzz;

import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SparseFeature;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.RaggedTensor;
import io.tfstream.tensor.SparseTensor;
import io.tfstream.tensor.Tensor;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Structural checks every parsed tensor must pass, whatever the input bytes were. */
final class TensorInvariants {
    private TensorInvariants() {}

    /** Checks every tensor; {@code rows} is the leading dimension each must have, or -1. */
    static void checkAll(Map<String, ? extends Tensor> tensors, int rows) {
        checkAll(tensors, rows, Set.of());
    }

    /**
     * As {@link #checkAll(Map, int)}; the tensors named in {@code composites} come from a
     * SparseFeature or a RaggedFeature with partitions, which TensorFlow builds from the input's
     * values without validating them ({@code validate=False}): only their batch dimension is
     * checked.
     */
    static void checkAll(Map<String, ? extends Tensor> tensors, int rows, Set<String> composites) {
        for (Map.Entry<String, ? extends Tensor> e : tensors.entrySet()) {
            check(e.getKey(), e.getValue(), rows, composites.contains(e.getKey()));
        }
    }

    /** Names of the SparseFeatures and partitioned RaggedFeatures of {@code specs}. */
    static Set<String> composites(FeatureSpecs specs) {
        Set<String> names = new HashSet<>();
        for (Map.Entry<String, FeatureSpec> e : specs.features().entrySet()) {
            FeatureSpec f = e.getValue();
            if (f instanceof SparseFeature
                    || (f instanceof RaggedFeature r && !r.partitions().isEmpty())) {
                names.add(e.getKey());
            }
        }
        return names;
    }

    private static void check(String name, Tensor t, int rows, boolean batchIndexOnly) {
        if (t instanceof DenseTensor d) {
            long[] shape = d.shape();
            for (long dim : shape) {
                require(dim >= 0, name, "negative dimension in " + Arrays.toString(shape));
            }
            if (rows >= 0) {
                require(shape.length >= 1 && shape[0] == rows, name, "leading dim != " + rows);
            }
        } else if (t instanceof SparseTensor s) {
            checkSparse(name, s, rows, batchIndexOnly);
        } else if (t instanceof RaggedTensor r) {
            checkRagged(name, r, rows, batchIndexOnly);
        }
    }

    private static void checkSparse(String name, SparseTensor s, int rows, boolean batchIndexOnly) {
        long[] shape = s.denseShape();
        if (rows >= 0) {
            require(shape.length >= 1 && shape[0] == rows, name, "dense_shape[0] != " + rows);
        }
        for (int i = 0; i < s.numValues(); i++) {
            for (int d = 0; d < (batchIndexOnly ? 1 : shape.length); d++) {
                long ix = s.index(i, d);
                require(
                        ix >= 0 && ix < shape[d],
                        name,
                        "index " + ix + " outside dense_shape " + Arrays.toString(shape));
            }
        }
    }

    private static void checkRagged(String name, RaggedTensor r, int rows, boolean outerOnly) {
        List<long[]> levels = r.rowSplits();
        long[] valuesShape = r.valuesShape();
        require(valuesShape.length >= 1, name, "scalar values");
        if (rows >= 0) {
            require(
                    !levels.isEmpty() && levels.get(0).length == rows + 1,
                    name,
                    "outer row_splits length != " + (rows + 1));
        }
        if (outerOnly) {
            return;
        }
        for (int level = 0; level < levels.size(); level++) {
            long[] splits = levels.get(level);
            require(splits.length >= 1 && splits[0] == 0, name, "row_splits must start at 0");
            for (int i = 1; i < splits.length; i++) {
                require(splits[i] >= splits[i - 1], name, "row_splits decrease at " + i);
                if (r.rowSplitsDtype() == RowSplitsDType.INT32) {
                    require(splits[i] <= Integer.MAX_VALUE, name, "int32 row_splits overflow");
                }
            }
            long inner =
                    level + 1 < levels.size() ? levels.get(level + 1).length - 1 : valuesShape[0];
            require(
                    splits[splits.length - 1] == inner,
                    name,
                    "row_splits end " + splits[splits.length - 1] + " != inner size " + inner);
        }
    }

    private static void require(boolean ok, String name, String what) {
        if (!ok) {
            throw new AssertionError("tensor '" + name + "': " + what);
        }
    }
}
