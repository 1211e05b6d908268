package io.tfstream.api;

import org.apache.flink.annotation.PublicEvolving;

/**
 * A Kafka sink of validation outputs ({@link ValidationResult#alerts()} or {@link
 * ValidationResult#anomalies()}): key the alert id, value the alert JSON or the {@code Anomalies}
 * bytes, as {@code tfstream run}'s {@code validation.alerts-topic} and {@code
 * validation.anomalies-topic}.
 */
@PublicEvolving
public final class ValidationAlertSink {
    private ValidationAlertSink() {}

    /** A builder of the sink; {@code build()} gives Flink's {@code KafkaSink<ValidationOutput>}. */
    public static ValidationAlertSinkBuilder builder() {
        return new ValidationAlertSinkBuilder();
    }
}
