package io.tfstream.spec;

import java.io.IOException;

/**
 * A schema or SPEC.json file that cannot be read as one: not a text or binary {@code
 * tensorflow.metadata.v0.Schema}, or not JSON. The message names the file and, where the parser
 * knows it, the line and column. Content that parses but is refused is a {@link
 * SpecRejectedException} instead.
 */
public final class MalformedSpecFileException extends IOException {
    private static final long serialVersionUID = 1L;

    public MalformedSpecFileException(String message, Throwable cause) {
        super(message, cause);
    }
}
