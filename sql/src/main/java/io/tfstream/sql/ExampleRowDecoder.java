package io.tfstream.sql;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.FeatureEntryWalker;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.SerializedRecords;
import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.parse.example.ParsedBatch;
import io.tfstream.parse.example.RawColumns;
import io.tfstream.spec.FeatureSpecs;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;

/**
 * Serialized Examples → table rows, a batch at a time through {@link ExampleBatchParser} (so every
 * record is parsed as {@code tf.io.parse_example} would, defaults and required features included),
 * then each column read from its feature's tensor. Without a schema an absent feature is NULL:
 * whether the record had it comes from the parser's row states ({@link RawColumns}), or for the
 * rare row the parser settled by TensorFlow's last-wins pass, from a walk of that record's entries.
 *
 * <p>Strict decoding fails on the first bad record; lenient decoding hands each bad record to a
 * {@link Rejects} and keeps the others. Not thread-safe: one per task.
 */
final class ExampleRowDecoder {

    /** Receives decoded rows. */
    interface Rows {
        void accept(RowData row) throws java.io.IOException;
    }

    /** Receives the records lenient decoding skipped. */
    interface Rejects {
        void reject(int recordIndex, String message);
    }

    /** Describes where record {@code i} of a batch came from, for messages. */
    interface Positions {
        String describe(int recordIndex);
    }

    private final List<ExampleColumn> columns;
    private final boolean withSchema;
    private final ExampleBatchParser parser;
    private final TensorColumnReader[] readers;
    private final FeatureEntryWalker walker;
    private final boolean[] present;
    private final int[] rawIndex;

    /**
     * @param specs the spec to parse with: a schema's whole spec, or {@link
     *     ColumnSpecs#withoutSchema}'s
     * @param withSchema whether {@code specs} came from a schema (else an absent feature is NULL)
     */
    ExampleRowDecoder(
            List<ExampleColumn> columns,
            FeatureSpecs specs,
            boolean withSchema,
            ParseLimits limits) {
        this.columns = List.copyOf(columns);
        this.withSchema = withSchema;
        this.parser = ExampleBatchParser.create(specs, limits);
        LeafValues leaves = new LeafValues();
        readers = new TensorColumnReader[columns.size()];
        List<String> names = new ArrayList<>();
        for (int i = 0; i < readers.length; i++) {
            readers[i] = new TensorColumnReader(columns.get(i), leaves);
            names.add(columns.get(i).name());
        }
        present = new boolean[columns.size()];
        rawIndex = new int[columns.size()];
        if (withSchema) {
            walker = null;
        } else {
            parser.trackRows();
            walker = new FeatureEntryWalker(names, List.of(), limits);
        }
    }

    /**
     * Decodes {@code records}; with {@code rejects} null a bad record fails the batch.
     *
     * @throws RowDecodeException naming the record (by {@code positions}) and what is wrong
     */
    void decode(SerializedRecords records, Positions positions, Rows out, Rejects rejects)
            throws java.io.IOException {
        ParsedBatch batch;
        if (rejects == null) {
            try {
                batch = parser.parse(records);
            } catch (ExampleParseException e) {
                throw new RowDecodeException(
                        positions.describe(Math.max(0, e.recordIndex())) + ": " + e.getMessage(),
                        e);
            }
        } else {
            batch =
                    parser.parseLenient(
                            records, e -> rejects.reject(e.recordIndex(), e.getMessage()));
        }
        int rows = batch.rows();
        for (int c = 0; c < readers.length; c++) {
            readers[c].reset(batch.feature(columns.get(c).name()), rows);
        }
        RawColumns raw = withSchema ? null : parser.rawColumns();
        if (raw != null) {
            for (int c = 0; c < readers.length; c++) {
                rawIndex[c] = raw.column(columns.get(c).name());
            }
        }
        for (int r = 0; r < rows; r++) {
            int record = batch.recordIndex(r);
            GenericRowData row;
            try {
                row = row(r, raw, records, record);
            } catch (RowDecodeException e) {
                if (rejects == null) {
                    throw new RowDecodeException(
                            positions.describe(record) + ": " + e.getMessage(), e);
                }
                rejects.reject(record, e.getMessage());
                continue;
            }
            out.accept(row);
        }
    }

    private GenericRowData row(int r, RawColumns raw, SerializedRecords records, int record)
            throws RowDecodeException {
        GenericRowData row = new GenericRowData(readers.length);
        if (raw != null) {
            presence(r, raw, records, record);
        }
        for (int c = 0; c < readers.length; c++) {
            if (raw == null || present[c]) {
                row.setField(c, readers[c].value(r));
            }
        }
        return row;
    }

    /** Which columns' features record {@code record} (output row {@code r}) holds. */
    private void presence(int r, RawColumns raw, SerializedRecords records, int record) {
        if (!raw.irregular(r)) {
            for (int c = 0; c < readers.length; c++) {
                present[c] = raw.state(rawIndex[c], r) != RawColumns.ABSENT;
            }
            return;
        }
        Arrays.fill(present, false);
        // The parser accepted this record, so its walk succeeds; any entry of a key counts.
        walker.walkExample(
                records.buffer(record),
                records.offset(record),
                records.length(record),
                (section, keyId, buf, keyStart, keyLen, start, end) -> {
                    if (keyId >= 0) {
                        present[keyId] = true;
                    }
                });
    }
}
