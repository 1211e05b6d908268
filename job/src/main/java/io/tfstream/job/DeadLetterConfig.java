package io.tfstream.job;

import static io.tfstream.job.OptionChecks.require;

import io.tfstream.api.DeadLetterSink;
import io.tfstream.api.DeadLetterSinkBuilder;

/**
 * The {@code dlq.*} options: the dead-letter topic every rejected record goes to and the circuit
 * breaker that stops the job when too many do.
 */
final class DeadLetterConfig {
    private final JobConfig c;
    private final StageView v;

    DeadLetterConfig(JobConfig c) {
        this.c = c;
        this.v = c.view(JobOptionStage.DEAD_LETTERS);
        require(c, JobOptions.DLQ_TOPIC);
    }

    /** The dead-letter sink's format, tagged with the schema the records were checked against. */
    DeadLetterSinkBuilder sink(String schemaFingerprint) {
        return DeadLetterSink.builder()
                .fromConfig(v)
                .setBootstrapServers(c.sinks().bootstrapServers())
                .setSchemaFingerprint(schemaFingerprint);
    }
}
