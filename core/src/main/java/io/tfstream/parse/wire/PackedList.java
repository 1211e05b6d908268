package io.tfstream.parse.wire;

import io.tfstream.tensor.Float32Buffer;
import io.tfstream.tensor.Int64Buffer;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A packed int64 or float list as protobuf writers lay it out, decoded in one loop for the one-pass
 * path: kind byte, list length, then one packed field (tag 0x0a) filling the feature exactly, both
 * lengths in one byte; or an empty list (kind byte, length 0). Any other layout, a varint that does
 * not end inside the field, more values than {@code maxValues} or a record that ends less than a
 * word before its buffer does is declined with the column untouched, and {@link FeatureListDecoder}
 * decides; for this layout both give the same values.
 */
public final class PackedList {
    public static final int DECLINED = -1;

    private static final VarHandle LE_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long HIGH_BITS = 0x8080808080808080L;

    private PackedList() {}

    /**
     * Appends the values of the feature {@code buf[start, end)} (kind byte included, of {@code
     * col}'s dtype, int64 or float) to its column; returns their count or {@link #DECLINED}.
     */
    public static int decode(KeyColumn col, byte[] buf, int start, int end, int maxValues) {
        int inner = end - start - 4;
        if (inner < 1) {
            return end - start == 2 && buf[start + 1] == 0 ? 0 : DECLINED;
        }
        if (inner > 127
                || buf[start + 1] != inner + 2
                || buf[start + 2] != 0x0a
                || buf[start + 3] != inner) {
            return DECLINED;
        }
        int p = start + 4;
        if (col.kindByte == 0x12) {
            return floats(col.floats, buf, p, inner, maxValues);
        }
        return col.kindByte == 0x1a ? varints(col.int64s, buf, p, end, maxValues) : DECLINED;
    }

    private static int floats(Float32Buffer out, byte[] buf, int p, int inner, int maxValues) {
        int n = inner >>> 2;
        if ((inner & 3) != 0 || n > maxValues) {
            return DECLINED;
        }
        int at = out.reserve(n);
        float[] dst = out.array();
        for (int i = 0; i < n; i++) {
            dst[at + i] = ScalarFeature.floatAt(buf, p + (i << 2));
        }
        return n;
    }

    /** Varints filling {@code buf[p, end)}, each read from one word (two for nine or ten bytes). */
    private static int varints(Int64Buffer out, byte[] buf, int p, int end, int maxValues) {
        // As many values as bytes without the high bit: reserving exactly that keeps the column's
        // growth as value-by-value appends would have it.
        int n = 0;
        int i = p;
        for (; end - i >= 8; i += 8) {
            n += Long.bitCount(~(long) LE_LONG.get(buf, i) & HIGH_BITS);
        }
        for (; i < end; i++) {
            n += ~buf[i] >>> 31;
        }
        if (n > maxValues) {
            return DECLINED;
        }
        int at = out.reserve(n);
        long[] dst = out.array();
        int k = at;
        int last = at + n;
        while (p < end) {
            if (k == last) {
                out.truncate(at);
                return DECLINED; // the last varint runs past the field
            }
            if (p + 8 > buf.length) {
                out.truncate(at);
                return DECLINED;
            }
            long w = (long) LE_LONG.get(buf, p);
            long stops = ~w & HIGH_BITS;
            long v;
            if (stops != 0) {
                int len = (Long.numberOfTrailingZeros(stops) >>> 3) + 1;
                v = WireCursor.compact7(w & (-1L >>> (64 - (len << 3))));
                p += len;
            } else {
                if (p + 10 > buf.length) {
                    out.truncate(at);
                    return DECLINED;
                }
                byte b8 = buf[p + 8];
                byte b9 = b8 < 0 ? buf[p + 9] : 0;
                if (b9 < 0) {
                    out.truncate(at);
                    return DECLINED;
                }
                // Of a tenth byte only the lowest bit lands, as in protobuf.
                v = WireCursor.compact7(w) | (long) (b8 & 0x7f) << 56 | (long) b9 << 63;
                p += b8 < 0 ? 10 : 9;
            }
            dst[k++] = v;
        }
        if (p != end) {
            out.truncate(at);
            return DECLINED;
        }
        return n;
    }
}
