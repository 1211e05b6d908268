package io.tfstream.convert;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.util.Utf8;

/** Reads one feature field's Avro value (scalar, array, or a union of them) into its slot. */
final class AvroValues {
    private AvroValues() {}

    static void feature(AvroToExample c, AvroPlan p) throws IOException, ConversionException {
        AvroValue v = p.value;
        if (v.kind == AvroValue.UNION) {
            v = v.branches[c.branch(v.schema)];
            if (v.kind == AvroValue.NULL) {
                return; // a null branch: the feature is absent
            }
            if (!v.fits) {
                throw new ConversionException(
                        p.path,
                        "union branch "
                                + v.typeName()
                                + " does not fit "
                                + ConvertFeatures.kind(c.builder().type(p.slot))
                                + " feature '"
                                + p.path
                                + "'");
            }
        }
        if (v.kind == AvroValue.NULL) {
            return;
        }
        ExampleBuilder b = c.builder();
        if (!b.start(p.slot)) {
            throw new ConversionException(p.path, "two Avro fields name this feature");
        }
        if (v.kind != AvroValue.ARRAY) {
            scalar(c, v, p.slot);
            return;
        }
        BinaryDecoder d = c.decoder();
        AvroValue items = v.items;
        int index = 0;
        for (long n = c.count(d.readArrayStart()); n != 0; n = c.count(d.arrayNext())) {
            for (long i = 0; i < n; i++, index++) {
                AvroValue item = items;
                if (item.kind == AvroValue.UNION) {
                    item = item.branches[c.branch(item.schema)];
                }
                if (item.kind == AvroValue.NULL || !item.fits) {
                    throw new ConversionException(
                            p.path + "[" + index + "]",
                            (item.kind == AvroValue.NULL
                                            ? "null inside the list"
                                            : "union branch " + item.typeName() + " does not fit")
                                    + " ("
                                    + ConvertFeatures.kind(b.type(p.slot))
                                    + " feature '"
                                    + p.path
                                    + "')");
                }
                scalar(c, item, p.slot);
            }
        }
    }

    private static void scalar(AvroToExample c, AvroValue v, int slot)
            throws IOException, ConversionException {
        BinaryDecoder d = c.decoder();
        ExampleBuilder b = c.builder();
        switch (v.kind) {
            case AvroValue.INT -> b.addInt(slot, d.readInt());
            case AvroValue.LONG -> b.addInt(slot, d.readLong());
            case AvroValue.BOOLEAN -> b.addInt(slot, d.readBoolean() ? 1 : 0);
            case AvroValue.FLOAT -> b.addFloat(slot, d.readFloat());
            case AvroValue.DOUBLE -> b.addFloat(slot, (float) d.readDouble());
            case AvroValue.STRING -> {
                Utf8 s = c.utf8();
                b.addBytes(slot, s.getBytes(), 0, s.getByteLength());
            }
            case AvroValue.BYTES -> {
                ByteBuffer bb = c.bytes();
                b.addBytes(slot, bb.array(), bb.arrayOffset() + bb.position(), bb.remaining());
            }
            case AvroValue.FIXED -> {
                int size = v.schema.getFixedSize();
                b.addBytes(slot, c.fixed(size), 0, size);
            }
            case AvroValue.ENUM -> {
                int e = d.readEnum();
                if (e < 0 || e >= v.symbols.length) {
                    throw new ConversionException(
                            c.at(),
                            "Avro does not decode: enum index "
                                    + e
                                    + " of "
                                    + v.symbols.length
                                    + " symbols");
                }
                b.addBytes(slot, v.symbols[e], 0, v.symbols[e].length);
            }
            default -> throw new IllegalStateException("not a scalar: " + v.typeName());
        }
    }
}
