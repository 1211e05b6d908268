package io.tfstream.operators.kafka;

import io.tfstream.payload.EncodedTensorBatch;
import io.tfstream.proto.v1.SourceRange;
import io.tfstream.proto.v1.TensorBatch;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Writes a {@code TensorBatch} payload as the Kafka value (the serialized message,
 * docs/streaming-job.md#tensor-payloads), with headers {@code tfstream.schema.fingerprint}, {@code
 * tfstream.batch.id}, {@code tfstream.batch.rows} and, for a batch of several payloads, {@code
 * tfstream.batch.part} ({@code part/parts}, or {@code part/?} for a window's payload emitted before
 * the window closed, when its total was not known); the key as {@link KeyMode} says.
 */
public final class TensorBatchSerializationSchema
        implements KafkaRecordSerializationSchema<EncodedTensorBatch> {
    private static final long serialVersionUID = 1L;

    /** Header names. */
    public static final String FINGERPRINT = "tfstream.schema.fingerprint";

    public static final String BATCH_ID = "tfstream.batch.id";
    public static final String ROWS = "tfstream.batch.rows";
    public static final String PART = "tfstream.batch.part";

    /** The Kafka key of a payload. */
    public enum KeyMode {
        /** No key: the producer spreads payloads over the topic's partitions. */
        NONE,
        /**
         * The first source partition of the batch as {@code <topic>-<partition>} (UTF-8): the
         * payloads of one source partition land in one output partition, in order.
         */
        SOURCE_PARTITION,
        /**
         * The grouping key of the batch's records ({@link EncodedTensorBatch#key}: the event-time
         * windows' {@code batch.key}): the payloads of one key land in one output partition.
         * Payloads without a grouping key have no key.
         */
        BATCH_KEY
    }

    private final String topic;
    private final KeyMode key;

    public TensorBatchSerializationSchema(String topic, KeyMode key) {
        this.topic = Objects.requireNonNull(topic, "topic");
        this.key = Objects.requireNonNull(key, "key");
    }

    /** The key of {@code payload} under {@code mode}, or null. */
    public static byte[] key(EncodedTensorBatch payload, KeyMode mode) {
        switch (mode) {
            case BATCH_KEY:
                return payload.key();
            case SOURCE_PARTITION:
                TensorBatch b = payload.meta();
                if (b.getSourcesCount() == 0) {
                    return null;
                }
                SourceRange first = b.getSources(0);
                return (first.getTopic() + "-" + first.getPartition())
                        .getBytes(StandardCharsets.UTF_8);
            default:
                return null;
        }
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(
            EncodedTensorBatch payload, KafkaSinkContext context, Long timestamp) {
        TensorBatch b = payload.meta();
        RecordHeaders h = new RecordHeaders();
        h.add(FINGERPRINT, utf8(b.getSchemaFingerprint()));
        h.add(BATCH_ID, utf8(b.getBatchId()));
        h.add(ROWS, utf8(Long.toString(payload.rows())));
        if (b.getParts() > 1) {
            h.add(PART, utf8(b.getPart() + "/" + b.getParts()));
        } else if (b.getParts() == 0 && b.getWindowEndMs() != 0) {
            // Window payloads emitted at the close always carry parts >= 1.
            h.add(PART, utf8(b.getPart() + "/?"));
        }
        Long ts = timestamp != null && timestamp >= 0 ? timestamp : null;
        return new ProducerRecord<>(topic, null, ts, key(payload, key), payload.toByteArray(), h);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
