package io.tfstream.operators.deadletter;

import io.tfstream.operators.source.SourceRecord;
import java.util.Objects;

/**
 * A record that goes to the dead-letter output: the original record, the reason and the message
 * (TensorFlow's text for {@link DeadLetterReason#PARSE_ERROR}). A record converted from JSON or
 * Avro is kept {@linkplain SourceRecord#asArrived() as it arrived}: its dead letter carries the
 * original bytes, whichever stage refused it.
 */
public record DeadLetter(SourceRecord source, DeadLetterReason reason, String error) {
    public DeadLetter {
        source = Objects.requireNonNull(source, "source").asArrived();
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(error, "error");
    }
}
