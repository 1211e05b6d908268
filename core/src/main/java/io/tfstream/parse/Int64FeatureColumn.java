package io.tfstream.parse;

import io.tfstream.parse.example.ParsedBatch;
import io.tfstream.parse.sequence.ParsedSequenceBatch;
import io.tfstream.spec.DType;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.RaggedTensor;
import io.tfstream.tensor.SparseTensor;
import io.tfstream.tensor.Tensor;
import java.util.Arrays;

/**
 * The first value per row of an int64 feature of a parsed batch (a context feature for
 * SequenceExamples), e.g. an event-time feature: dense {@code [B, ...]}, sparse {@code [B, n]} or
 * ragged. Rows whose feature has no value are marked missing.
 */
public final class Int64FeatureColumn {
    private final long[] values;
    private final boolean[] present;

    private Int64FeatureColumn(long[] values, boolean[] present) {
        this.values = values;
        this.present = present;
    }

    /**
     * The column of {@code feature} in {@code batch}.
     *
     * @throws IllegalArgumentException when the batch has no such feature or it is not int64
     */
    public static Int64FeatureColumn of(ParsedRows batch, String feature) {
        Tensor t =
                batch instanceof ParsedBatch b
                        ? b.feature(feature)
                        : ((ParsedSequenceBatch) batch).context().get(feature);
        int rows = batch.rows();
        long[] values = new long[rows];
        boolean[] present = new boolean[rows];
        if (rows == 0) {
            return new Int64FeatureColumn(values, present);
        }
        if (t == null) {
            throw new IllegalArgumentException("the parsed batch has no feature '" + feature + "'");
        }
        if (t.dtype() != DType.INT64) {
            throw new IllegalArgumentException(
                    "feature '" + feature + "' is " + t.dtype().tfName() + ", not int64");
        }
        if (t instanceof DenseTensor d) {
            Column c = d.values();
            int stride = rows == 0 ? 0 : c.size() / rows;
            if (stride > 0) {
                for (int r = 0; r < rows; r++) {
                    values[r] = c.int64(r * stride);
                    present[r] = true;
                }
            }
        } else if (t instanceof SparseTensor s) {
            for (int i = s.numValues() - 1; i >= 0; i--) {
                int r = (int) s.index(i, 0);
                values[r] = s.values().int64(i);
                present[r] = true;
            }
        } else {
            RaggedTensor g = (RaggedTensor) t;
            long[] splits = g.rowSplits().get(0);
            long[] inner = new long[splits.length];
            System.arraycopy(splits, 0, inner, 0, splits.length);
            for (int level = 1; level < g.rowSplits().size(); level++) {
                long[] next = g.rowSplits().get(level);
                for (int i = 0; i < inner.length; i++) {
                    inner[i] = next[(int) inner[i]];
                }
            }
            for (int r = 0; r < rows; r++) {
                if (inner[r + 1] > inner[r]) {
                    values[r] = g.values().int64((int) inner[r]);
                    present[r] = true;
                }
            }
        }
        return new Int64FeatureColumn(values, present);
    }

    /** Whether row {@code row} has a value. */
    public boolean present(int row) {
        return present[row];
    }

    /** The first value of row {@code row} (0 when missing). */
    public long value(int row) {
        return values[row];
    }

    @Override
    public String toString() {
        return "Int64FeatureColumn" + Arrays.toString(values);
    }
}
