package io.tfstream.testing.sequence;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes {@code tensorflow.SequenceExample} bytes by hand, field by field, so that tests can build
 * what protobuf-java never emits: repeated sections and map entries, concatenated messages,
 * unpacked numeric lists, empty {@code Feature{}} steps, wrong kinds and truncations.
 */
public final class SeqWire {
    private SeqWire() {}

    public static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    public static byte[] varint(long v) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while ((v & ~0x7fL) != 0) {
            out.write((int) ((v & 0x7f) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
        return out.toByteArray();
    }

    /** A length-delimited field: tag byte, varint length, payload. */
    public static byte[] field(int fieldNumber, byte[] payload) {
        return concat(varint((fieldNumber << 3) | 2), varint(payload.length), payload);
    }

    public static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** {@code Feature{int64_list{value: [...]}}}, packed or one tag per value. */
    public static byte[] int64Feature(boolean packed, long... values) {
        ByteArrayOutputStream list = new ByteArrayOutputStream();
        if (packed) {
            if (values.length > 0) {
                ByteArrayOutputStream p = new ByteArrayOutputStream();
                for (long v : values) {
                    p.writeBytes(varint(v));
                }
                list.writeBytes(field(1, p.toByteArray()));
            }
        } else {
            for (long v : values) {
                list.write(0x08);
                list.writeBytes(varint(v));
            }
        }
        return field(3, list.toByteArray());
    }

    public static byte[] int64Feature(long... values) {
        return int64Feature(true, values);
    }

    /** {@code Feature{float_list{value: [...]}}}, packed or one tag per value; raw bits kept. */
    public static byte[] floatFeature(boolean packed, float... values) {
        ByteArrayOutputStream list = new ByteArrayOutputStream();
        ByteArrayOutputStream p = new ByteArrayOutputStream();
        for (float v : values) {
            if (!packed) {
                list.write(0x0d);
            }
            int bits = Float.floatToRawIntBits(v);
            (packed ? p : list)
                    .writeBytes(
                            new byte[] {
                                (byte) bits,
                                (byte) (bits >>> 8),
                                (byte) (bits >>> 16),
                                (byte) (bits >>> 24)
                            });
        }
        if (packed && values.length > 0) {
            list.writeBytes(field(1, p.toByteArray()));
        }
        return field(2, list.toByteArray());
    }

    public static byte[] floatFeature(float... values) {
        return floatFeature(true, values);
    }

    public static byte[] bytesFeature(byte[]... values) {
        ByteArrayOutputStream list = new ByteArrayOutputStream();
        for (byte[] v : values) {
            list.writeBytes(field(1, v));
        }
        return field(1, list.toByteArray());
    }

    public static byte[] stringFeature(String... values) {
        byte[][] b = new byte[values.length][];
        for (int i = 0; i < values.length; i++) {
            b[i] = utf8(values[i]);
        }
        return bytesFeature(b);
    }

    /** {@code Feature{}}: no kind at all. */
    public static byte[] emptyFeature() {
        return new byte[0];
    }

    /** One map entry {@code {key, value}} as field 1 of Features / FeatureLists. */
    public static byte[] entry(String key, byte[] value) {
        return field(1, concat(field(1, utf8(key)), field(2, value)));
    }

    /** A {@code FeatureList} of the given serialized Features (each one step). */
    public static byte[] featureList(byte[]... features) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] f : features) {
            out.writeBytes(field(1, f));
        }
        return out.toByteArray();
    }

    /** Field 1 of a SequenceExample: a {@code Features} message made of the given entries. */
    public static byte[] context(byte[]... entries) {
        return field(1, concat(entries));
    }

    /** Field 2 of a SequenceExample: a {@code FeatureLists} message made of the given entries. */
    public static byte[] featureLists(byte[]... entries) {
        return field(2, concat(entries));
    }
}
