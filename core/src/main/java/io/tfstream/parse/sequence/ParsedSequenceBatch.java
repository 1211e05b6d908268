package io.tfstream.parse.sequence;

import io.tfstream.parse.ParsedRows;
import io.tfstream.spec.KeyOrder;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.Tensor;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The three dicts {@code tf.io.parse_sequence_example} returns: context tensors, feature-list
 * tensors and the lengths (steps per example, int64 {@code [B]}) of every FixedLenSequenceFeature.
 * For {@code parse_single_sequence_example} {@link #batchSize()} is -1, nothing has a batch
 * dimension and each length is a scalar (Python drops it; the kernel computes it).
 */
public final class ParsedSequenceBatch implements ParsedRows {
    private final int batchSize;
    private final SortedMap<String, Tensor> context;
    private final SortedMap<String, Tensor> featureLists;
    private final SortedMap<String, DenseTensor> featureListLengths;
    private final int[] rowToRecord;

    ParsedSequenceBatch(
            int batchSize,
            Map<String, Tensor> context,
            Map<String, Tensor> featureLists,
            Map<String, DenseTensor> featureListLengths) {
        this.batchSize = batchSize;
        this.context = sorted(context);
        this.featureLists = sorted(featureLists);
        this.featureListLengths = sorted(featureListLengths);
        this.rowToRecord = null;
    }

    private ParsedSequenceBatch(ParsedSequenceBatch b, int[] rowToRecord) {
        this.batchSize = b.batchSize;
        this.context = b.context;
        this.featureLists = b.featureLists;
        this.featureListLengths = b.featureListLengths;
        this.rowToRecord = rowToRecord;
    }

    /** This batch with its rows mapped to the records {@code rowToRecord}. */
    ParsedSequenceBatch withRows(int[] rowToRecord) {
        return new ParsedSequenceBatch(this, rowToRecord);
    }

    private static <T> SortedMap<String, T> sorted(Map<String, T> m) {
        TreeMap<String, T> t = new TreeMap<>(KeyOrder.CODE_POINT);
        t.putAll(m);
        return Collections.unmodifiableSortedMap(t);
    }

    /** Records parsed, or -1 for a single (scalar) parse. */
    public int batchSize() {
        return batchSize;
    }

    /** Records parsed (the batch dimension), or -1 for a single parse. */
    @Override
    public int rows() {
        return batchSize;
    }

    /**
     * The input record index of output row {@code row}: after {@link
     * SequenceExampleBatchParser#parseLenient} rejected records, rows skip them.
     */
    @Override
    public int recordIndex(int row) {
        return rowToRecord == null ? row : rowToRecord[row];
    }

    public SortedMap<String, Tensor> context() {
        return context;
    }

    public SortedMap<String, Tensor> featureLists() {
        return featureLists;
    }

    /** Steps per example of each FixedLenSequenceFeature, keyed by its name. */
    public SortedMap<String, DenseTensor> featureListLengths() {
        return featureListLengths;
    }

    @Override
    public String toString() {
        return "ParsedSequenceBatch{batchSize="
                + batchSize
                + ", context="
                + context
                + ", featureLists="
                + featureLists
                + ", featureListLengths="
                + featureListLengths
                + '}';
    }
}
