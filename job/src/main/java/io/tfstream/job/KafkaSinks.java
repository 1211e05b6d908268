package io.tfstream.job;

import java.util.Properties;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;

/**
 * The exactly-once Kafka sinks every stage writes through ({@code output.bootstrap-servers}, {@code
 * output.properties.*}, {@code output.transaction-timeout}); each gets its own transactional-id
 * prefix {@code <job.name>-<output>} so that the sinks of one job never fence each other.
 */
final class KafkaSinks {
    private final JobConfig c;

    KafkaSinks(JobConfig c) {
        this.c = c;
        OptionChecks.positive(c, JobOptions.OUTPUT_TRANSACTION_TIMEOUT);
    }

    /** A sink of output {@code name} (e.g. dlq) with the producer properties as configured. */
    <T> KafkaSink<T> exactlyOnce(KafkaRecordSerializationSchema<T> schema, String name) {
        return exactlyOnce(c.outputProperties(), schema, name);
    }

    /** A sink of output {@code name} with producer properties {@code p}. */
    <T> KafkaSink<T> exactlyOnce(
            Properties p, KafkaRecordSerializationSchema<T> schema, String name) {
        p.setProperty(
                "transaction.timeout.ms",
                Long.toString(c.get(JobOptions.OUTPUT_TRANSACTION_TIMEOUT).toMillis()));
        return KafkaSink.<T>builder()
                .setBootstrapServers(c.outputBootstrapServers())
                .setKafkaProducerConfig(p)
                .setRecordSerializer(schema)
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix(c.get(JobOptions.JOB_NAME) + "-" + name)
                .build();
    }
}
