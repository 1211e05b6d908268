package io.tfstream.sql;

import static io.tfstream.sql.Examples.decode;
import static io.tfstream.sql.Examples.example;
import static io.tfstream.sql.Examples.rowType;
import static io.tfstream.testkit.ProtoFeatures.bytes;
import static io.tfstream.testkit.ProtoFeatures.floats;
import static io.tfstream.testkit.ProtoFeatures.int64s;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Reading: every row of the type table, NULL semantics, range errors, refused types. */
class TfExampleDecodeTest {

    static java.util.stream.Stream<Arguments> int64Columns() {
        return java.util.stream.Stream.of(
                Arguments.of(DataTypes.BIGINT(), Long.MIN_VALUE, Long.MIN_VALUE, null),
                Arguments.of(DataTypes.INT(), -7L, -7, 1L << 31),
                Arguments.of(DataTypes.SMALLINT(), 300L, (short) 300, 1L << 15),
                Arguments.of(DataTypes.TINYINT(), -128L, (byte) -128, -129L),
                Arguments.of(DataTypes.BOOLEAN(), 1L, true, 2L));
    }

    @ParameterizedTest
    @MethodSource("int64Columns")
    void int64ColumnsReadOneValueAndRefuseOutOfRange(
            DataType type, long value, Object expected, Long outOfRange) throws Exception {
        RowType t = rowType("x", type);
        RowData row = decode(t, example(Map.of("x", int64s(value))));
        assertEquals(
                expected,
                org.apache.flink.table.data.RowData.createFieldGetter(t.getTypeAt(0), 0)
                        .getFieldOrNull(row));
        if (outOfRange != null) {
            RowDecodeException e =
                    assertThrows(
                            RowDecodeException.class,
                            () -> decode(t, example(Map.of("x", int64s(outOfRange)))));
            assertTrue(e.getMessage().contains("Column 'x'"), e.getMessage());
            assertTrue(e.getMessage().contains("out of range"), e.getMessage());
        }
    }

    @Test
    void booleanZeroIsFalse() throws Exception {
        RowData row = decode(rowType("b", DataTypes.BOOLEAN()), example(Map.of("b", int64s(0))));
        assertEquals(false, row.getBoolean(0));
    }

    @Test
    void floatAndDoubleReadFloatList() throws Exception {
        RowType t =
                rowType(
                        DataTypes.FIELD("f", DataTypes.FLOAT()),
                        DataTypes.FIELD("d", DataTypes.DOUBLE()));
        RowData row = decode(t, example(Map.of("f", floats(1.5f), "d", floats(Float.NaN))));
        assertEquals(1.5f, row.getFloat(0));
        assertTrue(Double.isNaN(row.getDouble(1)));
    }

    @Test
    void bytesAndStringReadBytesList() throws Exception {
        RowType t =
                rowType(
                        DataTypes.FIELD("b", DataTypes.BYTES()),
                        DataTypes.FIELD("s", DataTypes.STRING()));
        byte[] raw = {0, (byte) 0xff, 7};
        RowData row =
                decode(
                        t,
                        example(
                                Map.of(
                                        "b",
                                        bytes(raw),
                                        "s",
                                        bytes("héllo".getBytes(StandardCharsets.UTF_8)))));
        assertArrayEquals(raw, row.getBinary(0));
        assertEquals("héllo", row.getString(1).toString());
    }

    @Test
    void invalidUtf8IsAParseError() {
        RowType t = rowType("s", DataTypes.STRING());
        RowDecodeException e =
                assertThrows(
                        RowDecodeException.class,
                        () -> decode(t, example(Map.of("s", bytes(new byte[] {(byte) 0xc3})))));
        assertTrue(e.getMessage().contains("Column 's'"), e.getMessage());
        assertTrue(e.getMessage().contains("UTF-8"), e.getMessage());
    }

    @Test
    void timestampsAreEpochMilliseconds() throws Exception {
        RowType t =
                rowType(
                        DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)),
                        DataTypes.FIELD("ltz", DataTypes.TIMESTAMP_LTZ(3)));
        long ms = 1_700_000_000_123L;
        RowData row = decode(t, example(Map.of("ts", int64s(ms), "ltz", int64s(-5))));
        assertEquals(ms, row.getTimestamp(0, 3).getMillisecond());
        assertEquals(-5, row.getTimestamp(1, 3).getMillisecond());
    }

    @Test
    void arraysHoldTheWholeListAndAnEmptyListIsAnEmptyArray() throws Exception {
        RowType t =
                rowType(
                        DataTypes.FIELD("i", DataTypes.ARRAY(DataTypes.INT())),
                        DataTypes.FIELD("f", DataTypes.ARRAY(DataTypes.DOUBLE())),
                        DataTypes.FIELD("s", DataTypes.ARRAY(DataTypes.STRING())),
                        DataTypes.FIELD("e", DataTypes.ARRAY(DataTypes.BIGINT())));
        RowData row =
                decode(
                        t,
                        example(
                                Map.of(
                                        "i",
                                        int64s(1, 2, 3),
                                        "f",
                                        floats(0.5f, -1f),
                                        "s",
                                        bytes("a".getBytes(StandardCharsets.UTF_8), new byte[0]),
                                        "e",
                                        int64s())));
        ArrayData i = row.getArray(0);
        assertEquals(3, i.size());
        assertEquals(3, i.getInt(2));
        assertEquals(-1.0, row.getArray(1).getDouble(1));
        assertEquals("", row.getArray(2).getString(1).toString());
        assertEquals(0, row.getArray(3).size());
    }

    @Test
    void anAbsentFeatureIsNull() throws Exception {
        RowType t =
                rowType(
                        DataTypes.FIELD("a", DataTypes.BIGINT()),
                        DataTypes.FIELD("l", DataTypes.ARRAY(DataTypes.BIGINT())),
                        DataTypes.FIELD("p", DataTypes.BIGINT()));
        RowData row = decode(t, example(Map.of("p", int64s(4), "other", floats(1f))));
        assertTrue(row.isNullAt(0));
        assertTrue(row.isNullAt(1));
        assertEquals(4, row.getLong(2));
    }

    @Test
    void aScalarWithZeroOrSeveralValuesIsAParseError() {
        RowType t = rowType("x", DataTypes.BIGINT());
        for (byte[] record :
                new byte[][] {example(Map.of("x", int64s())), example(Map.of("x", int64s(1, 2)))}) {
            RowDecodeException e = assertThrows(RowDecodeException.class, () -> decode(t, record));
            assertTrue(e.getMessage().contains("Column 'x' is a scalar"), e.getMessage());
        }
    }

    @Test
    void aFeatureOfAnotherListTypeIsTensorFlowsParseError() {
        RowType t = rowType("x", DataTypes.BIGINT());
        RowDecodeException e =
                assertThrows(
                        RowDecodeException.class,
                        () -> decode(t, example(Map.of("x", floats(1f)))));
        assertTrue(e.getMessage().contains("Data types don't match"), e.getMessage());
    }

    @Test
    void aRecordThatIsNotAnExampleIsAParseError() {
        RowType t = rowType("x", DataTypes.BIGINT());
        RowDecodeException e =
                assertThrows(
                        RowDecodeException.class, () -> decode(t, new byte[] {(byte) 0xff, 1}));
        assertTrue(e.getMessage().contains("Could not parse example input"), e.getMessage());
    }

    @Test
    void repeatedKeysTakeTheLastEntryAsTensorFlowDoes() throws Exception {
        RowType t =
                rowType(
                        DataTypes.FIELD("x", DataTypes.BIGINT()),
                        DataTypes.FIELD("y", DataTypes.BIGINT()));
        // Two concatenated Examples merge: x appears twice (the parser's last-wins pass).
        byte[] a = example(Map.of("x", int64s(1)));
        byte[] b = example(Map.of("x", int64s(2)));
        byte[] both = new byte[a.length + b.length];
        System.arraycopy(a, 0, both, 0, a.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        RowData row = decode(t, both);
        assertEquals(2, row.getLong(0));
        assertTrue(row.isNullAt(1));
    }

    @Test
    void ignoreParseErrorsSkipsAndCounts() throws Exception {
        RowType t = rowType("x", DataTypes.INT());
        TfExampleDeserializationSchema s = Examples.decoder(t, null, true);
        assertNull(s.deserialize(example(Map.of("x", int64s(1L << 40)))));
        assertNull(s.deserialize(new byte[] {(byte) 0xff}));
        assertEquals(5, s.deserialize(example(Map.of("x", int64s(5)))).getInt(0));
        assertEquals(2, s.skipped());
    }

    @Test
    void unsupportedTypesAreRefusedNamingTheColumn() {
        for (DataType type :
                new DataType[] {
                    DataTypes.DECIMAL(10, 2),
                    DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT())),
                    DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()),
                    DataTypes.DATE(),
                    DataTypes.TIMESTAMP(6),
                    DataTypes.ARRAY(DataTypes.DECIMAL(5, 1))
                }) {
            ValidationException e =
                    assertThrows(
                            ValidationException.class,
                            () -> Examples.decoder(rowType("bad_col", type), null, false));
            assertTrue(e.getMessage().contains("Column 'bad_col'"), e.getMessage());
        }
    }

    @Test
    void nestedArraysNeedASchema() {
        ValidationException e =
                assertThrows(
                        ValidationException.class,
                        () ->
                                Examples.decoder(
                                        rowType(
                                                "n",
                                                DataTypes.ARRAY(
                                                        DataTypes.ARRAY(DataTypes.BIGINT()))),
                                        null,
                                        false));
        assertTrue(e.getMessage().contains("tf-example.schema-path"), e.getMessage());
    }
}
