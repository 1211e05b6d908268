package io.tfstream.parse.composite;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseErrorKind;
import io.tfstream.parse.ParseLimitException;

/**
 * The row-partition arithmetic of TensorFlow's {@code RaggedTensor.from_*} factories ({@code
 * ragged_tensor.py} / {@code row_partition.py}, {@code validate=False}) and of Python's {@code
 * _add_batched_ragged_partition}, on plain {@code long[]} row splits.
 */
final class RowPartitionMath {
    private RowPartitionMath() {}

    /** {@code from_row_lengths}: {@code [0] + cumsum(lengths)}. */
    static long[] lengthsToSplits(long[] lengths) {
        long[] s = new long[lengths.length + 1];
        for (int i = 0; i < lengths.length; i++) {
            s[i + 1] = s[i] + lengths[i];
        }
        return s;
    }

    /** {@code from_uniform_row_length}: {@code range(nrows + 1) * len}. */
    static long[] uniformSplits(long nrows, long len) {
        long[] s = new long[Math.toIntExact(nrows + 1)];
        for (int i = 0; i < s.length; i++) {
            s[i] = i * len;
        }
        return s;
    }

    /** {@code row_splits // len} (floor division, as TensorFlow's {@code FloorDiv}). */
    static long[] floorDiv(long[] splits, long len) {
        long[] r = new long[splits.length];
        for (int i = 0; i < r.length; i++) {
            r[i] = Math.floorDiv(splits[i], len);
        }
        return r;
    }

    /**
     * {@code reshape(values, [-1, len] + shape[1:])}, with the {@code Reshape} kernel's error when
     * the number of values is not a multiple.
     */
    static long[] reshapeRows(long[] shape, long len) throws ExampleParseException {
        long inner = 1;
        for (int i = 1; i < shape.length; i++) {
            inner *= shape[i];
        }
        long total = shape[0] * inner;
        long unit = len * inner;
        if (total % unit != 0) {
            throw new ExampleParseException(
                    ParseErrorKind.INCONSISTENT_BATCH,
                    -1,
                    null,
                    "Input to reshape is a tensor with "
                            + total
                            + " values, but the requested shape requires a multiple of "
                            + unit);
        }
        long[] s = new long[shape.length + 1];
        s[0] = total / unit;
        s[1] = len;
        System.arraycopy(shape, 1, s, 2, shape.length - 1);
        return s;
    }

    /**
     * {@code from_value_rowids(values, ids)} without {@code nrows}: {@code nrows = ids[-1] + 1} (0
     * when empty), row lengths by {@code bincount} with {@code maxlength = nrows} (larger ids are
     * dropped; negative ids fail as in TensorFlow's {@code Bincount}).
     */
    static long[] rowIdsToSplits(long[] ids, int n, String feature, int record, long maxRows)
            throws ExampleParseException {
        long nrows = n == 0 ? 0 : ids[n - 1] + 1;
        for (int i = 0; i < n; i++) {
            if (ids[i] < 0) {
                throw new ExampleParseException(
                        ParseErrorKind.INCONSISTENT_BATCH,
                        -1,
                        null,
                        "Input arr must be non-negative!");
            }
        }
        checkRows(nrows, feature, record, maxRows);
        long[] s = new long[(int) nrows + 1];
        for (int i = 0; i < n; i++) {
            if (ids[i] < nrows) {
                s[(int) ids[i] + 1]++;
            }
        }
        for (int i = 0; i < nrows; i++) {
            s[i + 1] += s[i];
        }
        return s;
    }

    /**
     * Batched RowSplits (with {@code dropFirst}) or RowLimits: each example's limits shifted by the
     * example's first value row; returns {outer splits, inner splits}.
     */
    static long[][] batchedLimits(long[] rt, long[] ptSplits, long[] pt, boolean dropFirst) {
        int batch = ptSplits.length - 1;
        long[] outer = new long[batch + 1];
        long[] inner = new long[pt.length + 1];
        int n = 0;
        for (int b = 0; b < batch; b++) {
            int from = (int) ptSplits[b];
            int to = (int) ptSplits[b + 1];
            if (dropFirst && to > from) {
                from++;
            }
            for (int i = from; i < to; i++) {
                inner[++n] = pt[i] + rt[b];
            }
            outer[b + 1] = n;
        }
        return new long[][] {outer, java.util.Arrays.copyOf(inner, n + 1)};
    }

    /** Batched RowStarts: shifted starts, then the number of value rows as the last split. */
    static long[][] batchedStarts(long[] rt, long[] ptSplits, long[] pt, long valueRows) {
        int batch = ptSplits.length - 1;
        long[] inner = new long[pt.length + 1];
        for (int b = 0; b < batch; b++) {
            for (int i = (int) ptSplits[b]; i < ptSplits[b + 1]; i++) {
                inner[i] = pt[i] + rt[b];
            }
        }
        inner[pt.length] = valueRows;
        return new long[][] {ptSplits.clone(), inner};
    }

    /**
     * Batched ValueRowIds: {@code max(id) + 1} rows per example (0 if it has no ids), ids shifted
     * by the rows of the examples before.
     */
    static long[][] batchedRowIds(long[] ptSplits, long[] pt, String feature, long maxRows)
            throws ExampleParseException {
        int batch = ptSplits.length - 1;
        long[] outer = new long[batch + 1];
        long[] ids = new long[pt.length];
        for (int b = 0; b < batch; b++) {
            long max = Long.MIN_VALUE;
            for (int i = (int) ptSplits[b]; i < ptSplits[b + 1]; i++) {
                max = Math.max(max, pt[i] + 1);
                ids[i] = pt[i] + outer[b];
            }
            long rows = Math.max(max, 0);
            checkRows(rows, feature, b, maxRows);
            outer[b + 1] = outer[b] + rows;
            if (outer[b + 1] > maxRows) {
                throw new ParseLimitException(
                        -1,
                        feature,
                        "maxRaggedRows",
                        "the batch: feature '"
                                + feature
                                + "' has "
                                + outer[b + 1]
                                + " rows from its value_rowids partition up to record "
                                + b
                                + ", exceeds maxRaggedRows ("
                                + maxRows
                                + ")");
            }
        }
        return new long[][] {outer, rowIdsToSplits(ids, ids.length, feature, -1, maxRows)};
    }

    /**
     * A value_rowids partition gives {@code nrows} rows to {@code record}; more than {@code
     * maxRows} is a {@link ParseLimitException} for {@code maxRaggedRows}.
     */
    private static void checkRows(long nrows, String feature, int record, long maxRows)
            throws ExampleParseException {
        if (nrows > maxRows) {
            String where = record >= 0 ? "record " + record : "the batch";
            throw new ParseLimitException(
                    record,
                    feature,
                    "maxRaggedRows",
                    where
                            + ": feature '"
                            + feature
                            + "' has "
                            + nrows
                            + " rows from its value_rowids partition, exceeds maxRaggedRows ("
                            + maxRows
                            + ")");
        }
    }
}
