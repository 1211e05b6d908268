package io.tfstream.job;

import static io.tfstream.job.OptionChecks.require;

import io.tfstream.api.DeadLetterRecords;
import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.DeadLetterGuard;
import io.tfstream.api.options.DeadLetterOptions;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;

/**
 * The {@code dlq.*} options: the dead-letter topic every rejected record goes to and the circuit
 * breaker that stops the job when too many do.
 */
final class DeadLetterConfig {
    private final StageView v;

    DeadLetterConfig(JobConfig c) {
        this.v = c.view(JobOptionStage.DEAD_LETTERS);
        require(c, JobOptions.DLQ_TOPIC);
    }

    /** The circuit breaker of the parse and the conversion ({@code dlq.max-fraction}, ...). */
    DeadLetterGuard guard() {
        return DeadLetterOptions.guard(v).orElse(DeadLetterGuard.off());
    }

    /** The dead letters' records, tagged with the schema the records were checked against. */
    KafkaRecordSerializationSchema<DeadLetter> records(String schemaFingerprint) {
        return DeadLetterRecords.fromConfig(v, schemaFingerprint);
    }
}
