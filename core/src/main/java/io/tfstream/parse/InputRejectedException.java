package io.tfstream.parse;

/**
 * A record that does not convert to the schema's Example ({@link RecordDecoder}): its message is
 * the converter's, naming the field at fault.
 */
public final class InputRejectedException extends ExampleParseException {
    private static final long serialVersionUID = 1L;

    public InputRejectedException(int recordIndex, String message) {
        super(ParseErrorKind.CONVERSION, recordIndex, null, message);
    }
}
