package io.tfstream.parse.sequence;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseErrorKind;
import io.tfstream.parse.ParseLimitException;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.SerializedRecords;
import io.tfstream.parse.wire.WireCursor;
import io.tfstream.spec.DType;

/**
 * What the assembly steps of one {@link SequenceExampleBatchParser} call share: the scanned record
 * slices, the example names, whether the input is a batch (vector) or a single record (scalar), and
 * one reusable cursor.
 */
final class SequenceBatchState {
    final SequenceExampleScanner scanner;
    final WireCursor cursor = new WireCursor();
    final ParseLimits limits;

    int records;
    boolean batch;
    private SerializedRecords names;
    private String singleName;

    SequenceBatchState(SequenceExampleScanner scanner, ParseLimits limits) {
        this.scanner = scanner;
        this.limits = limits;
    }

    void startBatch(SerializedRecords records) {
        this.records = records.size();
        this.batch = true;
        this.names = records;
        this.singleName = null;
        scanner.reset(this.records);
    }

    void startSingle(String name) {
        this.records = 1;
        this.batch = false;
        this.names = null;
        this.singleName = name;
        scanner.reset(1);
    }

    /** TensorFlow's {@code ExampleName}: the record's name or {@code <unknown>}. */
    String name(int record) {
        if (names != null) {
            return names.name(record);
        }
        return singleName == null ? "<unknown>" : singleName;
    }

    /**
     * True when key {@code key} of {@code section} was found in the record with a non-empty value.
     */
    boolean hasBytes(int section, int key, int record) {
        return scanner.present(section, key, record)
                && scanner.end(section, key, record) > scanner.start(section, key, record);
    }

    /** Points the cursor at the value bytes of {@code key} in {@code record}. */
    WireCursor open(int section, int key, int record) {
        cursor.reset(
                scanner.buffer(record),
                scanner.start(section, key, record),
                scanner.end(section, key, record));
        return cursor;
    }

    /** Reads one Feature's values at the cursor into {@code sink} (null: count only). */
    int read(DType dtype, ValueSink sink) {
        if (sink == null) {
            return SequenceValueReader.read(
                    cursor, dtype, null, null, null, limits.maxBytesPerValue());
        }
        return sink.read(cursor, limits.maxBytesPerValue());
    }

    static ExampleParseException error(
            ParseErrorKind kind, int record, String key, String message) {
        return new ExampleParseException(kind, record, key, message);
    }

    /** Batch-wide totals beyond what one Java array holds. */
    static int checkedSize(long n, String key) throws ParseLimitException {
        if (n > Integer.MAX_VALUE - 8) {
            throw new ParseLimitException(
                    -1,
                    key,
                    "maxValuesPerFeature",
                    "feature '"
                            + key
                            + "' has "
                            + n
                            + " values in the batch, more than one array can hold");
        }
        return (int) n;
    }
}
