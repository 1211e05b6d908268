package io.tfstream.api;

import io.tfstream.api.model.ValidationOutput;
import io.tfstream.operators.validation.ValidationOutputSerializationSchema;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;

/**
 * Validation outputs ({@link ValidationResult}'s alerts, anomalies and statistics) as Kafka
 * records, as {@code tfstream run} writes its alerts, anomalies and statistics topics: the output's
 * bytes keyed by its id. Give it to Flink's {@code KafkaSink.builder().setRecordSerializer(...)}.
 */
@PublicEvolving
public final class ValidationRecords {
    private ValidationRecords() {}

    /** Validation outputs to {@code topic}. */
    public static KafkaRecordSerializationSchema<ValidationOutput> serializer(String topic) {
        KafkaOutputs.requireTopic(topic);
        return new ValidationOutputSerializationSchema(topic);
    }
}
