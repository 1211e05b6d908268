package io.tfstream.api;

import io.tfstream.api.model.ValidationOutput;
import io.tfstream.operators.validation.ValidationOutputSerializationSchema;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;

/** The builder of a {@link ValidationAlertSink}: topic, brokers and the format's settings. */
@PublicEvolving
public final class ValidationAlertSinkBuilder
        extends TfstreamKafkaSinkBuilder<ValidationOutput, ValidationAlertSinkBuilder> {
    ValidationAlertSinkBuilder() {}

    @Override
    ValidationAlertSinkBuilder self() {
        return this;
    }

    @Override
    void checkFormat() {}

    @Override
    KafkaRecordSerializationSchema<ValidationOutput> serializationSchema(String topic) {
        return new ValidationOutputSerializationSchema(topic);
    }
}
