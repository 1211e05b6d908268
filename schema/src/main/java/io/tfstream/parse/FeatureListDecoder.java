package io.tfstream.parse;

import io.tfstream.tensor.BytesBuffer;
import io.tfstream.tensor.Float32Buffer;
import io.tfstream.tensor.Int64Buffer;

/**
 * Decodes the value list of one serialized {@code tensorflow.Feature} exactly as TensorFlow's fast
 * parser ({@code parsed::Feature::Parse*List}) does: the list message length is clamped to the
 * feature, packed or unpacked is decided by the first element's tag, a packed list stops after its
 * first packed field, and trailing bytes after it are ignored.
 *
 * <p>Each method appends to {@code out} and returns the number of values the list holds, or -1 when
 * TensorFlow's decoder fails. With a {@code cap} (a fixed-shape output of that many values), values
 * past the cap are counted but not stored, as TensorFlow's {@code LimitedArraySlice}; a bytes list
 * fails when it exceeds the cap. The cursor must be positioned just after the kind byte with its
 * limit at the end of the feature.
 */
final class FeatureListDecoder {
    static final int NO_CAP = Integer.MAX_VALUE;

    private FeatureListDecoder() {}

    static int int64List(WireCursor c, Int64Buffer out, int cap) {
        if (!c.readVarint32()) {
            return -1;
        }
        c.pushLimit(c.value);
        if (c.atEnd()) {
            return 0;
        }
        int peek = c.peek();
        int count = 0;
        int base = out.size();
        if (peek == 0x0a) {
            c.pos++;
            if (!c.readVarint32()) {
                return -1;
            }
            int outer = c.pushLimit(c.value);
            byte[] buf = c.buf;
            int p = c.pos;
            int lim = c.limit;
            // Fast path: single-byte varints straight into the column.
            while (p < lim) {
                byte b = buf[p];
                if (b < 0) {
                    c.pos = p;
                    if (!c.readVarint64()) {
                        return -1;
                    }
                    p = c.pos;
                    if (count < cap) {
                        out.add(c.value);
                    }
                } else {
                    p++;
                    if (count < cap) {
                        out.add(b);
                    }
                }
                count++;
            }
            c.pos = p;
            c.popLimit(outer);
        } else if (peek == 0x08) {
            while (!c.atEnd()) {
                if (!c.expectTag(0x08) || !c.readVarint64()) {
                    return -1;
                }
                if (count < cap) {
                    out.add(c.value);
                }
                count++;
            }
        } else {
            return -1;
        }
        assert out.size() - base == Math.min(count, cap);
        return count;
    }

    static int floatList(WireCursor c, Float32Buffer out, int cap) {
        if (!c.readVarint32()) {
            return -1;
        }
        c.pushLimit(c.value);
        if (c.atEnd()) {
            return 0;
        }
        int peek = c.peek();
        if (peek == 0x0a) {
            c.pos++;
            if (!c.readVarint32()) {
                return -1;
            }
            long declared = c.value;
            c.pushLimit(declared);
            // TensorFlow sizes the list from the declared length and copies what fits the
            // output; only bytes actually present are read here.
            long n = declared / 4;
            int stored = (int) Math.min(n, cap);
            long toCopy = Math.min((long) stored * 4, declared);
            if (toCopy > c.remaining()) {
                return -1;
            }
            if (n > Integer.MAX_VALUE) {
                return -1;
            }
            int at = out.reserve(stored);
            float[] dst = out.array();
            int p = c.pos;
            for (int i = 0; i < stored; i++) {
                dst[at + i] = c.floatAt(p);
                p += 4;
            }
            c.pos = p;
            return (int) n;
        } else if (peek == 0x0d) {
            int n = c.remaining() / 5;
            int count = 0;
            while (!c.atEnd()) {
                if (!c.expectTag(0x0d) || !c.readLittleEndian32()) {
                    return -1;
                }
                if (count < cap) {
                    out.add(Float.intBitsToFloat((int) c.value));
                }
                count++;
            }
            return n;
        } else {
            return -1;
        }
    }

    /**
     * Decodes a bytes list. {@code maxBytesPerValue} is checked before a value is copied; a
     * violation returns -2 with the offending length in {@code c.value}.
     */
    static int bytesList(WireCursor c, BytesBuffer out, int cap, int maxBytesPerValue) {
        if (!c.readVarint32()) {
            return -1;
        }
        c.pushLimit(c.value);
        int count = 0;
        while (!c.atEnd()) {
            if (!c.expectTag(0x0a) || !c.readVarint32()) {
                return -1;
            }
            if (count >= cap) {
                return -1;
            }
            long len = c.value;
            if (len > c.remaining()) {
                return -1;
            }
            if (len > maxBytesPerValue) {
                return -2;
            }
            out.add(c.buf, c.pos, (int) len);
            c.pos += (int) len;
            count++;
        }
        return count;
    }
}
