package io.tfstream.api;

import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.kafka.AcceptedRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;

/**
 * A Kafka sink of accepted records ({@link ParseResult#accepted()}), each written as it was read
 * (value, key, headers), as {@code tfstream run}'s {@code output.records.topic}.
 */
public final class AcceptedRecordSink
        extends TfstreamKafkaSinkBuilder<SourceRecord, AcceptedRecordSink> {
    private AcceptedRecordSink(String bootstrapServers, String topic) {
        super(bootstrapServers, topic);
    }

    /** A builder of the sink writing to {@code topic} on {@code bootstrapServers}. */
    public static AcceptedRecordSink kafka(String bootstrapServers, String topic) {
        return new AcceptedRecordSink(bootstrapServers, topic);
    }

    @Override
    AcceptedRecordSink self() {
        return this;
    }

    @Override
    void checkFormat() {}

    @Override
    KafkaRecordSerializationSchema<SourceRecord> serializationSchema(String topic) {
        return new AcceptedRecordSerializationSchema(topic);
    }
}
