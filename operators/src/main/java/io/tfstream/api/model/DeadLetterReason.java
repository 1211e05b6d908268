package io.tfstream.api.model;

import io.tfstream.text.Quoted;
import org.apache.flink.annotation.PublicEvolving;

/** Why a record went to the dead-letter output: the {@code tfstream.reason} header codes. */
@PublicEvolving
public enum DeadLetterReason {
    /** TensorFlow would reject the record (or its event time is missing or invalid). */
    PARSE_ERROR("parse_error"),
    /** A {@link io.tfstream.parse.ParseLimits} limit was exceeded. */
    LIMIT_EXCEEDED("limit_exceeded"),
    /** The record cannot fit any output message. */
    TOO_LARGE("too_large"),
    /** Diverted by a validation action. */
    VALIDATION("validation"),
    /** A damaged region of a TFRecord file source. */
    CORRUPT_INPUT("corrupt_input"),
    /** With event-time window batches: the record's window had already closed. */
    LATE("late"),
    /**
     * A JSON or Avro record ({@code source.format}) that does not convert to the schema's Example;
     * the message starts with the field's path.
     */
    CONVERSION_ERROR("conversion_error");

    private final String code;

    DeadLetterReason(String code) {
        this.code = code;
    }

    /** The code written to the {@code tfstream.reason} header and used in metric names. */
    public String code() {
        return code;
    }

    /** The reason with code {@code code}. */
    public static DeadLetterReason ofCode(String code) {
        for (DeadLetterReason r : values()) {
            if (r.code.equals(code)) {
                return r;
            }
        }
        throw new IllegalArgumentException("unknown dead-letter reason '" + Quoted.cut(code) + "'");
    }
}
