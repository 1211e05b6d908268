package io.tfstream.api;

import org.apache.flink.annotation.PublicEvolving;

/**
 * A Kafka sink of accepted records ({@link ParseResult#accepted()}), each written as it was read
 * (value, key, headers), as {@code tfstream run}'s {@code output.records.topic}.
 */
@PublicEvolving
public final class AcceptedRecordSink {
    private AcceptedRecordSink() {}

    /** A builder of the sink; {@code build()} gives Flink's {@code KafkaSink<SourceRecord>}. */
    public static AcceptedRecordSinkBuilder builder() {
        return new AcceptedRecordSinkBuilder();
    }
}
