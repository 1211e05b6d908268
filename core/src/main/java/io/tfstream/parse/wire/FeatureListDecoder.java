package io.tfstream.parse.wire;

import io.tfstream.parse.ParseLimits;
import io.tfstream.tensor.BytesBuffer;
import io.tfstream.tensor.Float32Buffer;
import io.tfstream.tensor.Int64Buffer;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Decodes the value list of one serialized {@code tensorflow.Feature} exactly as TensorFlow's fast
 * parser ({@code parsed::Feature::ParseInt64List / ParseFloatList / ParseBytesList} in {@code
 * example_proto_fast_parsing.cc}) does: the list length is clamped to the feature, the first
 * element's tag decides packed or unpacked for the whole list, a packed list ends after its first
 * packed field and anything after it is ignored; a packed float list counts {@code declared length
 * / 4} values.
 *
 * <p>Each method appends to {@code out} and returns the number of values the list holds, or a
 * negative code: {@link #MALFORMED} when TensorFlow's decoder fails, {@link #TOO_MANY_VALUES} when
 * the count exceeds {@code maxValues} (count in {@code c.value}), {@link #VALUE_TOO_LONG} when a
 * bytes value exceeds its limit (length in {@code c.value}). With a {@code cap} (a fixed-shape
 * output of that many values), values past the cap are counted but not stored, as TensorFlow's
 * {@code LimitedArraySlice}; a bytes list longer than the cap is malformed. Nothing is reserved
 * before the count is known to be within {@code maxValues}. The cursor must be positioned just
 * after the kind byte with its limit at the end of the feature.
 */
public final class FeatureListDecoder {
    public static final int NO_CAP = Integer.MAX_VALUE;
    public static final int MALFORMED = -1;
    public static final int TOO_MANY_VALUES = -2;
    public static final int VALUE_TOO_LONG = -3;

    private static final VarHandle LE_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private FeatureListDecoder() {}

    /**
     * Decodes the list into {@code col}'s buffer of the column's dtype under {@code limits};
     * returns the value count or one of the status codes.
     */
    public static int decodeInto(WireCursor c, KeyColumn col, int cap, ParseLimits limits) {
        int max = limits.maxValuesPerFeature();
        switch (col.key.dtype) {
            case INT64:
                return int64List(c, col.int64s, cap, max);
            case FLOAT32:
                return floatList(c, col.floats, cap, max);
            default:
                return bytesList(c, col.bytes, cap, max, limits.maxBytesPerValue());
        }
    }

    public static int int64List(WireCursor c, Int64Buffer out, int cap, int maxValues) {
        if (!c.readVarint32()) {
            return MALFORMED;
        }
        c.pushLimit(c.value);
        if (c.atEnd()) {
            return 0;
        }
        if (c.peek() == 0x0a) {
            c.pos++;
            if (!c.readVarint32()) {
                return MALFORMED;
            }
            c.pushLimit(c.value);
            return packedVarints(c, out, cap, maxValues);
        }
        if (c.peek() != 0x08) {
            return MALFORMED;
        }
        int base = out.size();
        int count = 0;
        while (!c.atEnd()) {
            if (!c.expectTag(0x08) || !c.readVarint64()) {
                out.truncate(base);
                return MALFORMED;
            }
            if (count < cap && count < maxValues) {
                out.add(c.value);
            }
            count++;
        }
        if (tooMany(c, count, maxValues)) {
            out.truncate(base);
            return TOO_MANY_VALUES;
        }
        return count;
    }

    /** A packed run of varints up to the cursor's limit; counted first, then decoded in bulk. */
    private static int packedVarints(WireCursor c, Int64Buffer out, int cap, int maxValues) {
        byte[] buf = c.buf;
        int p = c.pos;
        int lim = c.limit;
        int n = c.countVarintEnds(p, lim); // every varint ends in one byte without the high bit
        if (tooMany(c, n, maxValues)) {
            return TOO_MANY_VALUES;
        }
        int stored = Math.min(n, cap);
        int at = out.reserve(stored);
        long[] dst = out.array();
        int k = 0;
        int wordEnd = Math.min(lim, buf.length - 7); // a word can be loaded at p < wordEnd
        while (p < lim) {
            long v;
            long stops;
            if (p < wordEnd
                    && (stops = ~(v = (long) LE_LONG.get(buf, p)) & 0x8080808080808080L) != 0) {
                // One to eight bytes, decoded from one word without a branch on the length.
                int len = (Long.numberOfTrailingZeros(stops) >>> 3) + 1;
                if (p + len > lim) {
                    out.truncate(at);
                    return MALFORMED; // the last varint runs past the field
                }
                v = WireCursor.compact7(v & (-1L >>> (64 - (len << 3))));
                p += len;
            } else if ((v = buf[p]) >= 0) {
                p++;
            } else {
                c.pos = p;
                if (!c.readVarint64()) {
                    out.truncate(at);
                    return MALFORMED;
                }
                v = c.value;
                p = c.pos;
            }
            if (k < stored) {
                dst[at + k] = v;
            }
            k++;
        }
        c.pos = p;
        return n;
    }

    public static int floatList(WireCursor c, Float32Buffer out, int cap, int maxValues) {
        if (!c.readVarint32()) {
            return MALFORMED;
        }
        c.pushLimit(c.value);
        if (c.atEnd()) {
            return 0;
        }
        int peek = c.peek();
        if (peek == 0x0a) {
            c.pos++;
            if (!c.readVarint32()) {
                return MALFORMED;
            }
            long declared = c.value;
            c.pushLimit(declared);
            // TensorFlow sizes the list from the declared length and copies only what fits the
            // output, so a short field is fine as long as the copied part is present.
            int n = (int) (declared / 4);
            int stored = Math.min(n, cap);
            if ((long) stored * 4 > c.remaining()) {
                return MALFORMED;
            }
            if (tooMany(c, n, maxValues)) {
                return TOO_MANY_VALUES;
            }
            int at = out.reserve(stored);
            float[] dst = out.array();
            int p = c.pos;
            for (int i = 0; i < stored; i++) {
                dst[at + i] = c.floatAt(p);
                p += 4;
            }
            c.pos = p;
            return n;
        }
        if (peek != 0x0d) {
            return MALFORMED;
        }
        int n = c.remaining() / 5;
        if (tooMany(c, n, maxValues)) {
            return TOO_MANY_VALUES;
        }
        int stored = Math.min(n, cap);
        int at = out.reserve(stored);
        float[] dst = out.array();
        for (int i = 0; !c.atEnd(); i++) {
            if (!c.expectTag(0x0d) || !c.readLittleEndian32()) {
                out.truncate(at);
                return MALFORMED;
            }
            if (i < stored) {
                dst[at + i] = Float.intBitsToFloat((int) c.value);
            }
        }
        return n;
    }

    public static int bytesList(
            WireCursor c, BytesBuffer out, int cap, int maxValues, int maxBytesPerValue) {
        if (!c.readVarint32()) {
            return MALFORMED;
        }
        c.pushLimit(c.value);
        int base = out.size();
        int count = 0;
        while (!c.atEnd()) {
            if (!c.expectTag(0x0a) || !c.readVarint32() || count >= cap) {
                out.truncate(base);
                return MALFORMED;
            }
            long len = c.value;
            if (len > c.remaining()) {
                out.truncate(base);
                return MALFORMED;
            }
            if (len > maxBytesPerValue) {
                out.truncate(base);
                return VALUE_TOO_LONG;
            }
            if (count < maxValues) {
                out.add(c.buf, c.pos, (int) len);
            }
            c.pos += (int) len;
            count++;
        }
        if (tooMany(c, count, maxValues)) {
            out.truncate(base);
            return TOO_MANY_VALUES;
        }
        return count;
    }

    private static boolean tooMany(WireCursor c, int count, int maxValues) {
        if (count > maxValues) {
            c.value = count;
            return true;
        }
        return false;
    }
}
