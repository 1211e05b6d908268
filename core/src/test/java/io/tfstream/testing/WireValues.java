package io.tfstream.testing;

import io.tfstream.spec.DType;
import io.tfstream.spec.DefaultValue;
import io.tfstream.testing.FeatureWire.Encoding;
import java.util.Random;

/**
 * Random feature values and serialized {@code Feature}s for {@link WireEdgeCaseGenerator}: extreme
 * int64s, NaN payloads, ±inf, -0.0, subnormals, non-UTF-8 bytes, and the list encodings
 * TensorFlow's fast parser accepts (packed, unpacked, overlong, trailing bytes it ignores).
 */
final class WireValues {
    private static final long[] INT64S = {
        0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 127, 128, 300, 1L << 35, -(1L << 40)
    };
    private static final int[] FLOAT_BITS = {
        0x00000000,
        0x80000000,
        0x7fc00000,
        0x7f800001,
        0xffc00001,
        0x7fffffff,
        0x7f800000,
        0xff800000,
        0x00000001,
        0x7f7fffff,
        0x3f800000,
        0xbf800000
    };
    private static final byte[][] WORDS = {
        {},
        {'c', 'a', 't'},
        {(byte) 0xc3, (byte) 0xa9},
        {(byte) 0xff, (byte) 0xfe},
        {0},
        {'"', '\\'}
    };

    private final Random rnd;

    WireValues(Random rnd) {
        this.rnd = rnd;
    }

    long int64() {
        int r = rnd.nextInt(4);
        return r == 0
                ? INT64S[rnd.nextInt(INT64S.length)]
                : r == 1 ? rnd.nextLong() : rnd.nextInt(200);
    }

    float float32() {
        return rnd.nextInt(3) == 0
                ? Float.intBitsToFloat(FLOAT_BITS[rnd.nextInt(FLOAT_BITS.length)])
                : (float) rnd.nextGaussian();
    }

    byte[] bytes(int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }

    byte[] word() {
        return rnd.nextBoolean() ? WORDS[rnd.nextInt(WORDS.length)].clone() : bytes(rnd.nextInt(9));
    }

    DefaultValue defaultOf(DType dtype, int n) {
        switch (dtype) {
            case INT64:
                long[] l = new long[n];
                for (int i = 0; i < n; i++) {
                    l[i] = int64();
                }
                return DefaultValue.ofInt64(l);
            case FLOAT32:
                float[] f = new float[n];
                for (int i = 0; i < n; i++) {
                    f[i] = float32();
                }
                return DefaultValue.ofFloat32(f);
            default:
                byte[][] b = new byte[n][];
                for (int i = 0; i < n; i++) {
                    b[i] = word();
                }
                return DefaultValue.ofBytes(b);
        }
    }

    /** A well-formed Feature of {@code dtype} with {@code count} values, randomly encoded. */
    byte[] feature(DType dtype, int count) {
        return feature(dtype, count, true);
    }

    /**
     * As {@link #feature(DType, int)}; without {@code unpackedFloats} a float list is always
     * packed.
     */
    byte[] feature(DType dtype, int count, boolean unpackedFloats) {
        byte[] body;
        int kind;
        switch (dtype) {
            case INT64:
                long[] l = new long[count];
                for (int i = 0; i < count; i++) {
                    l[i] = int64();
                }
                kind = FeatureWire.INT64_KIND;
                body = FeatureWire.int64ListBody(l, WireEdgeCaseGenerator.encoding(rnd));
                if (count > 0 && body[0] == 0x0a && rnd.nextInt(8) == 0) {
                    // Bytes after the packed field are ignored (unpacked tail, other fields).
                    body = new WireWriter().raw(body).raw(0x08, 0x09).toByteArray();
                }
                break;
            case FLOAT32:
                float[] f = new float[count];
                for (int i = 0; i < count; i++) {
                    f[i] = float32();
                }
                kind = FeatureWire.FLOAT_KIND;
                Encoding enc = WireEdgeCaseGenerator.encoding(rnd);
                if (!unpackedFloats && enc == Encoding.UNPACKED) {
                    enc = Encoding.PACKED;
                }
                body = FeatureWire.floatListBody(f, enc);
                if (count > 0 && enc != Encoding.UNPACKED && rnd.nextInt(8) == 0) {
                    body = new WireWriter().raw(body).raw(0x0d, 1, 2, 3, 4).toByteArray();
                }
                break;
            default:
                byte[][] b = new byte[count][];
                for (int i = 0; i < count; i++) {
                    b[i] = word();
                }
                kind = FeatureWire.BYTES_KIND;
                body = FeatureWire.bytesListBody(b);
        }
        WireWriter w = new WireWriter().raw(kind);
        int r = rnd.nextInt(20);
        if (r == 0) {
            w.varint(body.length + 1 + rnd.nextInt(100)).raw(body); // clamped to the Feature
        } else if (r == 1) {
            w.varintPadded(body.length, 3).raw(body);
        } else {
            w.varint(body.length).raw(body);
        }
        if (r != 0 && rnd.nextInt(20) == 0) {
            w.raw(FeatureWire.INT64_KIND, 2, 0x08, 0x05); // a second kind is never read
        }
        return w.toByteArray();
    }

    /** A Feature whose kind byte is valid for {@code dtype} but whose list TensorFlow rejects. */
    byte[] malformedFeature(DType dtype) {
        int kind =
                dtype == DType.INT64
                        ? FeatureWire.INT64_KIND
                        : dtype == DType.FLOAT32 ? FeatureWire.FLOAT_KIND : FeatureWire.BYTES_KIND;
        int[][] bodies = {
            {0x80},
            {0x03, 0x0a, 0x01, 0x80},
            {0x02, 0x10, 0x01},
            {0x02, 0x12, 0x00},
            {0x03, 0x0a, 0x05, 0x41},
            {0x05, 0x08, 0x01, 0x0a, 0x01, 0x02},
            {0x06, 0x0a, 0x08, 0x00, 0x00, 0x80, 0x3f},
            {0x04, 0x0d, 0x00, 0x00, 0x80},
            {0x03, 0x0a, 0x01, 0x41, 0x42}
        };
        return new WireWriter().raw(kind).raw(bodies[rnd.nextInt(bodies.length)]).toByteArray();
    }

    /** A Feature with a valid kind byte (or none) and anything after it. */
    byte[] junkFeature() {
        int r = rnd.nextInt(4);
        if (r == 0) {
            return new byte[0];
        }
        if (r == 1) {
            return malformedFeature(DType.values()[rnd.nextInt(3)]);
        }
        return feature(DType.values()[rnd.nextInt(3)], rnd.nextInt(4));
    }
}
