package io.tfstream.operators.kafka;

import io.tfstream.api.model.SourceRecord;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Writes an accepted record to the "clean" records topic exactly as it arrived: value, key and
 * headers byte for byte; the Kafka timestamp is the record's event time.
 */
@Internal
public final class AcceptedRecordSerializationSchema
        implements KafkaRecordSerializationSchema<SourceRecord> {
    private static final long serialVersionUID = 1L;

    private final String topic;

    public AcceptedRecordSerializationSchema(String topic) {
        this.topic = Objects.requireNonNull(topic, "topic");
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(
            SourceRecord r, KafkaSinkContext context, Long timestamp) {
        RecordHeaders h = new RecordHeaders();
        for (int i = 0; i < r.headerCount(); i++) {
            h.add(r.headerKey(i), r.headerValue(i));
        }
        Long ts = timestamp != null && timestamp >= 0 ? timestamp : null;
        return new ProducerRecord<>(topic, null, ts, r.key(), r.value(), h);
    }
}
