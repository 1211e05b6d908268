package io.tfstream.sql;

import static io.tfstream.sql.Examples.example;
import static io.tfstream.sql.Examples.rowType;
import static io.tfstream.testkit.ProtoFeatures.floats;
import static io.tfstream.testkit.ProtoFeatures.int64s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tf-example.schema-path}: defaults, required features, ragged nesting, column checks. */
class TfExampleSchemaPathTest {
    private static final String SPEC =
            "{\n"
                    + "  \"d\": {\"type\": \"fixed_len\", \"dtype\": \"int64\", \"shape\": [],"
                    + " \"default\": 7},\n"
                    + "  \"req\": {\"type\": \"fixed_len\", \"dtype\": \"float32\", \"shape\": []},\n"
                    + "  \"vec\": {\"type\": \"fixed_len\", \"dtype\": \"int64\", \"shape\": [2],"
                    + " \"default\": [0, 0]},\n"
                    + "  \"v\": {\"type\": \"var_len\", \"dtype\": \"float32\"},\n"
                    + "  \"r\": {\"type\": \"ragged\", \"dtype\": \"int64\", \"value_key\":"
                    + " \"r_values\", \"partitions\": [{\"row_lengths\": \"r_lengths\"}],"
                    + " \"row_splits_dtype\": \"int64\"}\n"
                    + "}\n";

    @TempDir Path dir;

    private String spec() throws Exception {
        Path p = dir.resolve("SPEC.json");
        Files.writeString(p, SPEC);
        return p.toString();
    }

    private static final RowType ALL =
            rowType(
                    DataTypes.FIELD("d", DataTypes.BIGINT()),
                    DataTypes.FIELD("req", DataTypes.FLOAT()),
                    DataTypes.FIELD("vec", DataTypes.ARRAY(DataTypes.BIGINT())),
                    DataTypes.FIELD("v", DataTypes.ARRAY(DataTypes.FLOAT())),
                    DataTypes.FIELD("r", DataTypes.ARRAY(DataTypes.ARRAY(DataTypes.BIGINT()))));

    @Test
    void defaultsApplyAndRaggedFeaturesNestAsTheSpecSays() throws Exception {
        TfExampleDeserializationSchema s = Examples.decoder(ALL, spec(), false);
        RowData row =
                s.deserialize(
                        example(
                                Map.of(
                                        "req", floats(2.5f),
                                        "r_values", int64s(1, 2, 3),
                                        "r_lengths", int64s(2, 0, 1))));
        assertEquals(7, row.getLong(0));
        assertEquals(2.5f, row.getFloat(1));
        assertEquals(2, row.getArray(2).size());
        assertEquals(0, row.getArray(3).size()); // an absent VarLenFeature is an empty list
        ArrayData r = row.getArray(4);
        assertEquals(3, r.size());
        assertEquals(2, r.getArray(0).getLong(1));
        assertEquals(0, r.getArray(1).size());
        assertEquals(3, r.getArray(2).getLong(0));
    }

    @Test
    void aRecordWithoutARequiredFeatureIsTensorFlowsParseError() throws Exception {
        TfExampleDeserializationSchema s =
                Examples.decoder(rowType("d", DataTypes.BIGINT()), spec(), false);
        // The column does not ask for 'req', but the whole spec applies as in parse_example.
        RowDecodeException e =
                assertThrows(RowDecodeException.class, () -> s.deserialize(example(Map.of())));
        assertTrue(e.getMessage().contains("req"), e.getMessage());
        assertTrue(e.getMessage().contains("is required but could not be found"), e.getMessage());
    }

    @Test
    void aWrongFixedLengthIsTensorFlowsParseError() throws Exception {
        TfExampleDeserializationSchema s = Examples.decoder(ALL, spec(), false);
        RowDecodeException e =
                assertThrows(
                        RowDecodeException.class,
                        () ->
                                s.deserialize(
                                        example(
                                                Map.of(
                                                        "req", floats(1f),
                                                        "vec", int64s(1, 2, 3)))));
        assertTrue(e.getMessage().contains("Key: vec"), e.getMessage());
    }

    @Test
    void columnsMustAgreeWithTheSpec() throws Exception {
        String spec = spec();
        String[][] cases = {
            {"missing", "is not a feature of"},
            {"d", "declares dtype int64"},
            {"v", "has array depth 0"},
        };
        RowType[] types = {
            rowType("missing", DataTypes.BIGINT()),
            rowType("d", DataTypes.FLOAT()),
            rowType("v", DataTypes.FLOAT()),
        };
        for (int i = 0; i < cases.length; i++) {
            RowType t = types[i];
            ValidationException e =
                    assertThrows(ValidationException.class, () -> Examples.decoder(t, spec, false));
            assertTrue(e.getMessage().contains("Column '" + cases[i][0] + "'"), e.getMessage());
            assertTrue(e.getMessage().contains(cases[i][1]), e.getMessage());
        }
    }

    @Test
    void anUnreadableSchemaNamesTheOption() {
        ValidationException e =
                assertThrows(
                        ValidationException.class,
                        () ->
                                Examples.decoder(
                                        rowType("d", DataTypes.BIGINT()),
                                        dir.resolve("nope.json").toString(),
                                        false));
        assertTrue(e.getMessage().contains("tf-example.schema-path"), e.getMessage());
    }
}
