package io.tfstream.api;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.options.DeadLetterOptions;
import io.tfstream.operators.deadletter.DeadLetterSerializationSchema;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;

/**
 * Dead letters ({@link ParseResult#deadLetters()}) as Kafka records, as {@code tfstream run} writes
 * {@code dlq.topic}: each the original record (value, key, headers) followed by the {@code
 * tfstream.*} dead-letter headers. For Flink's own sink:
 *
 * <pre>{@code
 * result.deadLetters().sinkTo(
 *         KafkaSink.<DeadLetter>builder()
 *                 .setBootstrapServers("broker:9092")
 *                 .setRecordSerializer(DeadLetterRecords.serializer("dead-letters", fingerprint))
 *                 .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
 *                 .setTransactionalIdPrefix("my-job-dlq")
 *                 .build());
 * }</pre>
 */
@PublicEvolving
public final class DeadLetterRecords {
    /** Bytes of UTF-8 the error message header keeps by default. */
    public static final int DEFAULT_MAX_ERROR_BYTES =
            DeadLetterOptions.MAX_ERROR_BYTES.defaultValue();

    private DeadLetterRecords() {}

    /**
     * Dead letters to {@code topic}, tagged with {@code schemaFingerprint} (the schema the records
     * were checked against; "" for none), error messages cut to {@link #DEFAULT_MAX_ERROR_BYTES}.
     */
    public static KafkaRecordSerializationSchema<DeadLetter> serializer(
            String topic, String schemaFingerprint) {
        return serializer(topic, schemaFingerprint, DEFAULT_MAX_ERROR_BYTES);
    }

    /**
     * As {@link #serializer(String, String)}, the error message header cut to {@code maxErrorBytes}
     * bytes of UTF-8 (0: empty).
     *
     * @throws IllegalArgumentException naming the argument that is wrong
     */
    public static KafkaRecordSerializationSchema<DeadLetter> serializer(
            String topic, String schemaFingerprint, int maxErrorBytes) {
        KafkaOutputs.requireTopic(topic);
        if (schemaFingerprint == null) {
            throw new IllegalArgumentException("schemaFingerprint must be set (it was null)");
        }
        DeadLetterOptions.OPTIONS.check(
                DeadLetterOptions.MAX_ERROR_BYTES, maxErrorBytes, "maxErrorBytes");
        return new DeadLetterSerializationSchema(topic, schemaFingerprint, maxErrorBytes);
    }

    /**
     * The dead letters {@code config} describes ({@link DeadLetterOptions#TOPIC}, required, and
     * {@link DeadLetterOptions#MAX_ERROR_BYTES}; keys relative to the stage).
     *
     * @throws IllegalArgumentException naming the key of a missing or refused value
     */
    public static KafkaRecordSerializationSchema<DeadLetter> fromConfig(
            ReadableConfig config, String schemaFingerprint) {
        return serializer(
                KafkaOutputs.topic(config, DeadLetterOptions.TOPIC),
                schemaFingerprint,
                DeadLetterOptions.OPTIONS.get(config, DeadLetterOptions.MAX_ERROR_BYTES, ""));
    }
}
