package io.tfstream.operators.deadletter;

/** The dead-letter circuit breaker tripped: the message names the fraction and the setting. */
public final class DeadLetterRateExceededException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public DeadLetterRateExceededException(String message) {
        super(message);
    }
}
