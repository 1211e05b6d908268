package io.tfstream.tensor;

import io.tfstream.spec.DType;
import java.util.Arrays;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The flat values of a tensor: int64, float32 or byte strings (back to back with offsets). A column
 * takes over the arrays it is built from; callers must not modify them afterwards. Floats compare
 * by bit pattern, so NaN payloads and -0.0 are compared exactly.
 */
@PublicEvolving
public final class Column {
    private final DType dtype;
    private final int size;
    private final long[] int64s;
    private final float[] floats;
    private final byte[] bytes;
    private final int[] offsets;

    private Column(
            DType dtype, int size, long[] int64s, float[] floats, byte[] bytes, int[] offsets) {
        this.dtype = dtype;
        this.size = size;
        this.int64s = int64s;
        this.floats = floats;
        this.bytes = bytes;
        this.offsets = offsets;
    }

    public static Column ofInt64(long[] values, int size) {
        checkSize(size, values.length);
        return new Column(DType.INT64, size, values, null, null, null);
    }

    public static Column ofFloat32(float[] values, int size) {
        checkSize(size, values.length);
        return new Column(DType.FLOAT32, size, null, values, null, null);
    }

    /** Strings: value {@code i} is {@code data[offsets[i], offsets[i+1])}. */
    public static Column ofBytes(byte[] data, int[] offsets, int size) {
        checkSize(size + 1, offsets.length);
        return new Column(DType.STRING, size, null, null, data, offsets);
    }

    public static Column of(Int64Buffer b) {
        return ofInt64(b.array(), b.size());
    }

    public static Column of(Float32Buffer b) {
        return ofFloat32(b.array(), b.size());
    }

    public static Column of(BytesBuffer b) {
        return ofBytes(b.data(), b.offsets(), b.size());
    }

    /**
     * The column of whichever buffer {@code dtype} reads: {@code int64s} for INT64, {@code floats}
     * for FLOAT32, {@code bytes} otherwise; the other two may be null.
     */
    public static Column of(
            DType dtype, Int64Buffer int64s, Float32Buffer floats, BytesBuffer bytes) {
        switch (dtype) {
            case INT64:
                return of(int64s);
            case FLOAT32:
                return of(floats);
            default:
                return of(bytes);
        }
    }

    public static Column int64s(long... values) {
        return ofInt64(values.clone(), values.length);
    }

    public static Column float32s(float... values) {
        return ofFloat32(values.clone(), values.length);
    }

    public static Column strings(byte[]... values) {
        BytesBuffer b = new BytesBuffer(values.length, 16);
        for (byte[] v : values) {
            b.add(v, 0, v.length);
        }
        return of(b);
    }

    public static Column empty(DType dtype) {
        switch (dtype) {
            case INT64:
                return ofInt64(new long[0], 0);
            case FLOAT32:
                return ofFloat32(new float[0], 0);
            default:
                return ofBytes(new byte[0], new int[1], 0);
        }
    }

    private static void checkSize(int size, int capacity) {
        if (size < 0 || size > capacity) {
            throw new IllegalArgumentException(
                    "size " + size + " outside backing array of " + capacity);
        }
    }

    public DType dtype() {
        return dtype;
    }

    public int size() {
        return size;
    }

    public long int64(int i) {
        return int64s[i];
    }

    public float float32(int i) {
        return floats[i];
    }

    /** A copy of string value {@code i}. */
    public byte[] bytes(int i) {
        return Arrays.copyOfRange(bytes, offsets[i], offsets[i + 1]);
    }

    /** The shared backing array of the string values; see {@link #bytesStart(int)}. */
    public byte[] bytesData() {
        return bytes;
    }

    public int bytesStart(int i) {
        return offsets[i];
    }

    public int bytesLength(int i) {
        return offsets[i + 1] - offsets[i];
    }

    /** The int64 backing array (valid to {@link #size()}); callers must not modify it. */
    public long[] int64Array() {
        return int64s;
    }

    /** The float backing array (valid to {@link #size()}); callers must not modify it. */
    public float[] float32Array() {
        return floats;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Column)) {
            return false;
        }
        Column c = (Column) o;
        if (c.dtype != dtype || c.size != size) {
            return false;
        }
        for (int i = 0; i < size; i++) {
            switch (dtype) {
                case INT64:
                    if (int64s[i] != c.int64s[i]) {
                        return false;
                    }
                    break;
                case FLOAT32:
                    if (Float.floatToRawIntBits(floats[i])
                            != Float.floatToRawIntBits(c.floats[i])) {
                        return false;
                    }
                    break;
                default:
                    if (!Arrays.equals(
                            bytes,
                            offsets[i],
                            offsets[i + 1],
                            c.bytes,
                            c.offsets[i],
                            c.offsets[i + 1])) {
                        return false;
                    }
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int h = dtype.hashCode() * 31 + size;
        for (int i = 0; i < Math.min(size, 16); i++) {
            switch (dtype) {
                case INT64:
                    h = h * 31 + Long.hashCode(int64s[i]);
                    break;
                case FLOAT32:
                    h = h * 31 + Float.floatToRawIntBits(floats[i]);
                    break;
                default:
                    h = h * 31 + bytesLength(i);
            }
        }
        return h;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(dtype.jsonName()).append('[');
        for (int i = 0; i < size; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            if (i == 32) {
                sb.append("... (").append(size).append(" values)");
                break;
            }
            switch (dtype) {
                case INT64:
                    sb.append(int64s[i]);
                    break;
                case FLOAT32:
                    sb.append(floats[i]);
                    break;
                default:
                    sb.append('"')
                            .append(
                                    new String(
                                            bytes(i), java.nio.charset.StandardCharsets.ISO_8859_1))
                            .append('"');
            }
        }
        return sb.append(']').toString();
    }
}
