package io.tfstream.validation;

/**
 * The schema cannot be validated against at all (an unknown environment, two features with one
 * name): thrown when a {@link ValidationSchema} is built. The message names the feature or setting
 * and what to change.
 */
public final class SchemaLintException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public SchemaLintException(String message) {
        super(message);
    }
}
