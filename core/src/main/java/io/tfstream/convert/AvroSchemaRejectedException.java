package io.tfstream.convert;

/**
 * An Avro writer schema that cannot convert to the TFMD schema's features, refused at start: a
 * logical type other than {@code timestamp-millis} and {@code date}, a type that never fits its
 * feature, a nested record without {@code source.convert.flatten}. The message names the field.
 */
public final class AvroSchemaRejectedException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public AvroSchemaRejectedException(String message) {
        super(message);
    }
}
