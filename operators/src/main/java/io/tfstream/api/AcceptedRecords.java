package io.tfstream.api;

import io.tfstream.api.model.SourceRecord;
import io.tfstream.api.options.KafkaSinkOptions;
import io.tfstream.operators.kafka.AcceptedRecordSerializationSchema;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;

/**
 * Accepted records ({@link ParseResult#accepted()}) as Kafka records, as {@code tfstream run}
 * writes {@code output.records.topic}: value, key and headers as they were read. Give it to Flink's
 * {@code KafkaSink.builder().setRecordSerializer(...)}.
 */
@PublicEvolving
public final class AcceptedRecords {
    private AcceptedRecords() {}

    /** Accepted records to {@code topic}. */
    public static KafkaRecordSerializationSchema<SourceRecord> serializer(String topic) {
        KafkaOutputs.requireTopic(topic);
        return new AcceptedRecordSerializationSchema(topic);
    }

    /**
     * The records topic {@code config} names ({@link KafkaSinkOptions#RECORDS_TOPIC}, required;
     * keys relative to the stage).
     */
    public static KafkaRecordSerializationSchema<SourceRecord> fromConfig(ReadableConfig config) {
        return serializer(KafkaOutputs.topic(config, KafkaSinkOptions.RECORDS_TOPIC));
    }
}
