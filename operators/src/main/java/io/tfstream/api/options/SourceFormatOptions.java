package io.tfstream.api.options;

import static org.apache.flink.configuration.ConfigOptions.key;

import io.tfstream.convert.InputFormat;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;

/**
 * What the input records hold and how JSON and Avro records are converted to the schema's Example
 * (the job's {@code source.format} and {@code source.avro.*}, {@code source.json.*}, {@code
 * source.convert.*}). Keys are relative to the stage; {@link #OPTIONS} lists them with their types
 * and checks.
 */
@PublicEvolving
public final class SourceFormatOptions {
    private SourceFormatOptions() {}

    public static final ConfigOption<InputFormat> FORMAT =
            key("format")
                    .enumType(InputFormat.class)
                    .defaultValue(InputFormat.EXAMPLE)
                    .withDescription(
                            "What each input record holds: example (a serialized tf.Example or"
                                    + " SequenceExample, as schema.kind says), json (one UTF-8 JSON"
                                    + " object) or avro (Avro binary of source.avro.schema-path,"
                                    + " optionally with the Confluent framing). json and avro are"
                                    + " converted to the schema's Example before the parse"
                                    + " (docs/conversion.md); a record that does not convert is a"
                                    + " dead letter with reason conversion_error.");

    public static final ConfigOption<String> AVRO_SCHEMA_PATH =
            key("avro.schema-path")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The Avro writer schema (.avsc) of source.format avro (required"
                                    + " then). No schema registry is asked.");

    public static final ConfigOption<Integer> AVRO_SCHEMA_ID =
            key("avro.schema-id")
                    .intType()
                    .noDefaultValue()
                    .withDescription(
                            "When set, every Avro record must carry the Confluent framing (magic"
                                    + " byte 0, 4-byte schema id) with this id; others are dead"
                                    + " letters. Unset: framed and plain records are both read.");

    public static final ConfigOption<JsonBytes> JSON_BYTES =
            key("json.bytes")
                    .enumType(JsonBytes.class)
                    .defaultValue(JsonBytes.UTF8)
                    .withDescription(
                            "How a JSON string becomes a BYTES feature value: utf8 (its UTF-8"
                                    + " bytes) or base64 (decoded, for binary values).");

    public static final ConfigOption<Boolean> CONVERT_FLATTEN =
            key("convert.flatten")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Read nested JSON objects and Avro records as features named"
                                    + " parent.child. false: a nested object or record holding"
                                    + " schema features is refused.");

    /** Every option above, in order, with its type and check. */
    public static final OptionList OPTIONS =
            OptionList.builder()
                    .add(FORMAT)
                    .add(AVRO_SCHEMA_PATH, String.class, null)
                    .add(AVRO_SCHEMA_ID, Integer.class, null)
                    .add(JSON_BYTES)
                    .add(CONVERT_FLATTEN)
                    .build();

    /** {@link #JSON_BYTES}. */
    public enum JsonBytes {
        UTF8,
        BASE64
    }
}
