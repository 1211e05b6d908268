package io.tfstream.testing;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.Map;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;

/**
 * An Example as one JSON object, the inverse of the JSON mapping table: each feature an array
 * (floats in their shortest exact form, bytes as UTF-8 text or base64). For tests and benchmarks.
 */
public final class ExampleJson {
    private static final JsonFactory JSON = new JsonFactory();

    private ExampleJson() {}

    /** The serialized Example {@code example} as JSON bytes. */
    public static byte[] of(byte[] example, boolean base64) {
        try {
            return of(Example.parseFrom(example), base64);
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalArgumentException(e);
        }
    }

    public static byte[] of(Example e, boolean base64) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            for (Map.Entry<String, Feature> f : e.getFeatures().getFeatureMap().entrySet()) {
                g.writeArrayFieldStart(f.getKey());
                Feature v = f.getValue();
                switch (v.getKindCase()) {
                    case INT64_LIST -> {
                        for (long x : v.getInt64List().getValueList()) {
                            g.writeNumber(x);
                        }
                    }
                    case FLOAT_LIST -> {
                        for (float x : v.getFloatList().getValueList()) {
                            g.writeNumber(x);
                        }
                    }
                    default -> {
                        for (ByteString x : v.getBytesList().getValueList()) {
                            g.writeString(
                                    base64
                                            ? Base64.getEncoder().encodeToString(x.toByteArray())
                                            : x.toStringUtf8());
                        }
                    }
                }
                g.writeEndArray();
            }
            g.writeEndObject();
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return out.toByteArray();
    }
}
