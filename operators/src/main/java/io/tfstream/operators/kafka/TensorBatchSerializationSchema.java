package io.tfstream.operators.kafka;

import io.tfstream.api.model.PayloadKeyMode;
import io.tfstream.payload.EncodedTensorBatch;
import io.tfstream.proto.v1.SourceRange;
import io.tfstream.proto.v1.TensorBatch;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Writes a {@code TensorBatch} payload as the Kafka value (the serialized message,
 * docs/streaming-job.md#tensor-payloads), with headers {@code tfstream.schema.fingerprint}, {@code
 * tfstream.batch.id}, {@code tfstream.batch.rows} and, for a batch of several payloads, {@code
 * tfstream.batch.part} ({@code part/parts}, or {@code part/?} for a window's payload emitted before
 * the window closed, when its total was not known); the key as {@link PayloadKeyMode} says.
 */
@Internal
public final class TensorBatchSerializationSchema
        implements KafkaRecordSerializationSchema<EncodedTensorBatch> {
    private static final long serialVersionUID = 1L;

    /** Header names. */
    public static final String FINGERPRINT = "tfstream.schema.fingerprint";

    public static final String BATCH_ID = "tfstream.batch.id";
    public static final String ROWS = "tfstream.batch.rows";
    public static final String PART = "tfstream.batch.part";

    private final String topic;
    private final PayloadKeyMode key;

    public TensorBatchSerializationSchema(String topic, PayloadKeyMode key) {
        this.topic = Objects.requireNonNull(topic, "topic");
        this.key = Objects.requireNonNull(key, "key");
    }

    /** The key of {@code payload} under {@code mode}, or null. */
    public static byte[] key(EncodedTensorBatch payload, PayloadKeyMode mode) {
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
