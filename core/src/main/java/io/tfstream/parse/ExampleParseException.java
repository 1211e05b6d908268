package io.tfstream.parse;

import org.apache.flink.annotation.PublicEvolving;

/**
 * A record that TensorFlow's parsing op would reject. The message is TensorFlow's own status text
 * (e.g. {@code Name: <unknown>, Key: a, Index: 0. Data types don't match. ...}); {@link
 * #recordIndex()} is the record's position in the batch, or -1 when the error concerns the batch as
 * a whole.
 */
@PublicEvolving
public class ExampleParseException extends Exception {
    private static final long serialVersionUID = 1L;

    private final ParseErrorKind kind;
    private final int recordIndex;
    private final String featureKey;

    public ExampleParseException(
            ParseErrorKind kind, int recordIndex, String featureKey, String message) {
        super(message);
        this.kind = kind;
        this.recordIndex = recordIndex;
        this.featureKey = featureKey;
    }

    public ParseErrorKind kind() {
        return kind;
    }

    /** Position of the bad record in the batch, or -1. */
    public int recordIndex() {
        return recordIndex;
    }

    /** The feature the error is about, or null. */
    public String featureKey() {
        return featureKey;
    }

    /**
     * The status code name for this error: {@code INVALID_ARGUMENT}, as TensorFlow reports every
     * parse error; {@link ParseLimitException} reports {@code RESOURCE_EXHAUSTED}.
     */
    public String code() {
        return "INVALID_ARGUMENT";
    }
}
