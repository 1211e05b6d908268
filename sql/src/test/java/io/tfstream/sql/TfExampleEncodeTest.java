package io.tfstream.sql;

import static io.tfstream.sql.Examples.rowType;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;

/** Writing: a row → an Example of exactly its non-null columns, read back equal. */
class TfExampleEncodeTest {
    private static final RowType ALL =
            rowType(
                    DataTypes.FIELD("big", DataTypes.BIGINT()),
                    DataTypes.FIELD("i", DataTypes.INT()),
                    DataTypes.FIELD("s", DataTypes.SMALLINT()),
                    DataTypes.FIELD("t", DataTypes.TINYINT()),
                    DataTypes.FIELD("b", DataTypes.BOOLEAN()),
                    DataTypes.FIELD("f", DataTypes.FLOAT()),
                    DataTypes.FIELD("d", DataTypes.DOUBLE()),
                    DataTypes.FIELD("bin", DataTypes.BYTES()),
                    DataTypes.FIELD("str", DataTypes.STRING()),
                    DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)),
                    DataTypes.FIELD("ltz", DataTypes.TIMESTAMP_LTZ(3)),
                    DataTypes.FIELD("arr", DataTypes.ARRAY(DataTypes.INT())),
                    DataTypes.FIELD("farr", DataTypes.ARRAY(DataTypes.DOUBLE())),
                    DataTypes.FIELD("sarr", DataTypes.ARRAY(DataTypes.STRING())),
                    DataTypes.FIELD("empty", DataTypes.ARRAY(DataTypes.BIGINT())),
                    DataTypes.FIELD("nul", DataTypes.BIGINT()));

    private static GenericRowData row() {
        return GenericRowData.of(
                -3L,
                42,
                (short) -2,
                (byte) 9,
                true,
                1.25f,
                -0.5,
                new byte[] {1, 2},
                StringData.fromString("ü"),
                TimestampData.fromEpochMillis(1234L),
                TimestampData.fromEpochMillis(-1L),
                new GenericArrayData(new Object[] {1, 2}),
                new GenericArrayData(new Object[] {0.25}),
                new GenericArrayData(new Object[] {StringData.fromString("a")}),
                new GenericArrayData(new Object[0]),
                null);
    }

    @Test
    void everyColumnBecomesItsFeature() throws Exception {
        byte[] bytes = new TfExampleSerializationSchema(ALL).serialize(row());
        java.util.Map<String, Feature> f = Example.parseFrom(bytes).getFeatures().getFeatureMap();
        assertEquals(15, f.size()); // the NULL column is absent
        assertTrue(!f.containsKey("nul"));
        assertEquals(-3L, f.get("big").getInt64List().getValue(0));
        assertEquals(42L, f.get("i").getInt64List().getValue(0));
        assertEquals(1L, f.get("b").getInt64List().getValue(0));
        assertEquals(-0.5f, f.get("d").getFloatList().getValue(0));
        assertEquals("ü", f.get("str").getBytesList().getValue(0).toString(StandardCharsets.UTF_8));
        assertEquals(1234L, f.get("ts").getInt64List().getValue(0));
        assertEquals(2, f.get("arr").getInt64List().getValueCount());
        assertEquals(Feature.KindCase.INT64_LIST, f.get("empty").getKindCase());
        assertEquals(0, f.get("empty").getInt64List().getValueCount());
    }

    @Test
    void writtenRowsReadBackEqual() throws Exception {
        RowData back = Examples.decode(ALL, new TfExampleSerializationSchema(ALL).serialize(row()));
        GenericRowData expected = row();
        for (int i = 0; i < ALL.getFieldCount(); i++) {
            RowData.FieldGetter g = RowData.createFieldGetter(ALL.getTypeAt(i), i);
            Object a = g.getFieldOrNull(expected);
            Object b = g.getFieldOrNull(back);
            String name = ALL.getFieldNames().get(i);
            if (a instanceof byte[] x) {
                assertTrue(java.util.Arrays.equals(x, (byte[]) b), name);
            } else if (a instanceof GenericArrayData x) {
                assertEquals(
                        java.util.Arrays.toString(x.toObjectArray()),
                        java.util.Arrays.toString(((GenericArrayData) b).toObjectArray()),
                        name);
            } else {
                assertEquals(a, b, name);
            }
        }
    }

    @Test
    void aNullArrayElementIsRefusedNamingTheColumn() {
        GenericRowData r = new GenericRowData(1);
        r.setField(0, new GenericArrayData(new Object[] {1L, null}));
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                new TfExampleSerializationSchema(
                                                rowType("a", DataTypes.ARRAY(DataTypes.BIGINT())))
                                        .serialize(r));
        assertTrue(e.getMessage().contains("Column 'a'"), e.getMessage());
    }

    @Test
    void nestedArraysAndOtherTypesAreRefused() {
        assertThrows(
                ValidationException.class,
                () ->
                        new TfExampleSerializationSchema(
                                rowType("n", DataTypes.ARRAY(DataTypes.ARRAY(DataTypes.INT())))));
        ValidationException e =
                assertThrows(
                        ValidationException.class,
                        () ->
                                new TfExampleSerializationSchema(
                                        rowType("m", DataTypes.DECIMAL(3, 1))));
        assertTrue(e.getMessage().contains("Column 'm'"), e.getMessage());
    }
}
