package io.tfstream.parse.example;

import io.tfstream.parse.ParsedRows;
import io.tfstream.tensor.Tensor;
import java.util.Collections;
import java.util.SortedMap;

/**
 * The tensors parsed from one batch, keyed by output feature name in sorted order. When records
 * were rejected in lenient mode, {@link #recordIndex(int)} maps each output row back to its record.
 */
public final class ParsedBatch implements ParsedRows {
    private final int rows;
    private final SortedMap<String, Tensor> features;
    private final int[] rowToRecord;

    ParsedBatch(int rows, SortedMap<String, Tensor> features, int[] rowToRecord) {
        this.rows = rows;
        this.features = Collections.unmodifiableSortedMap(features);
        this.rowToRecord = rowToRecord;
    }

    /** This batch with its rows mapped to the records {@code rowToRecord}. */
    ParsedBatch withRows(int[] rowToRecord) {
        return new ParsedBatch(rows, features, rowToRecord);
    }

    /** Number of parsed records (the batch dimension). */
    @Override
    public int rows() {
        return rows;
    }

    public SortedMap<String, Tensor> features() {
        return features;
    }

    public Tensor feature(String name) {
        return features.get(name);
    }

    /** The input record index of output row {@code row}. */
    @Override
    public int recordIndex(int row) {
        return rowToRecord == null ? row : rowToRecord[row];
    }

    @Override
    public String toString() {
        return "ParsedBatch{rows=" + rows + ", " + features + "}";
    }
}
