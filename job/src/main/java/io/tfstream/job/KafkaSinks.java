package io.tfstream.job;

import io.tfstream.api.OwnTransactionsKafkaSink;
import io.tfstream.api.options.KafkaSinkOptions;
import java.util.Properties;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;

/**
 * The exactly-once Kafka sinks every stage writes through ({@code output.bootstrap-servers}, {@code
 * output.properties.*}, {@code output.transaction-timeout}), built with the library's sink
 * builders; each gets its own transactional-id prefix {@code <job.name>-<output>} so that the sinks
 * of one job never fence each other.
 */
final class KafkaSinks {
    private final JobConfig c;

    KafkaSinks(JobConfig c) {
        this.c = c;
    }

    /** The brokers every output is written to. */
    String bootstrapServers() {
        return c.outputBootstrapServers();
    }

    /**
     * The exactly-once sink of {@code records} for output {@code name} (e.g. dlq), with the
     * producer properties as configured.
     */
    <T> Sink<T> exactlyOnce(KafkaRecordSerializationSchema<T> records, String name) {
        return exactlyOnce(records, name, c.outputProperties());
    }

    /**
     * As {@link #exactlyOnce(KafkaRecordSerializationSchema, String)} with {@code producer}, the
     * output's own producer settings (the payloads' message size) over the configured ones.
     */
    <T> Sink<T> exactlyOnce(
            KafkaRecordSerializationSchema<T> records, String name, Properties producer) {
        StageView kafka = c.view(JobOptionStage.KAFKA_SINKS);
        String prefix = c.transactionalIdPrefix() + name;
        Properties p = new Properties();
        p.putAll(producer);
        p.setProperty(
                "transaction.timeout.ms",
                Long.toString(kafka.get(KafkaSinkOptions.TRANSACTION_TIMEOUT).toMillis()));
        KafkaSink<T> sink =
                KafkaSink.<T>builder()
                        .setBootstrapServers(bootstrapServers())
                        .setKafkaProducerConfig(p)
                        .setRecordSerializer(records)
                        .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                        .setTransactionalIdPrefix(prefix)
                        .build();
        // output.adopt-transactions: false leaves another job name's transactions in a restored
        // savepoint to that job (blue/green), instead of the connector's take-over
        return kafka.get(KafkaSinkOptions.ADOPT_TRANSACTIONS)
                ? sink
                : OwnTransactionsKafkaSink.of(sink, prefix);
    }
}
