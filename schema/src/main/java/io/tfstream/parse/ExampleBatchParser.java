package io.tfstream.parse;

import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.Shapes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Parses batches of serialized {@code tf.train.Example} records straight from their wire bytes into
 * columnar tensors, with the semantics and error texts of TensorFlow's {@code ParseExampleV2}
 * kernel ({@code FastParseExample}) followed by Python's {@code parse_example} composition.
 * Features not in the spec are skipped without decoding their values.
 *
 * <p>Not thread-safe: one parser per thread. Buffers are reused across batches; the returned {@link
 * ParsedBatch} owns its arrays and stays valid.
 */
public final class ExampleBatchParser {
    private static final int MINIBATCH_BYTES = 50_000;

    private final ExampleParsePlan plan;
    private final ParseLimits limits;
    private final KeyColumn[] columns;
    private final ExampleScanner scanner;
    private final WireCursor cursor = new WireCursor();
    private final BatchAssembler assembler;
    private int[] minibatchStart = new int[0];

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
        assembler = new BatchAssembler(plan);
    }

    /**
     * A parser for {@code specs}.
     *
     * @throws IllegalArgumentException with Python's ValueError text when TensorFlow rejects the
     *     spec (e.g. {@code Unsupported: FixedLenSequenceFeature requires allow_missing to be
     *     True.})
     */
    public static ExampleBatchParser create(FeatureSpecs specs, ParseLimits limits) {
        return new ExampleBatchParser(ExampleParsePlan.lower(specs), limits);
    }

    public FeatureSpecs specs() {
        return plan.specs;
    }

    /**
     * Parses all records, failing on the first bad one as TensorFlow does.
     *
     * @throws ExampleParseException with TensorFlow's message for the first bad record
     */
    public ParsedBatch parse(SerializedRecords records) throws ExampleParseException {
        int n = records.size();
        begin(records);
        for (int i = 0; i < n; i++) {
            startMinibatchIfNeeded(i);
            parseOne(records, i, i);
        }
        return assembler.assemble(columns, n, null);
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
            startMinibatchIfNeeded(i);
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
        try {
            return assembler.assemble(columns, row, rowToRecord);
        } catch (ExampleParseException e) {
            throw new IllegalStateException("composite assembly failed in lenient mode", e);
        }
    }

    private void begin(SerializedRecords records) {
        int n = records.size();
        for (KeyColumn c : columns) {
            c.start(n);
        }
        computeMinibatches(records);
    }

    /** TensorFlow's minibatch split, which shows in its "not a multiple" message counts. */
    private void computeMinibatches(SerializedRecords records) {
        int n = records.size();
        long count = 0;
        long bytes = 0;
        for (int i = 0; i < n; i++) {
            if (bytes == 0) {
                count++;
            }
            bytes += records.length(i) + 1L;
            if (bytes > MINIBATCH_BYTES) {
                bytes = 0;
            }
        }
        int num = (int) Math.max(Math.min(8, n), Math.min(64, count));
        if (minibatchStart.length < num + 1) {
            minibatchStart = new int[num + 1];
        }
        for (int m = 0; m <= num; m++) {
            minibatchStart[m] = num == 0 ? 0 : (int) ((long) n * m / num);
        }
        nextMinibatch = 0;
        minibatches = num;
    }

    private int nextMinibatch;
    private int minibatches;

    private void startMinibatchIfNeeded(int record) {
        while (nextMinibatch < minibatches && minibatchStart[nextMinibatch] == record) {
            nextMinibatch++;
            for (KeyColumn c : columns) {
                if (c.key.kind == RawKey.Kind.DENSE_VARLEN) {
                    c.minibatchBase = c.size();
                }
            }
        }
    }

    private void parseOne(SerializedRecords records, int index, int row)
            throws ExampleParseException {
        byte[] buf = records.buffer(index);
        int off = records.offset(index);
        int len = records.length(index);
        if (len > limits.maxRecordBytes()) {
            throw new ParseLimitException(
                    index,
                    null,
                    "maxRecordBytes",
                    "record "
                            + index
                            + " has "
                            + len
                            + " bytes, exceeds maxRecordBytes ("
                            + limits.maxRecordBytes()
                            + ")");
        }
        ExampleScanner s = scanner;
        if (!s.scan(buf, off, len)) {
            throw new ExampleParseException(
                    ParseErrorKind.MALFORMED,
                    index,
                    null,
                    "Could not parse example input, value: '"
                            + new String(buf, off, len, StandardCharsets.UTF_8)
                            + "'");
        }
        if (s.totalEntries > limits.maxFeaturesPerExample()) {
            throw new ParseLimitException(
                    index,
                    null,
                    "maxFeaturesPerExample",
                    "record "
                            + index
                            + " has "
                            + s.totalEntries
                            + " features, exceeds maxFeaturesPerExample ("
                            + limits.maxFeaturesPerExample()
                            + ")");
        }
        String name = null;
        for (int j = s.count - 1; j >= 0; j--) {
            KeyColumn col = columns[s.keyId[j]];
            RawKey key = col.key;
            int start = s.featureStart[j];
            int end = s.featureEnd[j];
            DType kind = null;
            if (start < end) {
                int b = buf[start] & 0xff;
                kind = (b & 7) == 2 ? DType.forFeatureKindField(b >>> 3) : null;
                if (kind == null) {
                    throw new ExampleParseException(
                            ParseErrorKind.UNSUPPORTED_KIND,
                            index,
                            key.name,
                            "Unsupported datatype.");
                }
            }
            if (key.isDense()) {
                if (kind == null || col.seenRow == row) {
                    continue;
                }
                col.seenRow = row;
                if (kind != key.dtype) {
                    throw error(
                            records,
                            index,
                            ParseErrorKind.DTYPE_MISMATCH,
                            key,
                            "Data types don't match. Data type: "
                                    + kind.tfName()
                                    + " but expected type: "
                                    + key.dtype.tfName());
                }
                if (key.kind == RawKey.Kind.DENSE_FIXED) {
                    int n = decode(col, buf, start, end, key.stride, index);
                    if (n < 0) {
                        throw error(
                                records,
                                index,
                                ParseErrorKind.MALFORMED,
                                key,
                                "Can't parse serialized Example.");
                    }
                    if (n != key.stride) {
                        throw error(
                                records,
                                index,
                                ParseErrorKind.SHAPE_MISMATCH,
                                key,
                                "Number of "
                                        + key.dtype.listName()
                                        + " values != expected.  Values size: "
                                        + n
                                        + " but output shape: "
                                        + Shapes.format(key.shape));
                    }
                } else {
                    int n = decode(col, buf, start, end, FeatureListDecoder.NO_CAP, index);
                    if (n < 0) {
                        throw error(
                                records,
                                index,
                                ParseErrorKind.MALFORMED,
                                key,
                                "Can't parse serialized Example.");
                    }
                    int total = col.size() - col.minibatchBase;
                    if (total % key.stride != 0) {
                        throw error(
                                records,
                                index,
                                ParseErrorKind.SHAPE_MISMATCH,
                                key,
                                "Number of "
                                        + key.dtype.listName()
                                        + " values is not a multiple of stride length. Saw "
                                        + total
                                        + " values but output shape is: [?"
                                        + (key.shape.isEmpty() ? "" : ",")
                                        + Shapes.format(key.shape).substring(1));
                    }
                    col.ends[row + 1] = col.size();
                }
            } else {
                if (col.seenRow == row) {
                    continue;
                }
                col.seenRow = row;
                if (kind != null && kind != key.dtype) {
                    throw error(
                            records,
                            index,
                            ParseErrorKind.DTYPE_MISMATCH,
                            key,
                            "Data types don't match. Expected type: "
                                    + key.dtype.tfName()
                                    + ", Actual type: "
                                    + kind.tfName());
                }
                if (kind != null) {
                    int n = decode(col, buf, start, end, FeatureListDecoder.NO_CAP, index);
                    if (n < 0) {
                        throw error(
                                records,
                                index,
                                ParseErrorKind.MALFORMED,
                                key,
                                "Can't parse serialized Example.");
                    }
                }
                col.ends[row + 1] = col.size();
            }
        }
        for (KeyColumn col : columns) {
            if (col.seenRow == row) {
                continue;
            }
            RawKey key = col.key;
            if (key.kind == RawKey.Kind.DENSE_FIXED) {
                if (key.defaultValue == null || key.defaultValue.size() == 0) {
                    if (name == null) {
                        name = records.name(index);
                    }
                    throw new ExampleParseException(
                            ParseErrorKind.REQUIRED_MISSING,
                            index,
                            key.name,
                            "Name: "
                                    + name
                                    + ", Feature: "
                                    + key.name
                                    + " (data type: "
                                    + key.dtype.tfName()
                                    + ") is required but could not be found.");
                }
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

    /** Decodes one feature's values into {@code col}; returns the count or -1 when malformed. */
    private int decode(KeyColumn col, byte[] buf, int start, int end, int cap, int index)
            throws ParseLimitException {
        WireCursor c = cursor;
        c.reset(buf, start + 1, end);
        int n;
        switch (col.key.dtype) {
            case INT64:
                n = FeatureListDecoder.int64List(c, col.int64s, cap);
                break;
            case FLOAT32:
                n = FeatureListDecoder.floatList(c, col.floats, cap);
                break;
            default:
                n = FeatureListDecoder.bytesList(c, col.bytes, cap, limits.maxBytesPerValue());
                if (n == -2) {
                    throw new ParseLimitException(
                            index,
                            col.key.name,
                            "maxBytesPerValue",
                            "record "
                                    + index
                                    + ": feature '"
                                    + col.key.name
                                    + "' has a value of "
                                    + c.value
                                    + " bytes, exceeds maxBytesPerValue ("
                                    + limits.maxBytesPerValue()
                                    + ")");
                }
        }
        if (n > limits.maxValuesPerFeature()) {
            throw new ParseLimitException(
                    index,
                    col.key.name,
                    "maxValuesPerFeature",
                    "record "
                            + index
                            + ": feature '"
                            + col.key.name
                            + "' has "
                            + n
                            + " values, exceeds maxValuesPerFeature ("
                            + limits.maxValuesPerFeature()
                            + ")");
        }
        return n;
    }

    private static ExampleParseException error(
            SerializedRecords records, int index, ParseErrorKind kind, RawKey key, String suffix) {
        return new ExampleParseException(
                kind,
                index,
                key.name,
                "Name: "
                        + records.name(index)
                        + ", Key: "
                        + key.name
                        + ", Index: "
                        + index
                        + ".  "
                        + suffix);
    }
}
