package io.tfstream.api;

import io.tfstream.api.model.PayloadKeyMode;
import io.tfstream.api.options.PayloadOptions;
import io.tfstream.operators.kafka.TensorBatchSerializationSchema;
import io.tfstream.payload.EncodedTensorBatch;
import java.util.Properties;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;

/**
 * Tensor payloads ({@link ParseResult#batches()}) as Kafka records, as {@code tfstream run} writes
 * {@code output.batches.topic}: one {@code tfstream.v1.TensorBatch} per message with its {@code
 * tfstream.batch.*} headers. Give the serializer to Flink's {@code
 * KafkaSink.builder().setRecordSerializer(...)} and the producer {@link #producerProperties} of the
 * message size the parse splits its payloads for ({@link #maxPayloadBytes}).
 */
@PublicEvolving
public final class TensorBatchRecords {
    /** Bytes of a payload message kept for its key, headers and Kafka's record framing. */
    public static final int MESSAGE_RESERVE = 1024;

    /** The largest message by default: Kafka's default {@code max.request.size}, 1 MiB. */
    public static final long DEFAULT_MAX_MESSAGE_BYTES = 1 << 20;

    /** The smallest message limit accepted. */
    public static final long MIN_MAX_MESSAGE_BYTES = 4096;

    private static final long MAX_MAX_MESSAGE_BYTES = Integer.MAX_VALUE - 8;

    private TensorBatchRecords() {}

    /** Payloads to {@code topic}, each keyed as {@code key} says. */
    public static KafkaRecordSerializationSchema<EncodedTensorBatch> serializer(
            String topic, PayloadKeyMode key) {
        KafkaOutputs.requireTopic(topic);
        if (key == null) {
            throw new IllegalArgumentException("key must be set (it was null)");
        }
        return new TensorBatchSerializationSchema(topic, key);
    }

    /**
     * The payloads {@code config} describes ({@link PayloadOptions#TOPIC}, required, and {@link
     * PayloadOptions#KEY}; keys relative to the stage). {@link PayloadOptions#MAX_MESSAGE_BYTES}
     * sizes the producer ({@link #producerProperties}) and the parse ({@link #maxPayloadBytes}).
     */
    public static KafkaRecordSerializationSchema<EncodedTensorBatch> fromConfig(
            ReadableConfig config) {
        PayloadOptions.OPTIONS.checkAll(config, "");
        return serializer(
                KafkaOutputs.topic(config, PayloadOptions.TOPIC), config.get(PayloadOptions.KEY));
    }

    /**
     * {@code base} with the producer settings messages of {@code maxMessageBytes} need: {@code
     * max.request.size}, and a buffer of two messages at least.
     *
     * @throws IllegalArgumentException for a size outside 4 KiB to 2 GiB
     */
    public static Properties producerProperties(Properties base, long maxMessageBytes) {
        checkMessageBytes(maxMessageBytes);
        Properties p = new Properties();
        p.putAll(base);
        p.setProperty("max.request.size", Long.toString(maxMessageBytes));
        long buffer = Long.parseLong(p.getProperty("buffer.memory", Long.toString(32L << 20)));
        if (buffer < 2 * maxMessageBytes) {
            p.setProperty("buffer.memory", Long.toString(2 * maxMessageBytes));
        }
        return p;
    }

    /**
     * The largest serialized {@code TensorBatch} a message of {@code maxMessageBytes} holds: less
     * {@link #MESSAGE_RESERVE}; give it to {@link TfstreamParseBuilder#setTensorBatches}.
     */
    public static int maxPayloadBytes(long maxMessageBytes) {
        checkMessageBytes(maxMessageBytes);
        return (int) (maxMessageBytes - MESSAGE_RESERVE);
    }

    private static void checkMessageBytes(long maxMessageBytes) {
        if (maxMessageBytes < MIN_MAX_MESSAGE_BYTES || maxMessageBytes > MAX_MAX_MESSAGE_BYTES) {
            throw new IllegalArgumentException(
                    "maxMessageBytes must be 4 KiB to 2 GiB, got " + maxMessageBytes);
        }
    }
}
