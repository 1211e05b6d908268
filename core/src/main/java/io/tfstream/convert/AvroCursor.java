package io.tfstream.convert;

/**
 * Reads Avro binary encoding from a byte range without copying: zig-zag varints, little-endian
 * floats and doubles, length-prefixed bytes and strings (whose bytes stay in the input: {@link
 * #start()} and {@link #length()} of the last one read), and array or map block counts. Every
 * length is checked against the bytes left before anything is read or allocated; a read past the
 * end or a malformed varint is a {@link ConversionException} at the cursor's field path.
 */
final class AvroCursor {
    private byte[] buf;
    private int pos;
    private int limit;
    private int start;
    private int length;
    private String at = ConversionException.RECORD;

    void wrap(byte[] b, int off, int len) {
        buf = b;
        pos = off;
        limit = off + len;
    }

    /** The field path errors name. */
    void at(String path) {
        at = path;
    }

    String at() {
        return at;
    }

    boolean atEnd() {
        return pos == limit;
    }

    int remaining() {
        return limit - pos;
    }

    byte[] buffer() {
        return buf;
    }

    /** Start of the last bytes or string read, in {@link #buffer()}. */
    int start() {
        return start;
    }

    /** Length of the last bytes or string read. */
    int length() {
        return length;
    }

    long readLong() throws ConversionException {
        int p0 = pos;
        if (p0 < limit) {
            // Most values (union branches, counts, small ints) are one byte.
            long first = buf[p0];
            if (first >= 0) {
                pos = p0 + 1;
                return (first >>> 1) ^ -(first & 1);
            }
        }
        if (limit - pos >= 10) {
            // Fast path: no bounds check per byte; most values are one or two bytes.
            byte[] b = buf;
            int p = pos;
            long raw = b[p++];
            if (raw >= 0) {
                pos = p;
                return (raw >>> 1) ^ -(raw & 1);
            }
            raw &= 0x7F;
            for (int shift = 7; shift <= 63; shift += 7) {
                long x = b[p++];
                raw |= (x & 0x7F) << shift;
                if (x >= 0) {
                    pos = p;
                    return (raw >>> 1) ^ -(raw & 1);
                }
            }
            throw malformed("a varint longer than 10 bytes");
        }
        return readLongSlow();
    }

    private long readLongSlow() throws ConversionException {
        long raw = 0;
        int shift = 0;
        while (true) {
            if (pos == limit) {
                throw truncated();
            }
            int b = buf[pos++];
            raw |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                break;
            }
            shift += 7;
            if (shift > 63) {
                throw malformed("a varint longer than 10 bytes");
            }
        }
        return (raw >>> 1) ^ -(raw & 1);
    }

    int readInt() throws ConversionException {
        long v = readLong();
        if (v != (int) v) {
            throw malformed("int value " + v + " out of the int range");
        }
        return (int) v;
    }

    boolean readBoolean() throws ConversionException {
        if (pos == limit) {
            throw truncated();
        }
        int b = buf[pos++];
        if (b != 0 && b != 1) {
            throw malformed("boolean byte " + b);
        }
        return b == 1;
    }

    float readFloat() throws ConversionException {
        return Float.intBitsToFloat(readFixedInt());
    }

    double readDouble() throws ConversionException {
        long lo = readFixedInt() & 0xFFFFFFFFL;
        long hi = readFixedInt() & 0xFFFFFFFFL;
        return Double.longBitsToDouble(lo | (hi << 32));
    }

    private int readFixedInt() throws ConversionException {
        if (limit - pos < 4) {
            throw truncated();
        }
        int v =
                (buf[pos] & 0xFF)
                        | (buf[pos + 1] & 0xFF) << 8
                        | (buf[pos + 2] & 0xFF) << 16
                        | (buf[pos + 3] & 0xFF) << 24;
        pos += 4;
        return v;
    }

    /** Reads a length-prefixed bytes or string value; see {@link #start()}, {@link #length()}. */
    void readBytes() throws ConversionException {
        long n = readLong();
        if (n < 0 || n > limit - pos) {
            throw malformed("a length of " + n + " with " + (limit - pos) + " bytes left");
        }
        start = pos;
        length = (int) n;
        pos += length;
    }

    /** Reads {@code n} bytes of a fixed; see {@link #start()}. */
    void readFixed(int n) throws ConversionException {
        if (n > limit - pos) {
            throw truncated();
        }
        start = pos;
        length = n;
        pos += n;
    }

    /** The item count of the next array or map block (0: the end); skips a block's byte size. */
    long readBlockCount() throws ConversionException {
        long n = readLong();
        if (n < 0) {
            readLong(); // the block's size in bytes
            n = -n;
        }
        if (n < 0 || n > limit - pos + 1L) {
            throw malformed("a block of " + n + " items with " + (limit - pos) + " bytes left");
        }
        return n;
    }

    private ConversionException truncated() {
        return new ConversionException(at, "Avro does not decode: the record ends early");
    }

    private ConversionException malformed(String what) {
        return new ConversionException(at, "Avro does not decode: " + what);
    }
}
