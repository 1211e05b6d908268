package io.tfstream.api.model;

import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A record that goes to the dead-letter output: the original record, the reason, the message
 * (TensorFlow's text for {@link DeadLetterReason#PARSE_ERROR}) and the fingerprint of the schema it
 * was judged under (null where no schema judged it, e.g. a conversion error: the sink then writes
 * the job's configured one). A record converted from JSON or Avro is kept {@linkplain
 * SourceRecord#asArrived() as it arrived}: its dead letter carries the original bytes, whichever
 * stage refused it.
 */
@PublicEvolving
public record DeadLetter(
        SourceRecord source, DeadLetterReason reason, String error, String schemaFingerprint) {
    public DeadLetter {
        source = Objects.requireNonNull(source, "source").asArrived();
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(error, "error");
    }

    /** A dead letter without a schema of its own. */
    public DeadLetter(SourceRecord source, DeadLetterReason reason, String error) {
        this(source, reason, error, null);
    }
}
