package io.tfstream.api;

import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.kafka.AcceptedRecordSerializationSchema;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;

/** The builder of a {@link AcceptedRecordSink}: topic, brokers and the format's settings. */
@PublicEvolving
public final class AcceptedRecordSinkBuilder
        extends TfstreamKafkaSinkBuilder<SourceRecord, AcceptedRecordSinkBuilder> {
    AcceptedRecordSinkBuilder() {}

    @Override
    AcceptedRecordSinkBuilder self() {
        return this;
    }

    @Override
    void checkFormat() {}

    @Override
    KafkaRecordSerializationSchema<SourceRecord> serializationSchema(String topic) {
        return new AcceptedRecordSerializationSchema(topic);
    }
}
