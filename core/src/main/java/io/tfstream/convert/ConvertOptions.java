package io.tfstream.convert;

import java.io.Serializable;
import java.util.OptionalInt;

/**
 * How JSON and Avro fields become features: {@code jsonBase64} reads JSON strings for BYTES
 * features as base64 ({@code source.json.bytes: base64}); {@code flatten} turns nested objects and
 * records into features named {@code parent.child} ({@code source.convert.flatten}); {@code
 * avroSchemaId}, when present, is the Confluent schema id every Avro record must carry ({@code
 * source.avro.schema-id}).
 */
public record ConvertOptions(boolean jsonBase64, boolean flatten, Integer avroSchemaId)
        implements Serializable {

    /** UTF-8 strings, no flattening, any or no schema id. */
    public static ConvertOptions defaults() {
        return new ConvertOptions(false, false, null);
    }

    /** The required Confluent schema id, if any. */
    public OptionalInt schemaId() {
        return avroSchemaId == null ? OptionalInt.empty() : OptionalInt.of(avroSchemaId);
    }
}
