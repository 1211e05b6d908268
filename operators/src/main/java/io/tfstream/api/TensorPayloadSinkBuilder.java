package io.tfstream.api;

import io.tfstream.api.model.PayloadKeyMode;
import io.tfstream.api.options.PayloadOptions;
import io.tfstream.operators.kafka.TensorBatchSerializationSchema;
import io.tfstream.payload.EncodedTensorBatch;
import java.util.Properties;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;

/** The builder of a {@link TensorPayloadSink}: topic, brokers and the format's settings. */
@PublicEvolving
public final class TensorPayloadSinkBuilder
        extends TfstreamKafkaSinkBuilder<EncodedTensorBatch, TensorPayloadSinkBuilder> {
    /** Bytes of a payload message kept for its key, headers and Kafka's record framing. */
    public static final int MESSAGE_RESERVE = 1024;

    /** The largest message by default: Kafka's default {@code max.request.size}, 1 MiB. */
    public static final long DEFAULT_MAX_MESSAGE_BYTES = 1 << 20;

    /** The smallest message limit accepted. */
    public static final long MIN_MAX_MESSAGE_BYTES = 4096;

    private static final long MAX_MAX_MESSAGE_BYTES = Integer.MAX_VALUE - 8;

    private PayloadKeyMode keyMode = PayloadOptions.KEY.defaultValue();
    private long maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;

    TensorPayloadSinkBuilder() {}

    /**
     * Takes the {@link PayloadOptions} set in {@code config} ({@code topic}, {@code key}, {@code
     * max-message-bytes}, keys relative to the stage). Unset options keep their values.
     */
    public TensorPayloadSinkBuilder fromConfig(ReadableConfig config) {
        PayloadOptions.OPTIONS.checkAll(config, "");
        config.getOptional(PayloadOptions.TOPIC).ifPresent(this::setTopic);
        config.getOptional(PayloadOptions.KEY).ifPresent(this::setKeyMode);
        config.getOptional(PayloadOptions.MAX_MESSAGE_BYTES)
                .ifPresent(m -> setMaxMessageBytes(m.getBytes()));
        return this;
    }

    /** The Kafka key of each payload (default none: spread over the partitions). */
    public TensorPayloadSinkBuilder setKeyMode(PayloadKeyMode keyMode) {
        this.keyMode = keyMode;
        return this;
    }

    /**
     * The largest Kafka message (default 1 MiB, 4 KiB to 2 GiB): the producer's {@code
     * max.request.size}; the brokers' {@code message.max.bytes} must allow it.
     */
    public TensorPayloadSinkBuilder setMaxMessageBytes(long maxMessageBytes) {
        this.maxMessageBytes = maxMessageBytes;
        return this;
    }

    /**
     * The largest serialized {@code TensorBatch} a message holds: the message limit less {@link
     * #MESSAGE_RESERVE}; give it to {@link TfstreamParseBuilder#setTensorBatches}.
     */
    public int maxPayloadBytes() {
        checkFormat();
        return (int) (maxMessageBytes - MESSAGE_RESERVE);
    }

    @Override
    TensorPayloadSinkBuilder self() {
        return this;
    }

    @Override
    void checkFormat() {
        check(keyMode != null, "keyMode must be set (it was set to null)");
        check(
                maxMessageBytes >= MIN_MAX_MESSAGE_BYTES
                        && maxMessageBytes <= MAX_MAX_MESSAGE_BYTES,
                "maxMessageBytes must be 4 KiB to 2 GiB, got " + maxMessageBytes);
    }

    @Override
    void producerSettings(Properties p) {
        // Room for one message per request and two in the producer's buffer.
        p.setProperty("max.request.size", Long.toString(maxMessageBytes));
        long buffer = Long.parseLong(p.getProperty("buffer.memory", Long.toString(32L << 20)));
        if (buffer < 2 * maxMessageBytes) {
            p.setProperty("buffer.memory", Long.toString(2 * maxMessageBytes));
        }
    }

    @Override
    KafkaRecordSerializationSchema<EncodedTensorBatch> serializationSchema(String topic) {
        return new TensorBatchSerializationSchema(topic, keyMode);
    }
}
