package io.tfstream.operators.deadletter;

import io.tfstream.api.model.DeadLetterReason;
import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.InputRejectedException;
import io.tfstream.parse.ParseLimitException;
import org.apache.flink.annotation.Internal;

/** The dead-letter reason of a record the parser rejected. */
@Internal
public final class ParseRejections {
    private ParseRejections() {}

    /** The reason for a record the parser rejected with {@code e}. */
    public static DeadLetterReason reason(ExampleParseException e) {
        return e instanceof ParseLimitException
                ? DeadLetterReason.LIMIT_EXCEEDED
                : e instanceof InputRejectedException
                        ? DeadLetterReason.CONVERSION_ERROR
                        : DeadLetterReason.PARSE_ERROR;
    }
}
