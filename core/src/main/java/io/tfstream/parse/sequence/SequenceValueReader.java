package io.tfstream.parse.sequence;

import io.tfstream.parse.wire.WireCursor;
import io.tfstream.spec.DType;
import io.tfstream.tensor.BytesBuffer;
import io.tfstream.tensor.Float32Buffer;
import io.tfstream.tensor.Int64Buffer;

/**
 * Reads the value list of one serialized {@code tensorflow.Feature} as the SequenceExample path of
 * TensorFlow's fast parser does ({@code ParseInt64Feature}, {@code ParseFloatFeature}, {@code
 * ParseBytesFeature} in {@code example_proto_fast_parsing.cc}). Unlike the Example path, the kind
 * tag must be the first byte and equal the requested dtype's tag, a packed float list fails on a
 * length that is not a multiple of four, and only the first list is read: bytes after it are left
 * for the caller, which does not skip them.
 *
 * <p>Each method returns the number of values, {@link #MISMATCH} when TensorFlow returns -1, or
 * {@link #TOO_LONG} when a bytes value exceeds the limit (its length is then in {@code c.value}).
 * With a null output only counts: as upstream, a bytes value longer than what remains is then still
 * counted, while reading it fails.
 */
final class SequenceValueReader {
    static final int MISMATCH = -1;
    static final int TOO_LONG = -2;

    private SequenceValueReader() {}

    /** Dispatches on {@code dtype}; {@code out} is the dtype's buffer or null to count only. */
    static int read(
            WireCursor c,
            DType dtype,
            Int64Buffer int64s,
            Float32Buffer floats,
            BytesBuffer bytes,
            int maxBytesPerValue) {
        switch (dtype) {
            case INT64:
                return int64s(c, int64s);
            case FLOAT32:
                return floats(c, floats);
            default:
                return bytes(c, bytes, maxBytesPerValue);
        }
    }

    static int int64s(WireCursor c, Int64Buffer out) {
        if (!c.expectTag(0x1a) || !c.readVarint32()) {
            return MISMATCH;
        }
        if (c.value == 0) {
            return 0;
        }
        int listLimit = c.pushLimit(c.value);
        int n = 0;
        int peek = c.peek();
        if (peek == 0x0a) {
            c.pos++;
            if (!c.readVarint32()) {
                return MISMATCH;
            }
            int packedLimit = c.pushLimit(c.value);
            while (!c.atEnd()) {
                if (!c.readVarint64()) {
                    return MISMATCH;
                }
                if (out != null) {
                    out.add(c.value);
                }
                n++;
            }
            c.popLimit(packedLimit);
        } else if (peek == 0x08) {
            while (!c.atEnd()) {
                if (!c.expectTag(0x08) || !c.readVarint64()) {
                    return MISMATCH;
                }
                if (out != null) {
                    out.add(c.value);
                }
                n++;
            }
        } else {
            return MISMATCH;
        }
        c.popLimit(listLimit);
        return n;
    }

    static int floats(WireCursor c, Float32Buffer out) {
        if (!c.expectTag(0x12) || !c.readVarint32()) {
            return MISMATCH;
        }
        if (c.value == 0) {
            return 0;
        }
        int listLimit = c.pushLimit(c.value);
        int n = 0;
        int peek = c.peek();
        if (peek == 0x0a) {
            c.pos++;
            if (!c.readVarint32()) {
                return MISMATCH;
            }
            int packedLimit = c.pushLimit(c.value);
            while (!c.atEnd()) {
                if (!c.readLittleEndian32()) {
                    return MISMATCH;
                }
                if (out != null) {
                    out.add(Float.intBitsToFloat((int) c.value));
                }
                n++;
            }
            c.popLimit(packedLimit);
        } else if (peek == 0x0d) {
            while (!c.atEnd()) {
                if (!c.expectTag(0x0d) || !c.readLittleEndian32()) {
                    return MISMATCH;
                }
                if (out != null) {
                    out.add(Float.intBitsToFloat((int) c.value));
                }
                n++;
            }
        } else {
            return MISMATCH;
        }
        c.popLimit(listLimit);
        return n;
    }

    static int bytes(WireCursor c, BytesBuffer out, int maxBytesPerValue) {
        if (!c.expectTag(0x0a) || !c.readVarint32()) {
            return MISMATCH;
        }
        if (c.value == 0) {
            return 0;
        }
        int listLimit = c.pushLimit(c.value);
        int n = 0;
        while (!c.atEnd()) {
            if (!c.expectTag(0x0a) || !c.readVarint32()) {
                return MISMATCH;
            }
            long len = c.value;
            if (len > maxBytesPerValue) {
                return TOO_LONG;
            }
            if (out == null) {
                c.skip(len); // upstream ignores a short skip while counting
            } else {
                if (len > c.remaining()) {
                    c.pos = c.limit;
                    return MISMATCH;
                }
                out.add(c.buf, c.pos, (int) len);
                c.pos += (int) len;
            }
            n++;
        }
        c.popLimit(listLimit);
        return n;
    }

    /** {@code SkipEmptyFeature}: exactly the dtype's kind tag followed by a zero length. */
    static boolean skipEmpty(WireCursor c, DType dtype) {
        int tag = (dtype.featureKindField() << 3) | 2;
        return c.expectTag(tag) && c.readVarint32() && c.value == 0;
    }
}
