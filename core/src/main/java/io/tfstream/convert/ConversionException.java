package io.tfstream.convert;

import io.tfstream.text.Quoted;

/**
 * A JSON or Avro record that cannot become the schema's {@code tf.train.Example}: the path of the
 * field at fault ({@code user.age}, {@code tags[2]}; {@code $} for the record as a whole) and why.
 * The message starts with the path.
 */
public final class ConversionException extends Exception {
    private static final long serialVersionUID = 1L;

    /** The path of a fault that belongs to no field (invalid JSON before any field, framing). */
    public static final String RECORD = "$";

    private final String path;

    /** {@code path} comes from the input (field names): it is cut ({@link Quoted}). */
    public ConversionException(String path, String reason) {
        super("field " + Quoted.cut(path) + ": " + reason);
        this.path = Quoted.cut(path);
    }

    public ConversionException(String path, String reason, Throwable cause) {
        super("field " + Quoted.cut(path) + ": " + reason, cause);
        this.path = Quoted.cut(path);
    }

    /** The path of the field at fault, or {@link #RECORD}. */
    public String path() {
        return path;
    }
}
