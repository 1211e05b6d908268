package io.tfstream.parse.sequence;

import static io.tfstream.parse.sequence.SequenceExampleScanner.CONTEXT;
import static io.tfstream.parse.sequence.SequenceExampleScanner.LISTS;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseErrorKind;
import io.tfstream.parse.ParseLimitException;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.sequence.SequenceParsePlan.Key;
import io.tfstream.parse.sequence.SequenceParsePlan.Kind;
import io.tfstream.parse.wire.WireCursor;
import java.util.List;

/**
 * The counting pass of TensorFlow's {@code FastParseSequenceExample} ({@code
 * GetContextFeatureLengths}, {@code GetSequenceFeatureLengths}): checks every requested feature's
 * kind and sums or maxes its value counts so that outputs can be sized before anything is copied.
 * The {@link ParseLimits} per-feature limits are enforced here, before allocation.
 */
final class SequenceCounter {
    private SequenceCounter() {}

    /** Dense: max count (starting at the default's size); sparse and ragged: total count. */
    static void countContext(SequenceBatchState in, List<Key> keys, long[] out)
            throws ExampleParseException {
        for (int k = 0; k < keys.size(); k++) {
            Key key = keys.get(k);
            long length =
                    key.kind == Kind.DENSE && key.defaultValue != null
                            ? key.defaultValue.size()
                            : 0;
            for (int e = 0; e < in.records; e++) {
                if (!in.hasBytes(CONTEXT, k, e)) {
                    continue;
                }
                WireCursor c = in.open(CONTEXT, k, e);
                int n = in.read(key.dtype, null);
                if (n == SequenceValueReader.TOO_LONG) {
                    throw tooLong(key, e, c.value, in.limits);
                }
                if (n < 0) {
                    throw SequenceBatchState.error(
                            ParseErrorKind.DTYPE_MISMATCH,
                            e,
                            key.name,
                            "Name: "
                                    + in.name(e)
                                    + ", Context feature: "
                                    + key.name
                                    + ".  Data types don't match. Expected type: "
                                    + key.dtype.tfName());
                }
                checkValues(key, e, n, in.limits);
                length = key.kind == Kind.DENSE ? Math.max(length, n) : length + n;
            }
            out[k] = length;
        }
    }

    /**
     * Dense: max total values of one example; sparse and ragged: total values, and for ragged the
     * total number of steps in {@code rowsOut}.
     */
    static void countLists(SequenceBatchState in, List<Key> keys, long[] out, long[] rowsOut)
            throws ExampleParseException {
        for (int k = 0; k < keys.size(); k++) {
            Key key = keys.get(k);
            long length = 0;
            long totalRows = 0;
            for (int e = 0; e < in.records; e++) {
                if (!in.hasBytes(LISTS, k, e)) {
                    continue;
                }
                WireCursor c = in.open(LISTS, k, e);
                long rows = 0;
                long elements = 0;
                while (!c.atEnd()) {
                    long bytes = SequenceListAssembler.step(c, key, in, e);
                    if (bytes > 2) {
                        int outer = c.pushLimit(bytes);
                        int n = in.read(key.dtype, null);
                        if (n == SequenceValueReader.TOO_LONG) {
                            throw tooLong(key, e, c.value, in.limits);
                        }
                        if (n < 0) {
                            throw mismatch(key, in, e, rows);
                        }
                        elements += n;
                        c.popLimit(outer);
                    } else if (bytes == 2) {
                        if (!SequenceValueReader.skipEmpty(c, key.dtype)) {
                            throw mismatch(key, in, e, rows);
                        }
                    } else if (bytes != 0) {
                        throw SequenceListAssembler.stepError(key, in, e);
                    }
                    rows++;
                }
                checkValues(key, e, elements, in.limits);
                if (key.kind == Kind.DENSE) {
                    length = Math.max(length, elements);
                } else {
                    length += elements;
                    totalRows += rows;
                }
            }
            out[k] = length;
            rowsOut[k] = totalRows;
        }
    }

    private static ExampleParseException mismatch(Key key, SequenceBatchState in, int e, long row) {
        return SequenceBatchState.error(
                ParseErrorKind.DTYPE_MISMATCH,
                e,
                key.name,
                "Name: "
                        + in.name(e)
                        + ", Feature list: "
                        + key.name
                        + ", Index: "
                        + row
                        + ".  Data types don't match. Expected type: "
                        + key.dtype.tfName());
    }

    private static void checkValues(Key key, int e, long n, ParseLimits limits)
            throws ParseLimitException {
        if (n > limits.maxValuesPerFeature()) {
            throw new ParseLimitException(
                    e,
                    key.name,
                    "maxValuesPerFeature",
                    "record "
                            + e
                            + ": feature '"
                            + key.name
                            + "' has "
                            + n
                            + " values, exceeds maxValuesPerFeature ("
                            + limits.maxValuesPerFeature()
                            + ")");
        }
    }

    private static ParseLimitException tooLong(Key key, int e, long len, ParseLimits limits) {
        return new ParseLimitException(
                e,
                key.name,
                "maxBytesPerValue",
                "record "
                        + e
                        + ": feature '"
                        + key.name
                        + "' has a value of "
                        + len
                        + " bytes, exceeds maxBytesPerValue ("
                        + limits.maxBytesPerValue()
                        + ")");
    }
}
