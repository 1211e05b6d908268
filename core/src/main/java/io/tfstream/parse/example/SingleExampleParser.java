package io.tfstream.parse.example;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseErrorKind;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.wire.FeatureListDecoder;
import io.tfstream.parse.wire.KeyColumn;
import io.tfstream.parse.wire.KeyTable;
import io.tfstream.parse.wire.RawKey;
import io.tfstream.parse.wire.WireCursor;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpecs;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Parses one serialized {@code tf.train.Example} as {@code tf.io.parse_single_example} does: the
 * {@code ParseExampleV2} kernel with a scalar input ({@code FastParseSingleExample} in {@code
 * example_proto_fast_parsing.cc}, TF 2.18) followed by Python's composition of SparseFeature and
 * RaggedFeature outputs. Differences from {@link ExampleBatchParser}: no batch dimension, a {@code
 * Feature{}} entry is skipped for every kind of key (an earlier entry with a kind wins, else the
 * key is missing), and the error texts carry neither example name nor index ({@code Key: a. Can't
 * parse serialized Example.}, {@code Feature: a (data type: int64) is required but could not be
 * found.}, {@code Error while parsing feature with key d: number of elements should be divisible by
 * 2, found 3 instead}).
 *
 * <p>Shares the spec lowering and the wire scanner with the batch parser. Not thread-safe: one
 * parser per thread.
 */
public final class SingleExampleParser {
    private final ExampleParsePlan plan;
    private final ParseLimits limits;
    private final KeyColumn[] columns;
    private final ExampleScanner scanner;
    private final WireCursor cursor = new WireCursor();

    private SingleExampleParser(ExampleParsePlan plan, ParseLimits limits) {
        this.plan = plan;
        this.limits = limits;
        List<String> names = new ArrayList<>();
        columns = new KeyColumn[plan.keys.size()];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = new KeyColumn(plan.keys.get(i));
            names.add(plan.keys.get(i).name);
        }
        scanner = new ExampleScanner(new KeyTable(names));
    }

    /**
     * A parser for {@code specs}.
     *
     * @throws IllegalArgumentException with Python's ValueError text when TensorFlow rejects the
     *     spec ({@code Missing features.} for an empty dict)
     */
    public static SingleExampleParser create(FeatureSpecs specs, ParseLimits limits) {
        Objects.requireNonNull(limits, "limits");
        if (specs.isEmpty()) {
            throw new IllegalArgumentException("Missing features.");
        }
        return new SingleExampleParser(ExampleParsePlan.lower(specs), limits);
    }

    public FeatureSpecs specs() {
        return plan.specs;
    }

    /**
     * {@code parse_single_example(buf[off, off + len))}.
     *
     * @throws ExampleParseException with TensorFlow's message (record index 0), or a {@link
     *     ParseLimitException} when the record exceeds a limit
     */
    public ParsedExample parse(byte[] buf, int off, int len) throws ExampleParseException {
        Objects.checkFromIndexSize(off, len, buf.length);
        if (len > limits.maxRecordBytes()) {
            throw ParseErrors.recordTooLarge(0, len, limits);
        }
        for (KeyColumn c : columns) {
            c.start(1, false);
        }
        ExampleScanner s = scanner;
        int scanned = s.scan(buf, off, len, limits.maxFeaturesPerExample());
        if (scanned == ExampleScanner.MALFORMED) {
            throw ParseErrors.malformed(0, buf, off, len);
        } else if (scanned == ExampleScanner.TOO_MANY_ENTRIES) {
            throw ParseErrors.tooManyFeatures(0, s.totalEntries, limits);
        }
        for (int j = s.count - 1; j >= 0; j--) {
            KeyColumn col = columns[s.keyId[j]];
            int start = s.featureStart[j];
            int end = s.featureEnd[j];
            if (start == end) {
                continue;
            }
            DType kind = kindOf(buf[start]);
            if (kind == null) {
                throw ParseErrors.unsupportedKind(0, col.key);
            }
            if (col.seenRow == 0) {
                continue;
            }
            col.seenRow = 0;
            read(col, kind, buf, start, end);
        }
        for (KeyColumn col : columns) {
            if (col.seenRow == 0) {
                continue;
            }
            if (col.key.kind == RawKey.Kind.DENSE_FIXED) {
                if (col.key.required()) {
                    throw new ExampleParseException(
                            ParseErrorKind.REQUIRED_MISSING,
                            0,
                            col.key.name,
                            "Feature: "
                                    + col.key.name
                                    + " (data type: "
                                    + col.key.dtype.tfName()
                                    + ") is required but could not be found.");
                }
                col.appendDefault(col.key.defaultValue);
            } else {
                col.ends[1] = col.size();
            }
        }
        return SingleExampleAssembler.assemble(plan, columns, limits);
    }

    private void read(KeyColumn col, DType kind, byte[] buf, int start, int end)
            throws ExampleParseException {
        RawKey key = col.key;
        if (kind != key.dtype) {
            String text =
                    key.isDense()
                            ? "Data types don't match. Data type: "
                                    + kind.tfName()
                                    + " but expected type: "
                                    + key.dtype.tfName()
                            : "Data types don't match. Expected type: "
                                    + key.dtype.tfName()
                                    + ", Actual type: "
                                    + kind.tfName();
            throw keyError(ParseErrorKind.DTYPE_MISMATCH, key, text);
        }
        if (key.kind == RawKey.Kind.DENSE_FIXED) {
            if (decode(col, buf, start, end, key.stride) != key.stride) {
                throw keyError(
                        ParseErrorKind.SHAPE_MISMATCH, key, "Can't parse serialized Example.");
            }
            return;
        }
        int n = decode(col, buf, start, end, FeatureListDecoder.NO_CAP);
        if (n % key.stride != 0) {
            throw new ExampleParseException(
                    ParseErrorKind.SHAPE_MISMATCH,
                    0,
                    key.name,
                    "Error while parsing feature with key "
                            + key.name
                            + ": number of elements should be divisible by "
                            + key.stride
                            + ", found "
                            + n
                            + " instead");
        }
        col.ends[1] = col.size();
    }

    /** Decodes one feature's values into {@code col}; returns their count. */
    private int decode(KeyColumn col, byte[] buf, int start, int end, int cap)
            throws ExampleParseException {
        WireCursor c = cursor;
        c.reset(buf, start + 1, end);
        int n = FeatureListDecoder.decodeInto(c, col, cap, limits);
        switch (n) {
            case FeatureListDecoder.MALFORMED:
                throw keyError(
                        ParseErrorKind.MALFORMED, col.key, "Can't parse serialized Example.");
            case FeatureListDecoder.TOO_MANY_VALUES:
                throw ParseErrors.tooManyValues(0, col.key, c.value, limits);
            case FeatureListDecoder.VALUE_TOO_LONG:
                throw ParseErrors.valueTooLong(0, col.key, c.value, limits);
            default:
                return n;
        }
    }

    private static ExampleParseException keyError(ParseErrorKind kind, RawKey key, String text) {
        return new ExampleParseException(kind, 0, key.name, "Key: " + key.name + ".  " + text);
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
}
