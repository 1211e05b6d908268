package io.tfstream.operators.deadletter;

import org.apache.flink.annotation.Internal;

/** The dead-letter circuit breaker tripped: the message names the fraction and the setting. */
@Internal
public final class DeadLetterRateExceededException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public DeadLetterRateExceededException(String message) {
        super(message);
    }
}
