package io.tfstream.convert;

import io.tfstream.parse.FeatureSink;

/** Reads one feature field's Avro value (scalar, array, or a union of them) into its slot. */
final class AvroValues {
    private AvroValues() {}

    static void feature(AvroCursor c, FeatureSink b, AvroPlan p) throws ConversionException {
        AvroValue v = p.value;
        if (v.kind == AvroValue.UNION) {
            v = v.branches[AvroToExample.branch(c, v.branches.length)];
            if (v.kind == AvroValue.NULL) {
                return; // a null branch: the feature is absent
            }
            if (!v.fits) {
                throw new ConversionException(
                        p.path,
                        "union branch "
                                + v.typeName()
                                + " does not fit "
                                + ConvertFeatures.kind(p.type)
                                + " feature '"
                                + p.path
                                + "'");
            }
        }
        if (v.kind == AvroValue.NULL) {
            return;
        }
        if (!b.start(p.slot)) {
            throw new ConversionException(p.path, "two Avro fields name this feature");
        }
        if (v.kind != AvroValue.ARRAY) {
            scalar(c, b, v, p.slot);
            return;
        }
        AvroValue items = v.items;
        int index = 0;
        for (long n = c.readBlockCount(); n != 0; n = c.readBlockCount()) {
            for (long i = 0; i < n; i++, index++) {
                AvroValue item = items;
                if (item.kind == AvroValue.UNION) {
                    item = item.branches[AvroToExample.branch(c, item.branches.length)];
                }
                if (item.kind == AvroValue.NULL || !item.fits) {
                    throw new ConversionException(
                            p.path + "[" + index + "]",
                            (item.kind == AvroValue.NULL
                                            ? "null inside the list"
                                            : "union branch " + item.typeName() + " does not fit")
                                    + " ("
                                    + ConvertFeatures.kind(p.type)
                                    + " feature '"
                                    + p.path
                                    + "')");
                }
                scalar(c, b, item, p.slot);
            }
        }
    }

    private static void scalar(AvroCursor c, FeatureSink b, AvroValue v, int slot)
            throws ConversionException {
        switch (v.kind) {
            case AvroValue.INT -> b.addInt64(slot, c.readInt());
            case AvroValue.LONG -> b.addInt64(slot, c.readLong());
            case AvroValue.BOOLEAN -> b.addInt64(slot, c.readBoolean() ? 1 : 0);
            case AvroValue.FLOAT -> b.addFloat(slot, c.readFloat());
            case AvroValue.DOUBLE -> b.addFloat(slot, (float) c.readDouble());
            case AvroValue.STRING, AvroValue.BYTES -> {
                c.readBytes();
                b.addBytes(slot, c.buffer(), c.start(), c.length());
            }
            case AvroValue.FIXED -> {
                c.readFixed(v.schema.getFixedSize());
                b.addBytes(slot, c.buffer(), c.start(), c.length());
            }
            case AvroValue.ENUM -> {
                int e = c.readInt();
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
