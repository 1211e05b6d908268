package io.tfstream.api;

import io.tfstream.api.model.ValidationOutput;
import io.tfstream.operators.validation.ValidationOutputSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;

/**
 * A Kafka sink of validation outputs ({@link ValidationResult#alerts()} or {@link
 * ValidationResult#anomalies()}): key the alert id, value the alert JSON or the {@code Anomalies}
 * bytes, as {@code tfstream run}'s {@code validation.alerts-topic} and {@code
 * validation.anomalies-topic}.
 */
public final class ValidationAlertSink
        extends TfstreamKafkaSinkBuilder<ValidationOutput, ValidationAlertSink> {
    private ValidationAlertSink(String bootstrapServers, String topic) {
        super(bootstrapServers, topic);
    }

    /** A builder of the sink writing to {@code topic} on {@code bootstrapServers}. */
    public static ValidationAlertSink kafka(String bootstrapServers, String topic) {
        return new ValidationAlertSink(bootstrapServers, topic);
    }

    @Override
    ValidationAlertSink self() {
        return this;
    }

    @Override
    void checkFormat() {}

    @Override
    KafkaRecordSerializationSchema<ValidationOutput> serializationSchema(String topic) {
        return new ValidationOutputSerializationSchema(topic);
    }
}
