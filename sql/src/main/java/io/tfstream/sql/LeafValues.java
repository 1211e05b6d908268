package io.tfstream.sql;

import io.tfstream.tensor.Column;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

/**
 * Turns one parsed feature value into the Flink internal value of a column's leaf type, refusing
 * what the type cannot hold: an int64 outside INT / SMALLINT / TINYINT, a BOOLEAN other than 0 or
 * 1, text that is not UTF-8. Not thread-safe (one UTF-8 decoder per instance).
 */
final class LeafValues {
    private final CharsetDecoder utf8 =
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);

    Object get(ExampleColumn c, Column values, int i) throws RowDecodeException {
        switch (c.leaf()) {
            case BIGINT:
                return values.int64(i);
            case INTEGER:
                return (int) ranged(c, values.int64(i), Integer.MIN_VALUE, Integer.MAX_VALUE);
            case SMALLINT:
                return (short) ranged(c, values.int64(i), Short.MIN_VALUE, Short.MAX_VALUE);
            case TINYINT:
                return (byte) ranged(c, values.int64(i), Byte.MIN_VALUE, Byte.MAX_VALUE);
            case BOOLEAN:
                return ranged(c, values.int64(i), 0, 1) == 1;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return TimestampData.fromEpochMillis(values.int64(i));
            case FLOAT:
                return values.float32(i);
            case DOUBLE:
                return (double) values.float32(i);
            case CHAR:
            case VARCHAR:
                return StringData.fromBytes(utf8(c, values, i));
            default: // BINARY, VARBINARY
                int s = values.bytesStart(i);
                return Arrays.copyOfRange(values.bytesData(), s, s + values.bytesLength(i));
        }
    }

    private static long ranged(ExampleColumn c, long v, long min, long max)
            throws RowDecodeException {
        if (v < min || v > max) {
            throw new RowDecodeException(
                    "Column '"
                            + c.name()
                            + "': int64 value "
                            + v
                            + " is out of range for "
                            + c.leafName()
                            + " ["
                            + min
                            + ", "
                            + max
                            + "]");
        }
        return v;
    }

    private byte[] utf8(ExampleColumn c, Column values, int i) throws RowDecodeException {
        int s = values.bytesStart(i);
        int n = values.bytesLength(i);
        try {
            utf8.reset().decode(ByteBuffer.wrap(values.bytesData(), s, n));
        } catch (CharacterCodingException e) {
            throw new RowDecodeException(
                    "Column '"
                            + c.name()
                            + "' is "
                            + c.leafName()
                            + " but a bytes_list value is not valid UTF-8 (declare it as BYTES)",
                    e);
        }
        return Arrays.copyOfRange(values.bytesData(), s, s + n);
    }
}
