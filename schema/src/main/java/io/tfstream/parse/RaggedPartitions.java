package io.tfstream.parse;

import io.tfstream.spec.Partition;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.tensor.RaggedTensor;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Applies a {@link RaggedFeature}'s partitions to the batched raw values, innermost first, as
 * Python's {@code _add_batched_ragged_partition} does (with {@code validate=False}): per-example
 * partition values are relative to the example's own values, the first element of every row split
 * is dropped, and nothing checks that a partition agrees with its values.
 */
final class RaggedPartitions {
    /** Largest row count the row splits array of a whole batch can hold. */
    private static final long MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 9;

    private RaggedPartitions() {}

    /**
     * @throws ParseLimitException when value_rowids would make one example hold more rows than
     *     {@code maxValuesPerFeature}: the rows are counted from an id's value, not from bytes
     */
    static RaggedTensor apply(
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
        long[] valuesShape = values.valuesShape();
        for (int p = parts.size() - 1; p >= 0; p--) {
            Partition part = parts.get(p);
            long[] outer = splits.get(0);
            long innerRows = splits.size() > 1 ? splits.get(1).length - 1 : valuesShape[0];
            if (part instanceof Partition.UniformRowLength u) {
                long len = u.length();
                if (splits.size() > 1) {
                    long nrows = len == 0 ? 0 : innerRows / len;
                    long[] mid = new long[(int) nrows + 1];
                    for (int i = 0; i <= nrows; i++) {
                        mid[i] = i * len;
                    }
                    splits.set(0, floorDiv(outer, len));
                    splits.add(1, mid);
                } else {
                    long elems = 1;
                    for (int i = 1; i < valuesShape.length; i++) {
                        elems *= valuesShape[i];
                    }
                    if (len == 0 || valuesShape[0] % len != 0) {
                        throw new ExampleParseException(
                                ParseErrorKind.INCONSISTENT_BATCH,
                                -1,
                                spec.valueKey(),
                                "Input to reshape is a tensor with "
                                        + valuesShape[0] * elems
                                        + " values, but the requested shape requires a multiple of "
                                        + len * elems);
                    }
                    long[] s = new long[valuesShape.length + 1];
                    s[0] = valuesShape[0] / len;
                    s[1] = len;
                    System.arraycopy(valuesShape, 1, s, 2, valuesShape.length - 1);
                    valuesShape = s;
                    splits.set(0, floorDiv(outer, len));
                }
                continue;
            }
            RaggedTensor pt = partitionOf.apply(part.key());
            long[] ptSplits = pt.rowSplits().get(0);
            long[] ptValues = pt.values().int64Array();
            int batch = outer.length - 1;
            long[] newOuter;
            long[] inner;
            if (part instanceof Partition.RowSplits || part instanceof Partition.RowLimits) {
                boolean dropFirst = part instanceof Partition.RowSplits;
                newOuter = new long[batch + 1];
                List<Long> lim = new ArrayList<>();
                for (int b = 0; b < batch; b++) {
                    int from = (int) ptSplits[b];
                    int to = (int) ptSplits[b + 1];
                    if (dropFirst && to > from) {
                        from++;
                    }
                    for (int i = from; i < to; i++) {
                        lim.add(ptValues[i] + outer[b]);
                    }
                    newOuter[b + 1] = lim.size();
                }
                inner = new long[lim.size() + 1];
                for (int i = 0; i < lim.size(); i++) {
                    inner[i + 1] = lim.get(i);
                }
            } else if (part instanceof Partition.RowStarts) {
                newOuter = ptSplits.clone();
                int n = (int) ptSplits[batch];
                inner = new long[n + 1];
                for (int b = 0; b < batch; b++) {
                    for (int i = (int) ptSplits[b]; i < ptSplits[b + 1]; i++) {
                        inner[i] = ptValues[i] + outer[b];
                    }
                }
                inner[n] = innerRows;
            } else if (part instanceof Partition.RowLengths) {
                newOuter = ptSplits.clone();
                int n = (int) ptSplits[batch];
                inner = new long[n + 1];
                for (int i = 0; i < n; i++) {
                    inner[i + 1] = inner[i] + ptValues[i];
                }
            } else {
                // ValueRowIds: rows per example = max(id) + 1, ids offset by the rows before.
                newOuter = new long[batch + 1];
                long[] ids = new long[(int) ptSplits[batch]];
                for (int b = 0; b < batch; b++) {
                    long max = -1;
                    for (int i = (int) ptSplits[b]; i < ptSplits[b + 1]; i++) {
                        max = Math.max(max, ptValues[i]);
                    }
                    long rows = Math.max(max + 1, 0);
                    if (rows > limits.maxValuesPerFeature()
                            || newOuter[b] + rows > MAX_ARRAY_LENGTH) {
                        throw new ParseLimitException(
                                b,
                                part.key(),
                                "maxValuesPerFeature",
                                "record "
                                        + b
                                        + ": feature '"
                                        + part.key()
                                        + "' has value_rowids up to "
                                        + max
                                        + ", making "
                                        + rows
                                        + " rows, exceeds maxValuesPerFeature ("
                                        + limits.maxValuesPerFeature()
                                        + ")");
                    }
                    for (int i = (int) ptSplits[b]; i < ptSplits[b + 1]; i++) {
                        ids[i] = ptValues[i] + newOuter[b];
                    }
                    newOuter[b + 1] = newOuter[b] + rows;
                }
                int nrows = (int) newOuter[batch];
                inner = new long[nrows + 1];
                for (long id : ids) {
                    if (id >= 0 && id < nrows) {
                        inner[(int) id + 1]++;
                    }
                }
                for (int i = 0; i < nrows; i++) {
                    inner[i + 1] += inner[i];
                }
            }
            splits.set(0, inner);
            splits.add(0, newOuter);
        }
        return new RaggedTensor(values.values(), valuesShape, splits, spec.rowSplitsDtype());
    }

    private static long[] floorDiv(long[] s, long d) {
        long[] r = new long[s.length];
        for (int i = 0; i < s.length; i++) {
            r[i] = d == 0 ? 0 : Math.floorDiv(s[i], d);
        }
        return r;
    }
}
