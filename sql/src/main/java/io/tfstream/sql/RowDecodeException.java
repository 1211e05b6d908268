package io.tfstream.sql;

import org.apache.flink.annotation.Internal;

/**
 * A record that does not fit the table's columns, or that the parser rejected: the message names
 * the column (or TensorFlow's parse error) and, where known, the record's position.
 */
@Internal
public class RowDecodeException extends java.io.IOException {
    private static final long serialVersionUID = 1L;

    public RowDecodeException(String message) {
        super(message);
    }

    public RowDecodeException(String message, Throwable cause) {
        super(message, cause);
    }
}
