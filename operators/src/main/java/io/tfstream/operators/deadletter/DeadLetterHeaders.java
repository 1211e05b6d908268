package io.tfstream.operators.deadletter;

import org.apache.flink.annotation.Internal;

/**
 * The header names of dead-letter records (docs/streaming-job.md#dead-letter-records); values are
 * UTF-8 strings.
 */
@Internal
public final class DeadLetterHeaders {
    private DeadLetterHeaders() {}

    public static final String REASON = "tfstream.reason";
    public static final String ERROR = "tfstream.error";
    public static final String SOURCE_TOPIC = "tfstream.source.topic";
    public static final String SOURCE_PARTITION = "tfstream.source.partition";
    public static final String SOURCE_OFFSET = "tfstream.source.offset";
    public static final String SOURCE_TIMESTAMP = "tfstream.source.timestamp";
    public static final String SOURCE_FILE = "tfstream.source.file";
    public static final String SOURCE_BYTE_OFFSET = "tfstream.source.byte-offset";
    public static final String SCHEMA_FINGERPRINT = "tfstream.schema.fingerprint";
}
