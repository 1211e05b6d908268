package io.tfstream.convert;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.util.Utf8;

/**
 * One Avro binary record of the writer schema → the schema's {@code tf.train.Example}, decoded
 * field by field with Avro's {@link BinaryDecoder} along an {@link AvroPlan} (no generic records,
 * no reflection). INT features take int, long, boolean (1/0), {@code timestamp-millis} and {@code
 * date}; FLOAT features float and double; BYTES features string, bytes, fixed and enum (its
 * symbol). An array is the list; null (a null union branch) leaves the feature absent. A record
 * with the Confluent framing (magic byte 0, a 4-byte big-endian schema id) is accepted; with {@link
 * ConvertOptions#avroSchemaId} set the framing is required and the id must match.
 */
public final class AvroToExample implements ExampleConverter {
    private final AvroPlan plan;
    private final ExampleBuilder builder;
    private final Integer schemaId;
    private BinaryDecoder decoder;
    private Utf8 utf8 = new Utf8();
    private ByteBuffer bytes;
    private byte[] fixed = new byte[16];
    private String at;
    private int limit;
    private int ignored;

    /** Refuses ({@link AvroSchemaRejectedException}) a writer schema that cannot convert. */
    public AvroToExample(Schema writer, ConvertFeatures features, ConvertOptions options) {
        this.plan = AvroPlan.of(writer, features, options.flatten());
        this.builder = new ExampleBuilder(features);
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
    public int ignoredFields() {
        return ignored;
    }

    @Override
    public byte[] convert(byte[] in, int off, int len) throws ConversionException {
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
                return decode(in, off + 5, len - 5);
            } catch (ConversionException e) {
                // not framed after all: fall through to the plain decode
            }
        }
        return decode(in, start, len - (start - off));
    }

    private static int framedId(byte[] in, int off) {
        return ((in[off + 1] & 0xFF) << 24)
                | ((in[off + 2] & 0xFF) << 16)
                | ((in[off + 3] & 0xFF) << 8)
                | (in[off + 4] & 0xFF);
    }

    private byte[] decode(byte[] in, int off, int len) throws ConversionException {
        builder.reset();
        ignored = 0;
        at = ConversionException.RECORD;
        limit = len;
        decoder = DecoderFactory.get().binaryDecoder(in, off, len, decoder);
        try {
            record(plan);
            if (!decoder.isEnd()) {
                throw new ConversionException(
                        ConversionException.RECORD,
                        "Avro does not decode: bytes left after the record");
            }
        } catch (IOException | AvroRuntimeException | IndexOutOfBoundsException e) {
            throw new ConversionException(at, "Avro does not decode: " + e, e);
        }
        return builder.toBytes();
    }

    private void record(AvroPlan p) throws IOException, ConversionException {
        for (AvroPlan c : p.children) {
            at = c.path;
            switch (c.action) {
                case AvroPlan.FEATURE -> AvroValues.feature(this, c);
                case AvroPlan.RECORD -> record(c);
                case AvroPlan.UNION -> {
                    int b = branch(c.schema);
                    AvroPlan chosen = c.children[b];
                    if (chosen.action == AvroPlan.RECORD) {
                        record(chosen);
                    } else {
                        skip(chosen.schema);
                    }
                }
                default -> {
                    skip(c.schema);
                    if (c.counted) {
                        ignored++;
                    }
                }
            }
        }
    }

    int branch(Schema union) throws IOException, ConversionException {
        int b = decoder.readIndex();
        if (b < 0 || b >= union.getTypes().size()) {
            throw new ConversionException(
                    at,
                    "Avro does not decode: union branch " + b + " of " + union.getTypes().size());
        }
        return b;
    }

    /** A block count read from the input, checked against what the record can hold. */
    long count(long n) throws ConversionException {
        if (n < 0 || n > limit) {
            throw new ConversionException(
                    at, "Avro does not decode: a block of " + n + " items in " + limit + " bytes");
        }
        return n;
    }

    private void skip(Schema s) throws IOException, ConversionException {
        BinaryDecoder d = decoder;
        switch (s.getType()) {
            case NULL -> {}
            case BOOLEAN -> d.readBoolean();
            case INT -> d.readInt();
            case LONG -> d.readLong();
            case FLOAT -> d.skipFixed(4);
            case DOUBLE -> d.skipFixed(8);
            case STRING -> d.skipString();
            case BYTES -> d.skipBytes();
            case FIXED -> d.skipFixed(s.getFixedSize());
            case ENUM -> d.readEnum();
            case ARRAY -> {
                for (long n = count(d.skipArray()); n != 0; n = count(d.skipArray())) {
                    for (long i = 0; i < n; i++) {
                        skip(s.getElementType());
                    }
                }
            }
            case MAP -> {
                for (long n = count(d.skipMap()); n != 0; n = count(d.skipMap())) {
                    for (long i = 0; i < n; i++) {
                        d.skipString();
                        skip(s.getValueType());
                    }
                }
            }
            case UNION -> skip(s.getTypes().get(branch(s)));
            case RECORD -> {
                for (Schema.Field f : s.getFields()) {
                    skip(f.schema());
                }
            }
        }
    }

    BinaryDecoder decoder() {
        return decoder;
    }

    ExampleBuilder builder() {
        return builder;
    }

    String at() {
        return at;
    }

    Utf8 utf8() throws IOException {
        utf8 = decoder.readString(utf8);
        return utf8;
    }

    ByteBuffer bytes() throws IOException {
        bytes = decoder.readBytes(bytes);
        return bytes;
    }

    byte[] fixed(int size) throws IOException {
        if (fixed.length < size) {
            fixed = new byte[size];
        }
        decoder.readFixed(fixed, 0, size);
        return fixed;
    }
}
