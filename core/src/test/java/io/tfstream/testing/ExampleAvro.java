package io.tfstream.testing;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.tfstream.spec.DType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;

/**
 * Examples as Avro binary of a record schema with one field per feature, typed {@code ["null",
 * {"type": "array", "items": long | float | bytes}]}: the inverse of the Avro mapping table for
 * list-valued features. For tests and benchmarks; feature names must be Avro names.
 */
public final class ExampleAvro {
    private final Schema schema;
    private final String[] names;
    private final DType[] types;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private BinaryEncoder encoder;

    public ExampleAvro(Map<String, DType> features) {
        SchemaBuilder.FieldAssembler<Schema> f = SchemaBuilder.record("Example").fields();
        names = features.keySet().toArray(new String[0]);
        types = features.values().toArray(new DType[0]);
        for (int i = 0; i < names.length; i++) {
            Schema item =
                    switch (types[i]) {
                        case INT64 -> Schema.create(Schema.Type.LONG);
                        case FLOAT32 -> Schema.create(Schema.Type.FLOAT);
                        case STRING -> Schema.create(Schema.Type.BYTES);
                    };
            Schema list =
                    Schema.createUnion(Schema.create(Schema.Type.NULL), Schema.createArray(item));
            f = f.name(names[i]).type(list).withDefault(null);
        }
        schema = f.endRecord();
    }

    /** The writer schema, for {@code source.avro.schema-path}. */
    public Schema schema() {
        return schema;
    }

    /** The serialized Example {@code example} as Avro binary. */
    public byte[] of(byte[] example) {
        try {
            return of(Example.parseFrom(example));
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalArgumentException(e);
        }
    }

    public byte[] of(Example e) {
        out.reset();
        encoder = EncoderFactory.get().binaryEncoder(out, encoder);
        try {
            Map<String, Feature> features = e.getFeatures().getFeatureMap();
            for (int i = 0; i < names.length; i++) {
                Feature v = features.get(names[i]);
                if (v == null) {
                    encoder.writeIndex(0);
                    continue;
                }
                encoder.writeIndex(1);
                switch (types[i]) {
                    case INT64 -> {
                        encoder.writeArrayStart();
                        encoder.setItemCount(v.getInt64List().getValueCount());
                        for (long x : v.getInt64List().getValueList()) {
                            encoder.startItem();
                            encoder.writeLong(x);
                        }
                    }
                    case FLOAT32 -> {
                        encoder.writeArrayStart();
                        encoder.setItemCount(v.getFloatList().getValueCount());
                        for (float x : v.getFloatList().getValueList()) {
                            encoder.startItem();
                            encoder.writeFloat(x);
                        }
                    }
                    case STRING -> {
                        encoder.writeArrayStart();
                        encoder.setItemCount(v.getBytesList().getValueCount());
                        for (ByteString x : v.getBytesList().getValueList()) {
                            encoder.startItem();
                            encoder.writeBytes(x.toByteArray());
                        }
                    }
                }
                encoder.writeArrayEnd();
            }
            encoder.flush();
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return out.toByteArray();
    }
}
