package io.tfstream.job;

import io.tfstream.api.OwnTransactionsKafkaSink;
import io.tfstream.api.TfstreamKafkaSinkBuilder;
import io.tfstream.api.options.KafkaSinkOptions;
import org.apache.flink.api.connector.sink2.Sink;
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
     * The sink {@code output} (e.g. dlq) builds, with the producer properties as configured; the
     * output's own producer settings (e.g. the payloads' message size) are applied over them.
     */
    <T, B extends TfstreamKafkaSinkBuilder<T, B>> Sink<T> exactlyOnce(B output, String name) {
        String prefix = c.get(JobOptions.JOB_NAME) + "-" + name;
        KafkaSink<T> sink =
                output.setProperties(c.outputProperties())
                        .setTransactionTimeout(
                                c.view(JobOptionStage.KAFKA_SINKS)
                                        .get(KafkaSinkOptions.TRANSACTION_TIMEOUT))
                        .setTransactionalIdPrefix(prefix)
                        .build();
        // output.adopt-transactions: false leaves another job name's transactions in a restored
        // savepoint to that job (blue/green), instead of the connector's take-over
        return c.view(JobOptionStage.KAFKA_SINKS).get(KafkaSinkOptions.ADOPT_TRANSACTIONS)
                ? sink
                : OwnTransactionsKafkaSink.of(sink, prefix);
    }
}
