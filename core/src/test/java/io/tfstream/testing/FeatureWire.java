package io.tfstream.testing;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Serialized {@code tensorflow.Feature}, {@code Features} map entries and {@code Example}s written
 * byte by byte with {@link WireWriter}, in the canonical encoding or a chosen non-canonical one.
 */
public final class FeatureWire {
    /** Kind bytes of {@code Feature.kind}: bytes_list, float_list, int64_list. */
    public static final int BYTES_KIND = 0x0a;

    public static final int FLOAT_KIND = 0x12;
    public static final int INT64_KIND = 0x1a;

    /** How a numeric list is encoded. */
    public enum Encoding {
        PACKED,
        UNPACKED,
        /** Packed with every varint (and the lengths) padded to more bytes than needed. */
        PACKED_OVERLONG
    }

    private FeatureWire() {}

    /** The {@code Int64List} message body. */
    public static byte[] int64ListBody(long[] values, Encoding enc) {
        WireWriter w = new WireWriter();
        if (enc == Encoding.UNPACKED) {
            for (long v : values) {
                w.raw(0x08).varint(v);
            }
            return w.toByteArray();
        }
        if (values.length == 0) {
            return new byte[0];
        }
        WireWriter packed = new WireWriter();
        for (long v : values) {
            if (enc == Encoding.PACKED_OVERLONG && v >= 0 && v < (1L << 49)) {
                packed.varintPadded(v, 8);
            } else {
                packed.varint(v);
            }
        }
        w.raw(0x0a);
        length(w, packed.size(), enc);
        return w.raw(packed.toByteArray()).toByteArray();
    }

    /** The {@code FloatList} message body. */
    public static byte[] floatListBody(float[] values, Encoding enc) {
        WireWriter w = new WireWriter();
        if (enc == Encoding.UNPACKED) {
            for (float v : values) {
                w.raw(0x0d).fixed32(Float.floatToRawIntBits(v));
            }
            return w.toByteArray();
        }
        if (values.length == 0) {
            return new byte[0];
        }
        w.raw(0x0a);
        length(w, values.length * 4, enc);
        for (float v : values) {
            w.fixed32(Float.floatToRawIntBits(v));
        }
        return w.toByteArray();
    }

    /** The {@code BytesList} message body. */
    public static byte[] bytesListBody(byte[][] values) {
        WireWriter w = new WireWriter();
        for (byte[] v : values) {
            w.bytesField(1, v);
        }
        return w.toByteArray();
    }

    /** A {@code Feature} holding one list: kind byte, list length, list body. */
    public static byte[] feature(int kind, byte[] listBody) {
        return new WireWriter().raw(kind).varint(listBody.length).raw(listBody).toByteArray();
    }

    public static byte[] int64Feature(long... values) {
        return feature(INT64_KIND, int64ListBody(values, Encoding.PACKED));
    }

    public static byte[] floatFeature(float... values) {
        return feature(FLOAT_KIND, floatListBody(values, Encoding.PACKED));
    }

    public static byte[] bytesFeature(byte[]... values) {
        return feature(BYTES_KIND, bytesListBody(values));
    }

    public static byte[] stringFeature(String... values) {
        byte[][] b = new byte[values.length][];
        for (int i = 0; i < b.length; i++) {
            b[i] = values[i].getBytes(StandardCharsets.UTF_8);
        }
        return bytesFeature(b);
    }

    /** One {@code Features.feature} map entry body: key (field 1) then value (field 2). */
    public static byte[] entry(byte[] key, byte[] feature) {
        return new WireWriter().bytesField(1, key).bytesField(2, feature).toByteArray();
    }

    public static byte[] entry(String key, byte[] feature) {
        return entry(key.getBytes(StandardCharsets.UTF_8), feature);
    }

    /** A serialized Example with one {@code Features} message holding {@code entries}. */
    public static byte[] example(List<byte[]> entries) {
        WireWriter features = new WireWriter();
        for (byte[] e : entries) {
            features.bytesField(1, e);
        }
        return new WireWriter().bytesField(1, features.toByteArray()).toByteArray();
    }

    public static byte[] example(byte[]... entries) {
        return example(List.of(entries));
    }

    private static void length(WireWriter w, int len, Encoding enc) {
        if (enc == Encoding.PACKED_OVERLONG) {
            w.varintPadded(len, 5);
        } else {
            w.varint(len);
        }
    }
}
