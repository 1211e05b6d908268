package io.tfstream.api;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.options.DeadLetterOptions;
import io.tfstream.operators.deadletter.DeadLetterSerializationSchema;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;

/** The builder of a {@link DeadLetterSink}: topic, brokers and the format's settings. */
@PublicEvolving
public final class DeadLetterSinkBuilder
        extends TfstreamKafkaSinkBuilder<DeadLetter, DeadLetterSinkBuilder> {
    /** Bytes of UTF-8 the error message header keeps by default. */
    public static final int DEFAULT_MAX_ERROR_BYTES =
            DeadLetterOptions.MAX_ERROR_BYTES.defaultValue();

    private String schemaFingerprint = "";
    private int maxErrorBytes = DEFAULT_MAX_ERROR_BYTES;

    DeadLetterSinkBuilder() {}

    /**
     * Takes the {@link DeadLetterOptions} of the sink set in {@code config} ({@code topic}, {@code
     * max-error-bytes}, keys relative to the stage). Unset options keep their values.
     */
    public DeadLetterSinkBuilder fromConfig(ReadableConfig config) {
        DeadLetterOptions.OPTIONS.checkAll(config, "");
        config.getOptional(DeadLetterOptions.TOPIC).ifPresent(this::setTopic);
        config.getOptional(DeadLetterOptions.MAX_ERROR_BYTES).ifPresent(this::setMaxErrorBytes);
        return this;
    }

    /** The schema fingerprint each dead letter carries in a header (default empty). */
    public DeadLetterSinkBuilder setSchemaFingerprint(String schemaFingerprint) {
        this.schemaFingerprint = schemaFingerprint;
        return this;
    }

    /** The error message header is cut to this many bytes of UTF-8 (default 1024, 0: empty). */
    public DeadLetterSinkBuilder setMaxErrorBytes(int maxErrorBytes) {
        this.maxErrorBytes = maxErrorBytes;
        return this;
    }

    @Override
    DeadLetterSinkBuilder self() {
        return this;
    }

    @Override
    void checkFormat() {
        check(schemaFingerprint != null, "schemaFingerprint must be set (it was set to null)");
        DeadLetterOptions.OPTIONS.check(
                DeadLetterOptions.MAX_ERROR_BYTES, maxErrorBytes, "maxErrorBytes");
    }

    @Override
    KafkaRecordSerializationSchema<DeadLetter> serializationSchema(String topic) {
        return new DeadLetterSerializationSchema(topic, schemaFingerprint, maxErrorBytes);
    }
}
