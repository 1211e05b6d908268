package io.tfstream.parse.wire;

import io.tfstream.parse.ParseLimits;
import io.tfstream.tensor.Int64Buffer;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The one-value feature as protobuf writers lay it out, appended without the general list decoder:
 * kind byte, list length, then one field (tag 0x0a) holding exactly one int64 varint, one float or
 * one non-empty string, every length in one byte and the field filling the feature exactly. Any
 * other layout is declined having appended nothing, and {@link FeatureListDecoder} decides; for
 * this layout both give the same single value.
 *
 * <p>The pieces are small on purpose: the one-pass parser calls them for almost every entry and
 * they must stay small enough for the JIT to inline into its scan loop.
 */
public final class ScalarFeature {
    public static final VarHandle LE_INT =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private static final VarHandle LE_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private static final long HIGH_BITS = 0x8080808080808080L;

    /** Where the payload of a one-value feature starts, relative to the kind byte. */
    public static final int PAYLOAD = 4;

    private ScalarFeature() {}

    /**
     * The payload length of the one-value layout of the feature {@code buf[start, end)} (kind byte
     * included): 1 to 127, or -1 for any other layout.
     */
    public static int payloadLength(byte[] buf, int start, int end) {
        int inner = end - start - PAYLOAD;
        if (inner < 1
                || inner > 127
                || buf[start + 1] != inner + 2
                || buf[start + 2] != 0x0a
                || buf[start + 3] != inner) {
            return -1;
        }
        return inner;
    }

    /**
     * Appends the varint filling {@code buf[p, end)} exactly; false (nothing appended) when the
     * bytes are not one varint of at most ten bytes.
     */
    public static boolean appendInt64(Int64Buffer out, byte[] buf, int p, int end) {
        int n = end - p;
        if (n > 10) {
            return false;
        }
        if (p + 8 <= buf.length) {
            // Word at a time: the continuation bits must be set on all but the last byte.
            long w = (long) LE_LONG.get(buf, p);
            if (n <= 8) {
                long mask = -1L >>> (64 - (n << 3));
                w &= mask;
                if ((w & HIGH_BITS) != (HIGH_BITS & (mask >>> 8))) {
                    return false;
                }
                out.add(WireCursor.compact7(w));
                return true;
            }
            if ((w & HIGH_BITS) != HIGH_BITS) {
                return false;
            }
            long v = WireCursor.compact7(w);
            byte b8 = buf[p + 8];
            if (n == 9) {
                if (b8 < 0) {
                    return false;
                }
                out.add(v | (long) b8 << 56);
                return true;
            }
            byte b9 = buf[p + 9];
            if (b8 >= 0 || b9 < 0) {
                return false;
            }
            out.add(v | (long) (b8 & 0x7f) << 56 | (long) b9 << 63);
            return true;
        }
        long v = 0;
        int shift = 0;
        int last = end - 1;
        for (; p < last; p++, shift += 7) {
            byte b = buf[p];
            if (b >= 0) {
                return false;
            }
            v |= (long) (b & 0x7f) << shift;
        }
        byte b = buf[last];
        if (b < 0) {
            return false;
        }
        // As protobuf: of a tenth byte only the lowest bit lands (at bit 63).
        out.add(v | (long) b << shift);
        return true;
    }

    public static float floatAt(byte[] buf, int p) {
        return Float.intBitsToFloat((int) LE_INT.get(buf, p));
    }

    /**
     * Appends the single value of the feature {@code buf[start, end)} (kind byte included, of the
     * column's dtype) to {@code col}; false when the layout is not the canonical one-value layout
     * or a limit below one value applies.
     */
    public static boolean tryAppend(
            KeyColumn col, byte[] buf, int start, int end, ParseLimits limits) {
        int inner = payloadLength(buf, start, end);
        if (inner < 0 || limits.maxValuesPerFeature() < 1) {
            return false;
        }
        int p = start + PAYLOAD;
        switch (col.kindByte) {
            case 0x12: // float_list: exactly four bytes
                if (inner != 4) {
                    return false;
                }
                col.floats.add(floatAt(buf, p));
                return true;
            case 0x1a: // int64_list: one varint ending at the last byte
                return appendInt64(col.int64s, buf, p, end);
            default: // bytes_list: the field is the one string
                if (inner > limits.maxBytesPerValue()) {
                    return false;
                }
                col.bytes.add(buf, p, inner);
                return true;
        }
    }

    /**
     * Appends the one value of a one-value feature whose payload is {@code b[vp, vp + inner)} to
     * {@code col}: a varint filling it exactly, four bytes of a float, or a string within the
     * limit. Returns the column's new size, or -1 (nothing appended) when the payload is not that.
     */
    public static int appendPayload(
            KeyColumn col, byte[] b, int vp, int inner, int maxBytesPerValue) {
        byte kind = col.kindByte;
        if (kind == 0x1a) {
            if (inner <= 8) {
                if (vp + 8 <= b.length) {
                    long mask = -1L >>> (64 - (inner << 3));
                    long w = (long) LE_LONG.get(b, vp) & mask;
                    if ((w & HIGH_BITS) == (HIGH_BITS & (mask >>> 8))) {
                        col.int64s.add(WireCursor.compact7(w));
                        return col.int64s.size();
                    }
                }
            } else if (inner <= 10) {
                // Nine or ten bytes (large and negative values): the word holds the first eight.
                long w = (long) LE_LONG.get(b, vp);
                byte b8 = b[vp + 8];
                byte b9 = inner == 10 ? b[vp + 9] : 0;
                if ((w & HIGH_BITS) == HIGH_BITS && (inner == 9 ? b8 >= 0 : b8 < 0 && b9 >= 0)) {
                    // Of a tenth byte only the lowest bit lands.
                    col.int64s.add(
                            WireCursor.compact7(w) | (long) (b8 & 0x7f) << 56 | (long) b9 << 63);
                    return col.int64s.size();
                }
            }
            return -1;
        }
        if (kind == 0x12) {
            if (inner != 4) {
                return -1;
            }
            col.floats.add(ScalarFeature.floatAt(b, vp));
            return col.floats.size();
        }
        if (inner > maxBytesPerValue) {
            return -1;
        }
        col.bytes.add(b, vp, inner);
        return col.bytes.size();
    }
}
