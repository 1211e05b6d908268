package io.tfstream.parse.composite;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseErrorKind;
import io.tfstream.parse.ParseLimits;
import io.tfstream.spec.Partition;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.RaggedTensor;
import io.tfstream.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Applies a {@link RaggedFeature}'s partitions, innermost first, as Python's {@code
 * _construct_tensors_for_composite_features} does in {@code parsing_config.py} with {@code
 * validate=False}: {@link #batched} follows {@code _add_batched_ragged_partition} (per-example
 * partition values are relative to the example's own values, the first element of every example's
 * row splits is dropped, ValueRowIds count {@code max(id) + 1} rows per example, a SequenceExample
 * batch collapses its two batch levels first), {@link #single} follows {@code
 * _add_ragged_partition} (partition tensors used verbatim, only uniform partitions give a dense
 * tensor). The flat values are never moved; only row splits and the values' shape change. Partition
 * values are cast to the row-splits dtype as TensorFlow's {@code Cast} does (int32 truncates).
 */
public final class RaggedPartitions {
    private RaggedPartitions() {}

    /**
     * {@code values} is the parsed value key, {@code [B, (V)]} for Examples or {@code [B, (T),
     * (V)]} for SequenceExample feature lists; {@code partitionOf} gives the parsed partition keys
     * in the same layout.
     */
    public static RaggedTensor batched(
            String feature,
            RaggedFeature spec,
            RaggedTensor values,
            Function<String, RaggedTensor> partitionOf,
            ParseLimits limits)
            throws ExampleParseException {
        List<Partition> parts = spec.partitions();
        if (parts.isEmpty()) {
            return values;
        }
        List<long[]> splits = new ArrayList<>(values.rowSplits());
        long[] outer = splits.size() > 1 ? splits.remove(0) : null;
        long[] shape = values.valuesShape();
        for (int p = parts.size() - 1; p >= 0; p--) {
            Partition part = parts.get(p);
            if (part instanceof Partition.UniformRowLength u) {
                long len = checkUniform(feature, u);
                if (splits.size() > 1) {
                    long nvals = splits.get(1).length - 1;
                    splits.add(1, RowPartitionMath.uniformSplits(nvals / len, len));
                } else {
                    shape = RowPartitionMath.reshapeRows(shape, len);
                }
                splits.set(0, RowPartitionMath.floorDiv(splits.get(0), len));
                continue;
            }
            RaggedTensor raw = partitionOf.apply(part.key());
            long[] ptSplits = raw.rowSplits().get(outer == null ? 0 : 1);
            long[] pt = cast(raw.values(), spec.rowSplitsDtype());
            long[] rt = splits.get(0);
            long innerRows = splits.size() > 1 ? splits.get(1).length - 1 : shape[0];
            long[][] composed;
            if (part instanceof Partition.RowSplits || part instanceof Partition.RowLimits) {
                checkAligned(feature, part, rt, ptSplits);
                composed =
                        RowPartitionMath.batchedLimits(
                                rt, ptSplits, pt, part instanceof Partition.RowSplits);
            } else if (part instanceof Partition.RowStarts) {
                checkAligned(feature, part, rt, ptSplits);
                composed = RowPartitionMath.batchedStarts(rt, ptSplits, pt, innerRows);
            } else if (part instanceof Partition.RowLengths) {
                composed = new long[][] {ptSplits.clone(), RowPartitionMath.lengthsToSplits(pt)};
            } else {
                composed =
                        RowPartitionMath.batchedRowIds(
                                ptSplits, pt, feature, limits.maxRaggedRows());
            }
            splits.set(0, composed[1]);
            splits.add(0, composed[0]);
        }
        if (outer != null) {
            splits.add(0, outer);
        }
        return RaggedTensor.ofOwned(values.values(), shape, splits, spec.rowSplitsDtype());
    }

    /**
     * {@code parse_single_example}: {@code values} is the 1-D value key, {@code partitionOf} the
     * 1-D int64 partition keys. No partitions or only uniform ones give a {@link DenseTensor}.
     */
    public static Tensor single(
            String feature,
            RaggedFeature spec,
            Column values,
            Function<String, Column> partitionOf,
            ParseLimits limits)
            throws ExampleParseException {
        List<long[]> splits = new ArrayList<>();
        long[] shape = {values.size()};
        List<Partition> parts = spec.partitions();
        for (int p = parts.size() - 1; p >= 0; p--) {
            Partition part = parts.get(p);
            long rows = splits.isEmpty() ? shape[0] : splits.get(0).length - 1;
            if (part instanceof Partition.UniformRowLength u) {
                long len = checkUniform(feature, u);
                if (splits.isEmpty()) {
                    shape = RowPartitionMath.reshapeRows(shape, len);
                } else {
                    splits.add(0, RowPartitionMath.uniformSplits(rows / len, len));
                }
                continue;
            }
            long[] pt = cast(partitionOf.apply(part.key()), spec.rowSplitsDtype());
            long[] s;
            if (part instanceof Partition.RowSplits) {
                s = pt;
            } else if (part instanceof Partition.RowLengths) {
                s = RowPartitionMath.lengthsToSplits(pt);
            } else if (part instanceof Partition.RowStarts) {
                s = new long[pt.length + 1];
                System.arraycopy(pt, 0, s, 0, pt.length);
                s[pt.length] = rows;
            } else if (part instanceof Partition.RowLimits) {
                s = new long[pt.length + 1];
                System.arraycopy(pt, 0, s, 1, pt.length);
            } else {
                s =
                        RowPartitionMath.rowIdsToSplits(
                                pt, pt.length, feature, 0, limits.maxRaggedRows());
            }
            splits.add(0, s);
        }
        if (splits.isEmpty()) {
            return new DenseTensor(shape, values);
        }
        return RaggedTensor.ofOwned(values, shape, splits, spec.rowSplitsDtype());
    }

    private static long checkUniform(String feature, Partition.UniformRowLength u)
            throws ExampleParseException {
        if (u.length() == 0) {
            throw new ExampleParseException(
                    ParseErrorKind.INCONSISTENT_BATCH,
                    -1,
                    feature,
                    "Feature "
                            + feature
                            + ": UniformRowLength(0) cannot partition values (TensorFlow divides"
                            + " the row splits by the row length)");
        }
        return u.length();
    }

    /**
     * TensorFlow's {@code repeat(rt.row_starts(), pt.row_lengths())} needs one partition row per
     * value row; a SequenceExample whose partition list has another number of steps fails there.
     */
    private static void checkAligned(String feature, Partition part, long[] rt, long[] pt)
            throws ExampleParseException {
        if (rt.length != pt.length) {
            throw new ExampleParseException(
                    ParseErrorKind.INCONSISTENT_BATCH,
                    -1,
                    feature,
                    "Feature "
                            + feature
                            + ": values and partitions are not aligned (partition '"
                            + part.key()
                            + "' has "
                            + (pt.length - 1)
                            + " rows, the values "
                            + (rt.length - 1)
                            + ")");
        }
    }

    private static long[] cast(Column c, RowSplitsDType dtype) {
        long[] v = new long[c.size()];
        for (int i = 0; i < v.length; i++) {
            long x = c.int64(i);
            v[i] = dtype == RowSplitsDType.INT32 ? (int) x : x;
        }
        return v;
    }
}
