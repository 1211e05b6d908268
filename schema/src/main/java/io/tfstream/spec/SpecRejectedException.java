package io.tfstream.spec;

/**
 * A schema or a feature spec that cannot be turned into a parse spec. The message says what is
 * wrong and names the feature; where TensorFlow, tfx-bsl or tensorflow_transform reject the same
 * input, it carries their text.
 */
public class SpecRejectedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SpecRejectedException(String message) {
        super(message);
    }

    public SpecRejectedException(String message, Throwable cause) {
        super(message, cause);
    }
}
