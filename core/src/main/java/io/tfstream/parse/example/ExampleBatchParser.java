package io.tfstream.parse.example;

import io.tfstream.parse.ConvertedExamples;
import io.tfstream.parse.ExampleBuilder;
import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.InputRejectedException;
import io.tfstream.parse.LenientRetry;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.RecordDecoder;
import io.tfstream.parse.SerializedRecords;
import io.tfstream.parse.wire.FeatureListDecoder;
import io.tfstream.parse.wire.KeyColumn;
import io.tfstream.parse.wire.KeyTable;
import io.tfstream.parse.wire.RawKey;
import io.tfstream.parse.wire.ScalarFeature;
import io.tfstream.parse.wire.WireCursor;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpecs;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Parses batches of serialized {@code tf.train.Example} records straight from their wire bytes into
 * columnar tensors, with the semantics and error texts of TensorFlow's {@code ParseExampleV2}
 * kernel ({@code FastParseExample} / {@code FastParseSerializedExample} in {@code
 * example_proto_fast_parsing.cc}, TF 2.18) followed by Python's {@code parse_example} composition
 * (SparseFeature, RaggedFeature partitions).
 *
 * <p>Per record, as the kernel: the map entries are taken in wire order (concatenated Examples
 * merge) and the last entry of a key wins. Requested entries are decoded as the scan finds them;
 * when a key repeats or anything about the record is wrong, the row is rolled back and the kernel's
 * own pass runs instead: the entries are visited last to first. A dense key skips entries without a
 * kind ({@code Feature{}}: an earlier entry or the default applies); VarLen and Ragged keys take
 * the very last entry, {@code Feature{}} meaning an empty list. Features not in the spec are
 * skipped without decoding their values. The first bad record of the batch fails the whole batch
 * with TensorFlow's message.
 *
 * <p>Not thread-safe: one parser per thread. Working buffers are reused across records; the
 * returned {@link ParsedBatch} owns its arrays and stays valid.
 */
public final class ExampleBatchParser {
    private final ExampleParsePlan plan;
    private final ParseLimits limits;
    private final KeyColumn[] columns;
    private final ExampleScanner scanner;
    private final WireCursor cursor = new WireCursor();
    private final BatchAssembler assembler;
    private final Minibatches minibatches = new Minibatches();
    private final DirectRow direct;

    /** Whether row states are kept for {@link #rawColumns()} ({@link #trackRows()}). */
    private boolean trackRows;

    /**
     * Rows of the last parse that its one-pass path did not read alone, or that hold keys not
     * requested (see {@link #rawColumns()}); kept only with {@link #trackRows()}.
     */
    private boolean[] irregular = new boolean[0];

    private boolean[] unrequested = new boolean[0];
    private int lastRows = -1;
    private RawColumns raw;

    // Converted input (parseLenient with a RecordDecoder): the decoder the row writer was made for.
    private RecordDecoder rowDecoder;
    private ColumnRow columnRow;
    private ExampleBuilder exampleBuilder;
    private boolean keepExamples;
    private ConvertedExamples lastExamples;
    private long ignoredFields;

    private ExampleBatchParser(ExampleParsePlan plan, ParseLimits limits) {
        this.plan = plan;
        this.limits = limits;
        List<String> names = new ArrayList<>();
        columns = new KeyColumn[plan.keys.size()];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = new KeyColumn(plan.keys.get(i));
            names.add(plan.keys.get(i).name);
        }
        scanner = new ExampleScanner(new KeyTable(names));
        assembler = new BatchAssembler(plan, limits);
        direct = new DirectRow(columns, limits);
    }

    /**
     * Keeps, from the next parse on, what {@link #rawColumns()} describes: for each key and row
     * whether the record had the key, and the rows the one-pass path did not read alone. Costs a
     * pass over the keys per row, so it is off unless a caller reads the columns again.
     */
    public void trackRows() {
        trackRows = true;
    }

    /**
     * A parser for {@code specs}.
     *
     * @throws IllegalArgumentException with Python's ValueError text when TensorFlow rejects the
     *     spec (e.g. {@code Unsupported: FixedLenSequenceFeature requires allow_missing to be
     *     True.})
     */
    public static ExampleBatchParser create(FeatureSpecs specs, ParseLimits limits) {
        return new ExampleBatchParser(
                ExampleParsePlan.lower(specs), java.util.Objects.requireNonNull(limits, "limits"));
    }

    /** A parser for {@code specs} with {@link ParseLimits#defaults()}. */
    public static ExampleBatchParser create(FeatureSpecs specs) {
        return create(specs, ParseLimits.defaults());
    }

    public FeatureSpecs specs() {
        return plan.specs;
    }

    public ParseLimits limits() {
        return limits;
    }

    /**
     * The per-key columns of the last {@link #parse} or {@link #parseLenient} before they became
     * tensors, row by row as in the returned batch, for a caller that reads the values again (the
     * validation of the parsed rows) without decoding the records twice; null unless {@link
     * #trackRows()} was called before the parse, or when the last parse failed. Valid until the
     * next parse.
     */
    public RawColumns rawColumns() {
        if (lastRows < 0 || !trackRows) {
            return null;
        }
        if (raw == null) {
            raw = new RawColumns(columns);
        }
        raw.set(lastRows, irregular, unrequested);
        return raw;
    }

    /**
     * Parses all records, failing on the first bad one as TensorFlow does. An empty batch gives
     * TensorFlow's empty outputs ({@code [0] + shape} dense, {@code [0, 0]} sparse, row splits
     * {@code [0]}).
     *
     * <p>The record an error names is the one {@link #parseLenient} rejects first, with the same
     * message; an error of the batch as a whole (a composite inconsistent across the batch) names
     * record -1.
     *
     * @throws ExampleParseException with TensorFlow's message for the first bad record, or a {@link
     *     ParseLimitException} when a record exceeds a limit
     */
    public ParsedBatch parse(SerializedRecords records) throws ExampleParseException {
        int n = records.size();
        begin(records);
        for (int i = 0; i < n; i++) {
            parseOne(records, i, i);
        }
        ParsedBatch b;
        try {
            b = assembler.assemble(columns, n, null);
        } catch (ExampleParseException e) {
            // A record's limit in the composition: an earlier record may fail alone (as
            // parseLenient rejects it), which the batch as a whole got past.
            ExampleParseException first = LenientRetry.firstAloneFailure(this::parse, records, e);
            lastRows = -1; // the records parsed alone leave no columns of this batch
            throw first;
        }
        lastRows = n;
        return b;
    }

    /**
     * Parses every record that TensorFlow would accept on its own and reports each rejected record
     * to {@code rejected}; the batch holds the accepted rows in order.
     */
    public ParsedBatch parseLenient(
            SerializedRecords records, Consumer<ExampleParseException> rejected) {
        int n = records.size();
        begin(records);
        int[] rowToRecord = new int[n];
        int row = 0;
        for (int i = 0; i < n; i++) {
            try {
                parseOne(records, i, row);
                rowToRecord[row++] = i;
            } catch (ExampleParseException e) {
                for (KeyColumn c : columns) {
                    c.rollback(row);
                }
                rejected.accept(e);
            }
        }
        return assembleLenient(row, rowToRecord, records, rejected);
    }

    /**
     * The batch of the {@code rows} accepted rows; when the batch as a whole fails (a composite),
     * the records those rows came from ({@code records}) parsed again one by one.
     */
    private ParsedBatch assembleLenient(
            int rows,
            int[] rowToRecord,
            SerializedRecords records,
            Consumer<ExampleParseException> rejected) {
        try {
            ParsedBatch b = assembler.assemble(columns, rows, rowToRecord);
            lastRows = rows;
            return b;
        } catch (ExampleParseException e) {
            return LenientRetry.retry(
                    this::parse, ParsedBatch::withRows, records, rowToRecord, rows, rejected);
        }
    }

    /**
     * Write the Example of every converted record while it is parsed ({@link #parseLenient(
     * SerializedRecords, RecordDecoder, Consumer)}), for a caller that reads them all from {@link
     * #lastExamples()}; otherwise an Example is written only when asked for.
     */
    public void keepExamples(boolean keep) {
        keepExamples = keep;
    }

    /**
     * Parses records of another format as the Examples {@code decoder} converts them to, with the
     * result, the rejections and their messages of {@link #parseLenient(SerializedRecords,
     * Consumer)} over those Examples: the values go straight into the columns, and only a record
     * the columns cannot take as is (a shape, limit or required-key error) has its Example written
     * and parsed. A record that does not convert is rejected with an {@link
     * InputRejectedException}. {@link #lastExamples()} then gives the Examples.
     */
    public ParsedBatch parseLenient(
            SerializedRecords inputs,
            RecordDecoder decoder,
            Consumer<ExampleParseException> rejected) {
        ColumnRow cr = columnRow(decoder);
        ConvertedExamples examples = new ConvertedExamples(inputs, decoder, exampleBuilder);
        int n = inputs.size();
        begin(inputs);
        ignoredFields = 0;
        cr.tee = keepExamples ? exampleBuilder : null;
        int[] rowToRecord = new int[n];
        int row = 0;
        for (int i = 0; i < n; i++) {
            try {
                convertOne(inputs, examples, decoder, cr, i, row);
                rowToRecord[row++] = i;
            } catch (ExampleParseException e) {
                for (KeyColumn c : columns) {
                    c.rollback(row);
                }
                rejected.accept(e);
            }
        }
        lastExamples = examples;
        return assembleLenient(row, rowToRecord, examples, rejected);
    }

    /**
     * The Examples of the last {@link #parseLenient(SerializedRecords, RecordDecoder, Consumer)}.
     */
    public ConvertedExamples lastExamples() {
        return lastExamples;
    }

    /** Input fields the records of the last converted parse ignored ({@link RecordDecoder}). */
    public long ignoredFields() {
        return ignoredFields;
    }

    private ColumnRow columnRow(RecordDecoder decoder) {
        if (decoder != rowDecoder) {
            rowDecoder = decoder;
            columnRow = ColumnRow.of(decoder, columns, limits);
            if (columnRow == null) {
                throw new IllegalArgumentException(
                        "the decoder's features "
                                + decoder.featureNames()
                                + " are not the spec's keys");
            }
            exampleBuilder = new ExampleBuilder(decoder.featureNames(), decoder.featureTypes());
        }
        return columnRow;
    }

    private void convertOne(
            SerializedRecords inputs,
            ConvertedExamples examples,
            RecordDecoder decoder,
            ColumnRow cr,
            int index,
            int row)
            throws ExampleParseException {
        if (minibatches.startsAt(index)) {
            for (KeyColumn c : columns) {
                c.minibatchBase = c.size();
            }
        }
        cr.row = row;
        byte[] buf = inputs.buffer(index);
        int off = inputs.offset(index);
        int len = inputs.length(index);
        String why = decoder.decode(buf, off, len, cr);
        if (why != null) {
            throw new InputRejectedException(index, why);
        }
        ignoredFields += decoder.ignoredFields();
        byte[] example = null;
        if (cr.tee != null) {
            example = cr.tee.toBytes();
            examples.set(index, example);
        }
        if (cr.finish(example == null ? -1 : example.length, trackRows)) {
            if (trackRows) {
                irregular[row] = false;
                unrequested[row] = false;
            }
            return;
        }
        // Not certainly fine: the Example path decides, with TensorFlow's error if any.
        for (KeyColumn c : columns) {
            c.rollback(row);
        }
        parseOne(examples, index, row); // reads the Example through the view, writing it first
    }

    private void begin(SerializedRecords records) {
        lastRows = -1;
        int n = records.size();
        if (trackRows && irregular.length < n) {
            irregular = new boolean[n];
            unrequested = new boolean[n];
        }
        direct.unrequested = trackRows ? unrequested : null;
        for (KeyColumn c : columns) {
            c.start(n, trackRows);
        }
        minibatches.split(records);
    }

    private void parseOne(SerializedRecords records, int index, int row)
            throws ExampleParseException {
        if (minibatches.startsAt(index)) {
            for (KeyColumn c : columns) {
                c.minibatchBase = c.size();
            }
        }
        byte[] buf = records.buffer(index);
        int off = records.offset(index);
        int len = records.length(index);
        if (len > limits.maxRecordBytes()) {
            throw ParseErrors.recordTooLarge(index, len, limits);
        }
        ExampleScanner s = scanner;
        int maxEntries = limits.maxFeaturesPerExample();
        DirectRow direct = this.direct;
        direct.row = row;
        direct.seen = 0;
        if (trackRows) {
            unrequested[row] = false;
        }
        int scanned = s.scan(buf, off, len, maxEntries, direct);
        int seen = direct.seen;
        boolean irregularRow = false;
        if (scanned == ExampleScanner.ABORTED) {
            for (KeyColumn c : columns) {
                c.rollback(row);
            }
            scanned = s.scan(buf, off, len, maxEntries);
            checkScan(scanned, records, index);
            seen = replay(records, index, row, buf);
            irregularRow = true;
        } else {
            checkScan(scanned, records, index);
        }
        if (trackRows) {
            irregular[row] = irregularRow || rowStates(row);
        }
        if (seen < columns.length) {
            finishRow(records, index, row);
        }
    }

    /**
     * Writes each key's state in row {@code row} (one-pass path); returns whether a dense key had a
     * {@code Feature{}} entry, whose meaning depends on the entries' order (an irregular row).
     */
    private boolean rowStates(int row) {
        boolean denseWithoutKind = false;
        for (KeyColumn c : columns) {
            byte state;
            if (c.noKindRow == row) {
                if (c.dense) {
                    denseWithoutKind = true;
                }
                state = c.seenRow == row && !c.dense ? RawColumns.NO_KIND : RawColumns.PRESENT;
            } else {
                state = RawColumns.PRESENT;
            }
            c.rowState[row] = c.seenRow == row ? state : RawColumns.ABSENT;
        }
        return denseWithoutKind;
    }

    private void checkScan(int scanned, SerializedRecords records, int index)
            throws ExampleParseException {
        if (scanned == ExampleScanner.MALFORMED) {
            throw ParseErrors.malformed(
                    index, records.buffer(index), records.offset(index), records.length(index));
        } else if (scanned == ExampleScanner.TOO_MANY_ENTRIES) {
            throw ParseErrors.tooManyFeatures(index, scanner.totalEntries, limits);
        }
    }

    /**
     * The kernel's pass over the scanned entries, last to first: the last entry of a key wins and
     * errors come in the kernel's order. Returns the number of keys given a value.
     */
    private int replay(SerializedRecords records, int index, int row, byte[] buf)
            throws ExampleParseException {
        ExampleScanner s = scanner;
        int seen = 0;
        for (int j = s.count - 1; j >= 0; j--) {
            KeyColumn col = columns[s.keyId[j]];
            RawKey key = col.key;
            int start = s.featureStart[j];
            int end = s.featureEnd[j];
            DType kind = null;
            if (start < end) {
                byte b = buf[start];
                kind = b == col.kindByte ? key.dtype : kindOf(b);
                if (kind == null) {
                    throw ParseErrors.unsupportedKind(index, key);
                }
            }
            if (col.dense) {
                if (kind == null || col.seenRow == row) {
                    continue;
                }
                col.seenRow = row;
                seen++;
                if (kind != key.dtype) {
                    throw ParseErrors.denseDtype(records.name(index), index, key, kind);
                }
                if (key.kind == RawKey.Kind.DENSE_FIXED) {
                    if (key.stride == 1 && ScalarFeature.tryAppend(col, buf, start, end, limits)) {
                        continue;
                    }
                    int n = decode(col, buf, start, end, key.stride, records, index);
                    if (n != key.stride) {
                        throw ParseErrors.count(records.name(index), index, key, n);
                    }
                } else {
                    decode(col, buf, start, end, FeatureListDecoder.NO_CAP, records, index);
                    int inMinibatch = col.size() - col.minibatchBase;
                    if (inMinibatch % key.stride != 0) {
                        throw ParseErrors.notMultiple(records.name(index), index, key, inMinibatch);
                    }
                    col.ends[row + 1] = col.size();
                }
            } else {
                if (col.seenRow == row) {
                    continue;
                }
                col.seenRow = row;
                seen++;
                if (kind != null) {
                    if (kind != key.dtype) {
                        throw ParseErrors.sparseDtype(records.name(index), index, key, kind);
                    }
                    if (!ScalarFeature.tryAppend(col, buf, start, end, limits)) {
                        decode(col, buf, start, end, FeatureListDecoder.NO_CAP, records, index);
                    }
                }
                col.ends[row + 1] = col.size();
            }
        }
        return seen;
    }

    /** Missing keys: required dense keys fail (in dense key order), the others get defaults. */
    private void finishRow(SerializedRecords records, int index, int row)
            throws ExampleParseException {
        for (KeyColumn col : columns) {
            if (col.seenRow != row
                    && col.key.kind == RawKey.Kind.DENSE_FIXED
                    && col.key.required()) {
                throw ParseErrors.required(records.name(index), index, col.key);
            }
        }
        for (KeyColumn col : columns) {
            if (col.seenRow == row) {
                continue;
            }
            if (col.key.kind == RawKey.Kind.DENSE_FIXED) {
                col.appendDefault(col.key.defaultValue);
            } else {
                col.ends[row + 1] = col.size();
            }
        }
    }

    /** {@code parsed::Feature::ParseDataType}: the first byte is the kind, or null if unknown. */
    private static DType kindOf(byte b) {
        switch (b) {
            case 0x0a:
                return DType.STRING;
            case 0x12:
                return DType.FLOAT32;
            case 0x1a:
                return DType.INT64;
            default:
                return null;
        }
    }

    /** Decodes one feature's values into {@code col}; returns their count. */
    private int decode(
            KeyColumn col,
            byte[] buf,
            int start,
            int end,
            int cap,
            SerializedRecords records,
            int index)
            throws ExampleParseException {
        WireCursor c = cursor;
        c.reset(buf, start + 1, end);
        int n = FeatureListDecoder.decodeInto(c, col, cap, limits);
        switch (n) {
            case FeatureListDecoder.MALFORMED:
                throw ParseErrors.cantParse(records.name(index), index, col.key);
            case FeatureListDecoder.TOO_MANY_VALUES:
                throw ParseErrors.tooManyValues(index, col.key, c.value, limits);
            case FeatureListDecoder.VALUE_TOO_LONG:
                throw ParseErrors.valueTooLong(index, col.key, c.value, limits);
            default:
                return n;
        }
    }
}
