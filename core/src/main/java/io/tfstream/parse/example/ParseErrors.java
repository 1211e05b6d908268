package io.tfstream.parse.example;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseErrorKind;
import io.tfstream.parse.ParseLimitException;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.wire.RawKey;
import io.tfstream.spec.DType;
import io.tfstream.spec.Shapes;
import java.nio.charset.StandardCharsets;

/**
 * The errors of a batch parse: TensorFlow's status texts of {@code FastParseSerializedExample} (TF
 * 2.18, note the two spaces after {@code Index: i.}) and the {@link ParseLimits} violations, each
 * naming the record index, the key and, for limits, the value, the limit and its setting.
 */
final class ParseErrors {
    private ParseErrors() {}

    /** The record bytes are quoted verbatim, decoded as UTF-8 with replacement characters. */
    static ExampleParseException malformed(int index, byte[] buf, int off, int len) {
        return new ExampleParseException(
                ParseErrorKind.MALFORMED,
                index,
                null,
                "Could not parse example input, value: '"
                        + new String(buf, off, len, StandardCharsets.UTF_8)
                        + "'");
    }

    static ExampleParseException unsupportedKind(int index, RawKey key) {
        return new ExampleParseException(
                ParseErrorKind.UNSUPPORTED_KIND, index, key.name, "Unsupported datatype.");
    }

    static ExampleParseException denseDtype(String name, int index, RawKey key, DType actual) {
        return keyed(
                ParseErrorKind.DTYPE_MISMATCH,
                name,
                index,
                key,
                "Data types don't match. Data type: "
                        + actual.tfName()
                        + " but expected type: "
                        + key.dtype.tfName());
    }

    static ExampleParseException sparseDtype(String name, int index, RawKey key, DType actual) {
        return keyed(
                ParseErrorKind.DTYPE_MISMATCH,
                name,
                index,
                key,
                "Data types don't match. Expected type: "
                        + key.dtype.tfName()
                        + ", Actual type: "
                        + actual.tfName());
    }

    static ExampleParseException cantParse(String name, int index, RawKey key) {
        return keyed(ParseErrorKind.MALFORMED, name, index, key, "Can't parse serialized Example.");
    }

    static ExampleParseException count(String name, int index, RawKey key, int n) {
        return keyed(
                ParseErrorKind.SHAPE_MISMATCH,
                name,
                index,
                key,
                "Number of "
                        + key.dtype.listName()
                        + " values != expected.  Values size: "
                        + n
                        + " but output shape: "
                        + Shapes.format(key.shape));
    }

    /** {@code n} is the kernel's per-minibatch value count, not only this record's. */
    static ExampleParseException notMultiple(String name, int index, RawKey key, int n) {
        String step = Shapes.format(key.shape).substring(1);
        return keyed(
                ParseErrorKind.SHAPE_MISMATCH,
                name,
                index,
                key,
                "Number of "
                        + key.dtype.listName()
                        + " values is not a multiple of stride length. Saw "
                        + n
                        + " values but output shape is: [?"
                        + (key.shape.isEmpty() ? "" : ",")
                        + step);
    }

    static ExampleParseException required(String name, int index, RawKey key) {
        return new ExampleParseException(
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

    static ParseLimitException recordTooLarge(int index, int len, ParseLimits limits) {
        return limit(
                index,
                null,
                "maxRecordBytes",
                "record " + index + " has " + len + " bytes",
                limits.maxRecordBytes());
    }

    static ParseLimitException tooManyFeatures(int index, long n, ParseLimits limits) {
        return limit(
                index,
                null,
                "maxFeaturesPerExample",
                "record " + index + " has " + n + " features",
                limits.maxFeaturesPerExample());
    }

    static ParseLimitException tooManyValues(int index, RawKey key, long n, ParseLimits limits) {
        return limit(
                index,
                key.name,
                "maxValuesPerFeature",
                "record " + index + ": feature '" + key.name + "' has " + n + " values",
                limits.maxValuesPerFeature());
    }

    static ParseLimitException valueTooLong(int index, RawKey key, long len, ParseLimits limits) {
        return limit(
                index,
                key.name,
                "maxBytesPerValue",
                "record " + index + ": feature '" + key.name + "' has a value of " + len + " bytes",
                limits.maxBytesPerValue());
    }

    private static ParseLimitException limit(
            int index, String key, String setting, String what, int limit) {
        return new ParseLimitException(
                index, key, setting, what + ", exceeds " + setting + " (" + limit + ")");
    }

    private static ExampleParseException keyed(
            ParseErrorKind kind, String name, int index, RawKey key, String suffix) {
        return new ExampleParseException(
                kind,
                index,
                key.name,
                "Name: " + name + ", Key: " + key.name + ", Index: " + index + ".  " + suffix);
    }
}
