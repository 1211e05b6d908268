package io.tfstream.parse.wire;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A reader over serialized protobuf bytes with the exact semantics of protobuf's C++ {@code
 * CodedInputStream} as TensorFlow's fast parser uses it: limits only ever shrink (a declared length
 * beyond the enclosing limit is clamped to it), varints of up to ten bytes, 32-bit reads keep the
 * low bits. Nothing is allocated; lengths read from the input are only compared, never used to size
 * anything.
 */
public final class WireCursor {
    private static final VarHandle LE_INT =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LE_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    public byte[] buf;
    public int pos;
    public int limit;

    /** The value of the last successful varint or fixed-width read. */
    public long value;

    public void reset(byte[] buf, int start, int end) {
        this.buf = buf;
        this.pos = start;
        this.limit = end;
    }

    public boolean atEnd() {
        return pos >= limit;
    }

    public int remaining() {
        return limit - pos;
    }

    /** Consumes {@code tag} if it is the next byte. */
    public boolean expectTag(int tag) {
        if (pos < limit && buf[pos] == (byte) tag) {
            pos++;
            return true;
        }
        return false;
    }

    /** The next byte without consuming it, or 0 at the limit. */
    public int peek() {
        return pos < limit ? buf[pos] & 0xff : 0;
    }

    /** A varint of up to ten bytes; bits beyond 64 are dropped, as protobuf does. */
    public boolean readVarint64() {
        int p = pos;
        int lim = limit;
        if (p < lim) {
            byte b = buf[p];
            if (b >= 0) {
                value = b;
                pos = p + 1;
                return true;
            }
            if (p + 10 <= lim && p + 10 <= buf.length) {
                return readVarint64Fast(p);
            }
        }
        long result = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            if (p >= lim) {
                return false;
            }
            byte b = buf[p++];
            if (shift < 64) {
                result |= (long) (b & 0x7f) << shift;
            }
            if (b >= 0) {
                value = result;
                pos = p;
                return true;
            }
        }
        return false;
    }

    /**
     * The multi-byte varint at {@code p}, ten bytes being inside the limit: the first eight bytes
     * are decoded as one word (the 7-bit groups compacted by shifts), the ninth and tenth one by
     * one; the tenth contributes its lowest bit only.
     */
    private boolean readVarint64Fast(int p) {
        long w = (long) LE_LONG.get(buf, p);
        long stops = ~w & 0x8080808080808080L;
        if (stops != 0) {
            int n = (Long.numberOfTrailingZeros(stops) >>> 3) + 1;
            value = compact7(w & (-1L >>> (64 - (n << 3))));
            pos = p + n;
            return true;
        }
        long result = compact7(w);
        byte b = buf[p + 8];
        result |= (long) (b & 0x7f) << 56;
        if (b >= 0) {
            value = result;
            pos = p + 9;
            return true;
        }
        b = buf[p + 9];
        if (b < 0) {
            return false;
        }
        value = result | (long) b << 63;
        pos = p + 10;
        return true;
    }

    /** Concatenates the low 7 bits of the 8 little-endian bytes of {@code w} into 56 bits. */
    public static long compact7(long w) {
        long x = w & 0x7f7f7f7f7f7f7f7fL;
        x = ((x & 0x7f007f007f007f00L) >>> 1) | (x & 0x007f007f007f007fL);
        x = ((x & 0x3fff00003fff0000L) >>> 2) | (x & 0x00003fff00003fffL);
        return ((x & 0x0fffffff00000000L) >>> 4) | (x & 0x000000000fffffffL);
    }

    /** How many bytes of {@code [from, to)} end a varint (have the high bit clear). */
    int countVarintEnds(int from, int to) {
        byte[] b = buf;
        int n = 0;
        int i = from;
        for (; to - i >= 8; i += 8) {
            n += Long.bitCount(~(long) LE_LONG.get(b, i) & 0x8080808080808080L);
        }
        for (; i < to; i++) {
            n += ~b[i] >>> 31;
        }
        return n;
    }

    /** A varint read as {@code ReadVarint32}: up to ten bytes, keeping the low 32 bits unsigned. */
    public boolean readVarint32() {
        if (!readVarint64()) {
            return false;
        }
        value &= 0xffffffffL;
        return true;
    }

    /** {@code ReadTag}: 0 at the limit or on a bad varint (then nothing is consumed). */
    public int readTag() {
        if (pos >= limit) {
            return 0;
        }
        int save = pos;
        if (!readVarint32()) {
            pos = save;
            return 0;
        }
        return (int) value;
    }

    public boolean readLittleEndian32() {
        if (limit - pos < 4) {
            return false;
        }
        value = (int) LE_INT.get(buf, pos) & 0xffffffffL;
        pos += 4;
        return true;
    }

    boolean readLittleEndian64() {
        if (limit - pos < 8) {
            return false;
        }
        long lo = (int) LE_INT.get(buf, pos) & 0xffffffffL;
        long hi = (int) LE_INT.get(buf, pos + 4) & 0xffffffffL;
        value = lo | (hi << 32);
        pos += 8;
        return true;
    }

    /** Reads a little-endian float at {@code p} without bounds semantics; caller checked. */
    float floatAt(int p) {
        return Float.intBitsToFloat((int) LE_INT.get(buf, p));
    }

    /**
     * {@code PushLimit(length)} with {@code length} as the C++ {@code int} it becomes: the limit
     * shrinks to {@code pos + length} only if that is inside the current limit. Returns the old
     * limit for {@link #popLimit(int)}.
     */
    public int pushLimit(long uint32Length) {
        int old = limit;
        if (uint32Length <= Integer.MAX_VALUE && uint32Length < (long) limit - pos) {
            limit = pos + (int) uint32Length;
        }
        return old;
    }

    public void popLimit(int oldLimit) {
        limit = oldLimit;
    }

    /**
     * {@code Skip(count)} with a C++ {@code int} count: a negative count fails without moving; a
     * count beyond the limit moves to the limit and fails.
     */
    public boolean skip(long uint32Count) {
        if (uint32Count > Integer.MAX_VALUE) {
            return false;
        }
        if (uint32Count <= limit - pos) {
            pos += (int) uint32Count;
            return true;
        }
        pos = limit;
        return false;
    }

    /** Skips one field of an unknown tag as TensorFlow's {@code SkipExtraneousTag} does. */
    public boolean skipExtraneousTag() {
        switch (readTag() & 7) {
            case 0:
                return readVarint32();
            case 1:
                return readLittleEndian64();
            case 2:
                if (!readVarint32()) {
                    return false;
                }
                skip(value); // the result is ignored upstream: a short field skips to the end
                return true;
            case 5:
                return readLittleEndian32();
            default:
                return false; // groups (3, 4) and unknown wire types
        }
    }
}
