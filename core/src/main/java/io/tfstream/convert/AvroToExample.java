package io.tfstream.convert;

import io.tfstream.parse.FeatureSink;
import org.apache.avro.Schema;

/**
 * One Avro binary record of the writer schema → the schema's {@code tf.train.Example}, decoded
 * field by field straight from the bytes ({@link AvroCursor}) along an {@link AvroPlan} made once
 * from the writer schema (no generic records, no reflection, no copies of values). INT features
 * take int, long, boolean (1/0), {@code timestamp-millis} and {@code date}; FLOAT features float
 * and double; BYTES features string, bytes, fixed and enum (its symbol). An array is the list; null
 * (a null union branch) leaves the feature absent. A record with the Confluent framing (magic byte
 * 0, a 4-byte big-endian schema id) is accepted; with {@link ConvertOptions#avroSchemaId} set the
 * framing is required and the id must match.
 */
public final class AvroToExample extends BuildingConverter {
    /** Values of a skipped field (a recursive schema's data) nested at most this deep. */
    static final int MAX_SKIP_DEPTH = 1000;

    private final AvroPlan plan;
    private FeatureSink sink; // of the record being converted
    private final Integer schemaId;
    private final AvroCursor cursor = new AvroCursor();

    /** Refuses ({@link AvroSchemaRejectedException}) a writer schema that cannot convert. */
    public AvroToExample(Schema writer, ConvertFeatures features, ConvertOptions options) {
        super(features);
        this.plan = AvroPlan.of(writer, features, options.flatten());
        this.schemaId = options.avroSchemaId();
    }

    /** The converter of the {@code .avsc} text {@code schemaJson}. */
    public static AvroToExample of(
            String schemaJson, ConvertFeatures features, ConvertOptions options) {
        Schema writer;
        try {
            writer = new Schema.Parser().parse(schemaJson);
        } catch (RuntimeException e) {
            throw new AvroSchemaRejectedException("not a valid Avro schema: " + e.getMessage());
        }
        return new AvroToExample(writer, features, options);
    }

    @Override
    public void convertInto(byte[] in, int off, int len, FeatureSink sink)
            throws ConversionException {
        this.sink = sink;
        int start = off;
        if (schemaId != null) {
            if (len < 5 || in[off] != 0) {
                throw new ConversionException(
                        ConversionException.RECORD,
                        "no Confluent framing (magic byte 0 and a schema id), which"
                                + " source.avro.schema-id "
                                + schemaId
                                + " requires");
            }
            int id = framedId(in, off);
            if (id != schemaId) {
                throw new ConversionException(
                        ConversionException.RECORD,
                        "Confluent schema id " + id + ", not source.avro.schema-id " + schemaId);
            }
            start = off + 5;
        } else if (len >= 5 && in[off] == 0) {
            // Framed or plain: plain Avro may start with 0 too; framed wins when it decodes whole.
            try {
                decode(in, off + 5, len - 5);
                return;
            } catch (ConversionException e) {
                // not framed after all: fall through to the plain decode
            }
        }
        decode(in, start, len - (start - off));
    }

    private static int framedId(byte[] in, int off) {
        return ((in[off + 1] & 0xFF) << 24)
                | ((in[off + 2] & 0xFF) << 16)
                | ((in[off + 3] & 0xFF) << 8)
                | (in[off + 4] & 0xFF);
    }

    private void decode(byte[] in, int off, int len) throws ConversionException {
        sink.reset();
        ignored = 0;
        cursor.at(ConversionException.RECORD);
        cursor.wrap(in, off, len);
        record(plan);
        if (!cursor.atEnd()) {
            cursor.at(ConversionException.RECORD);
            throw new ConversionException(
                    ConversionException.RECORD,
                    "Avro does not decode: " + cursor.remaining() + " bytes left after the record");
        }
    }

    private void record(AvroPlan p) throws ConversionException {
        for (AvroPlan c : p.children) {
            cursor.at(c.path);
            switch (c.action) {
                case AvroPlan.FEATURE -> AvroValues.feature(cursor, sink, c);
                case AvroPlan.RECORD -> record(c);
                case AvroPlan.UNION -> {
                    AvroPlan chosen = c.children[branch(cursor, c.children.length)];
                    if (chosen.action == AvroPlan.RECORD) {
                        record(chosen);
                    } else {
                        skip(chosen.schema, 0);
                    }
                }
                default -> {
                    skip(c.schema, 0);
                    if (c.counted) {
                        ignored++;
                    }
                }
            }
        }
    }

    /** A union's branch index, checked against its branches. */
    static int branch(AvroCursor cursor, Schema union) throws ConversionException {
        return branch(cursor, union.getTypes().size());
    }

    /** A union's branch index, checked against its {@code n} branches. */
    static int branch(AvroCursor cursor, int n) throws ConversionException {
        long b = cursor.readLong();
        if (b < 0 || b >= n) {
            throw new ConversionException(
                    cursor.at(), "Avro does not decode: union branch " + b + " of " + n);
        }
        return (int) b;
    }

    private void skip(Schema s, int depth) throws ConversionException {
        if (depth > MAX_SKIP_DEPTH) {
            throw new ConversionException(
                    cursor.at(),
                    "Avro does not decode: values nested deeper than " + MAX_SKIP_DEPTH);
        }
        AvroCursor d = cursor;
        switch (s.getType()) {
            case NULL -> {}
            case BOOLEAN -> d.readBoolean();
            case INT -> d.readInt();
            case LONG -> d.readLong();
            case FLOAT -> d.readFixed(4);
            case DOUBLE -> d.readFixed(8);
            case STRING, BYTES -> d.readBytes();
            case FIXED -> d.readFixed(s.getFixedSize());
            case ENUM -> d.readInt();
            case ARRAY -> {
                for (long n = d.readBlockCount(); n != 0; n = d.readBlockCount()) {
                    for (long i = 0; i < n; i++) {
                        skip(s.getElementType(), depth + 1);
                    }
                }
            }
            case MAP -> {
                for (long n = d.readBlockCount(); n != 0; n = d.readBlockCount()) {
                    for (long i = 0; i < n; i++) {
                        d.readBytes();
                        skip(s.getValueType(), depth + 1);
                    }
                }
            }
            case UNION -> skip(s.getTypes().get(branch(d, s)), depth + 1);
            case RECORD -> {
                for (Schema.Field f : s.getFields()) {
                    skip(f.schema(), depth + 1);
                }
            }
        }
    }
}
