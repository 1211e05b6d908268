package io.tfstream.operators.deadletter;

import io.tfstream.operators.source.SourceRecord;
import java.util.Objects;

/**
 * A record that goes to the dead-letter output: the original record, the reason and the message
 * (TensorFlow's text for {@link DeadLetterReason#PARSE_ERROR}).
 */
public record DeadLetter(SourceRecord source, DeadLetterReason reason, String error) {
    public DeadLetter {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(error, "error");
    }
}
