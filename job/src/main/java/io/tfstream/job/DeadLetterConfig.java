package io.tfstream.job;

import static io.tfstream.job.OptionChecks.require;

import io.tfstream.api.DeadLetterSink;
import io.tfstream.api.DeadLetterSinkBuilder;
import io.tfstream.api.model.DeadLetterGuard;

/**
 * The {@code dlq.*} options: the dead-letter topic every rejected record goes to and the circuit
 * breaker that stops the job when too many do.
 */
final class DeadLetterConfig {
    private final JobConfig c;

    DeadLetterConfig(JobConfig c) {
        this.c = c;
        require(c, JobOptions.DLQ_TOPIC);
    }

    /** The circuit breaker of the batch-and-parse operators. */
    DeadLetterGuard guard() {
        return new DeadLetterGuard(
                c.get(JobOptions.DLQ_MAX_FRACTION),
                c.get(JobOptions.DLQ_WINDOW),
                c.get(JobOptions.DLQ_MIN_RECORDS));
    }

    /** The dead-letter sink's format, tagged with the schema the records were checked against. */
    DeadLetterSinkBuilder sink(String schemaFingerprint) {
        return DeadLetterSink.builder()
                .setBootstrapServers(c.sinks().bootstrapServers())
                .setTopic(c.get(JobOptions.DLQ_TOPIC))
                .setSchemaFingerprint(schemaFingerprint)
                .setMaxErrorBytes(c.get(JobOptions.DLQ_MAX_ERROR_BYTES));
    }
}
