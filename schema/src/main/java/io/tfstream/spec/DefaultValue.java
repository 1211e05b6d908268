package io.tfstream.spec;

import java.util.Arrays;
import java.util.Objects;

/**
 * The flat, row-major values of a dense default ({@code default_value} after Python reshapes it to
 * the feature's shape). Exactly one of the three arrays is used, according to {@link #dtype()}.
 * Floats compare by bit pattern, so -0.0 differs from 0.0 and NaN equals NaN; NaN payloads are not
 * distinguished (SPEC.json and TensorFlow's Python defaults cannot carry them).
 */
public final class DefaultValue {
    private final DType dtype;
    private final long[] int64s;
    private final float[] floats;
    private final byte[][] bytes;

    private DefaultValue(DType dtype, long[] int64s, float[] floats, byte[][] bytes) {
        this.dtype = dtype;
        this.int64s = int64s;
        this.floats = floats;
        this.bytes = bytes;
    }

    public static DefaultValue ofInt64(long... values) {
        return new DefaultValue(DType.INT64, values.clone(), null, null);
    }

    public static DefaultValue ofFloat32(float... values) {
        return new DefaultValue(DType.FLOAT32, null, values.clone(), null);
    }

    public static DefaultValue ofBytes(byte[]... values) {
        byte[][] copy = new byte[values.length][];
        for (int i = 0; i < values.length; i++) {
            copy[i] = Objects.requireNonNull(values[i], "default bytes value").clone();
        }
        return new DefaultValue(DType.STRING, null, null, copy);
    }

    /** The padding value TensorFlow uses when none is given: 0, 0.0 or the empty string. */
    public static DefaultValue zero(DType dtype) {
        switch (dtype) {
            case INT64:
                return ofInt64(0L);
            case FLOAT32:
                return ofFloat32(0f);
            default:
                return ofBytes(new byte[0]);
        }
    }

    /** Repeats a one-element value {@code n} times (tfx-bsl's {@code [v] * prod(shape)}). */
    public DefaultValue repeat(int n) {
        if (size() != 1) {
            throw new IllegalStateException("repeat needs a single value, have " + size());
        }
        switch (dtype) {
            case INT64:
                long[] l = new long[n];
                Arrays.fill(l, int64s[0]);
                return new DefaultValue(dtype, l, null, null);
            case FLOAT32:
                float[] f = new float[n];
                Arrays.fill(f, floats[0]);
                return new DefaultValue(dtype, null, f, null);
            default:
                byte[][] b = new byte[n][];
                Arrays.fill(b, bytes[0]);
                return new DefaultValue(dtype, null, null, b);
        }
    }

    public DType dtype() {
        return dtype;
    }

    public int size() {
        switch (dtype) {
            case INT64:
                return int64s.length;
            case FLOAT32:
                return floats.length;
            default:
                return bytes.length;
        }
    }

    public long int64(int i) {
        return int64s[i];
    }

    public float float32(int i) {
        return floats[i];
    }

    /** The bytes of element {@code i}; callers must not modify the returned array. */
    public byte[] bytesAt(int i) {
        return bytes[i];
    }

    /** A copy of the int64 values; only for {@link DType#INT64}. */
    public long[] int64s() {
        return int64s.clone();
    }

    /** A copy of the float values; only for {@link DType#FLOAT32}. */
    public float[] float32s() {
        return floats.clone();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof DefaultValue)) {
            return false;
        }
        DefaultValue other = (DefaultValue) o;
        if (dtype != other.dtype) {
            return false;
        }
        switch (dtype) {
            case INT64:
                return Arrays.equals(int64s, other.int64s);
            case FLOAT32:
                if (floats.length != other.floats.length) {
                    return false;
                }
                for (int i = 0; i < floats.length; i++) {
                    if (Float.floatToIntBits(floats[i]) != Float.floatToIntBits(other.floats[i])) {
                        return false;
                    }
                }
                return true;
            default:
                return Arrays.deepEquals(bytes, other.bytes);
        }
    }

    @Override
    public int hashCode() {
        switch (dtype) {
            case INT64:
                return Arrays.hashCode(int64s);
            case FLOAT32:
                int h = 1;
                for (float f : floats) {
                    h = 31 * h + Float.floatToIntBits(f);
                }
                return h;
            default:
                return Arrays.deepHashCode(bytes);
        }
    }

    @Override
    public String toString() {
        switch (dtype) {
            case INT64:
                return Arrays.toString(int64s);
            case FLOAT32:
                return Arrays.toString(floats);
            default:
                StringBuilder sb = new StringBuilder("[");
                for (int i = 0; i < bytes.length; i++) {
                    if (i > 0) {
                        sb.append(", ");
                    }
                    sb.append("b'");
                    for (byte b : bytes[i]) {
                        int c = b & 0xff;
                        if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\') {
                            sb.append((char) c);
                        } else {
                            sb.append(String.format("\\x%02x", c));
                        }
                    }
                    sb.append('\'');
                }
                return sb.append(']').toString();
        }
    }
}
