package io.tfstream.operators.validation;

import io.tfstream.api.model.ValidationOutput;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Writes a {@link ValidationOutput} to {@code topic}: key = its key in UTF-8 (the alert id of an
 * alert, so that a compacted topic keeps one record per alert), value = its bytes.
 */
@Internal
public final class ValidationOutputSerializationSchema
        implements KafkaRecordSerializationSchema<ValidationOutput> {
    private static final long serialVersionUID = 1L;

    private final String topic;

    public ValidationOutputSerializationSchema(String topic) {
        this.topic = Objects.requireNonNull(topic, "topic");
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(
            ValidationOutput o, KafkaSinkContext context, Long timestamp) {
        Long ts = timestamp != null && timestamp >= 0 ? timestamp : null;
        return new ProducerRecord<>(
                topic, null, ts, o.key().getBytes(StandardCharsets.UTF_8), o.value());
    }
}
