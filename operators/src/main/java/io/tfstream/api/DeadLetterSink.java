package io.tfstream.api;

import org.apache.flink.annotation.PublicEvolving;

/**
 * A Kafka sink of dead letters ({@link ParseResult#deadLetters()}): each the original record
 * (value, key, headers) followed by the {@code tfstream.*} dead-letter headers, as {@code tfstream
 * run}'s {@code dlq.topic}:
 *
 * <pre>{@code
 * result.deadLetters().sinkTo(
 *         DeadLetterSink.builder()
 *                 .setBootstrapServers("broker:9092")
 *                 .setTopic("dead-letters")
 *                 .setSchemaFingerprint(fingerprint)
 *                 .setTransactionalIdPrefix("my-job-dlq")
 *                 .build());
 * }</pre>
 */
@PublicEvolving
public final class DeadLetterSink {
    private DeadLetterSink() {}

    /** A builder of the sink; {@code build()} gives Flink's {@code KafkaSink<DeadLetter>}. */
    public static DeadLetterSinkBuilder builder() {
        return new DeadLetterSinkBuilder();
    }
}
