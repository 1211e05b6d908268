package io.tfstream.spec.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.spec.DType;
import io.tfstream.spec.DefaultValue;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.FixedLenSequenceFeature;
import io.tfstream.spec.MalformedSpecFileException;
import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.Partition;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.spec.SparseFeature;
import io.tfstream.spec.SpecRejectedException;
import io.tfstream.spec.VarLenFeature;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** SPEC.json / SEQSPEC.json as docs/cli.md#specjson defines them. */
class SpecJsonTest {

    @Test
    void omittedFieldsTakePythonDefaults() throws Exception {
        FeatureSpecs got =
                (FeatureSpecs)
                        read(
                                "{\"r\": {\"type\": \"ragged\", \"dtype\": \"float\"},"
                                        + " \"s\": {\"type\": \"sparse\", \"index_keys\": [\"i\"],"
                                        + " \"value_key\": \"v\", \"dtype\": \"bytes\", \"size\":"
                                        + " [3]},"
                                        + " \"q\": {\"type\": \"fixed_len_seq\", \"dtype\":"
                                        + " \"int64\", \"shape\": []},"
                                        + " \"f\": {\"type\": \"fixed_len\", \"dtype\": \"int64\","
                                        + " \"shape\": [2]}}");
        assertEquals(
                FeatureSpecs.of(
                        Map.of(
                                "r",
                                new RaggedFeature(
                                        DType.FLOAT32, "r", List.of(), RowSplitsDType.INT32),
                                "s",
                                new SparseFeature(
                                        List.of("i"), "v", DType.STRING, List.of(3L), false),
                                "q",
                                new FixedLenSequenceFeature(
                                        List.of(), DType.INT64, false, Optional.empty()),
                                "f",
                                FixedLenFeature.required(List.of(2L), DType.INT64))),
                got);
    }

    @Test
    void defaultsScalarNestedOrFlat() throws Exception {
        FixedLenFeature expected =
                FixedLenFeature.withDefault(
                        List.of(2L, 2L), DType.INT64, DefaultValue.ofInt64(1, 2, 3, 4));
        for (String d : List.of("[[1, 2], [3, 4]]", "[1, 2, 3, 4]")) {
            assertEquals(
                    expected,
                    ((FeatureSpecs)
                                    read(
                                            "{\"x\": {\"type\": \"fixed_len\", \"dtype\":"
                                                    + " \"int64\", \"shape\": [2, 2], \"default\": "
                                                    + d
                                                    + "}}"))
                            .get("x"));
        }
        assertEquals(
                FixedLenFeature.withDefault(
                        List.of(1L), DType.FLOAT32, DefaultValue.ofFloat32(0.5f)),
                ((FeatureSpecs)
                                read(
                                        "{\"x\": {\"type\": \"fixed_len\", \"dtype\": \"float32\","
                                                + " \"shape\": [1], \"default\": 0.5}}"))
                        .get("x"));
    }

    @Test
    void valuesKeepTheirExactBits() throws Exception {
        byte[] notUtf8 = {(byte) 0xd0};
        byte[] utf8 = "é".getBytes(StandardCharsets.UTF_8);
        FeatureSpecs specs =
                FeatureSpecs.of(
                        Map.of(
                                "i",
                                FixedLenFeature.withDefault(
                                        List.of(3L),
                                        DType.INT64,
                                        DefaultValue.ofInt64(Long.MIN_VALUE, Long.MAX_VALUE, -1)),
                                "f",
                                FixedLenFeature.withDefault(
                                        List.of(6L),
                                        DType.FLOAT32,
                                        DefaultValue.ofFloat32(
                                                Float.NaN,
                                                Float.NEGATIVE_INFINITY,
                                                -0.0f,
                                                Float.MIN_VALUE,
                                                0.1f,
                                                Float.MAX_VALUE)),
                                "b",
                                FixedLenFeature.withDefault(
                                        List.of(2L),
                                        DType.STRING,
                                        DefaultValue.ofBytes(notUtf8, utf8))));
        String json = SpecJsonWriter.write(specs);
        assertTrue(json.contains("-9223372036854775808,9223372036854775807"), json);
        assertTrue(json.contains("[\"NaN\",\"-Infinity\",-0.0,1.4E-45,0.1,3.4028235E38]"), json);
        assertTrue(json.contains("[{\"base64\":\"0A==\"},\"é\"]"), json);
        assertEquals(specs, read(json));
    }

    @Test
    void writerSpellsOutEveryField() {
        FeatureSpecs specs =
                FeatureSpecs.of(
                        Map.of(
                                "r",
                                new RaggedFeature(
                                        DType.INT64,
                                        "v",
                                        List.of(
                                                new Partition.RowSplits("a"),
                                                new Partition.RowStarts("b"),
                                                new Partition.RowLimits("c"),
                                                new Partition.ValueRowIds("d"),
                                                new Partition.UniformRowLength(2)),
                                        RowSplitsDType.INT32)));
        assertEquals(
                "{\"r\":{\"type\":\"ragged\",\"dtype\":\"int64\",\"value_key\":\"v\","
                        + "\"partitions\":[{\"row_splits\":\"a\"},{\"row_starts\":\"b\"},"
                        + "{\"row_limits\":\"c\"},{\"value_rowids\":\"d\"},"
                        + "{\"uniform_row_length\":2}],\"row_splits_dtype\":\"int32\"}}",
                SpecJsonWriter.write(specs));
        assertEquals(
                "{\"x\":{\"type\":\"fixed_len\",\"dtype\":\"string\",\"shape\":[2,0],"
                        + "\"default\":[[],[]]}}",
                SpecJsonWriter.write(
                        FeatureSpecs.of(
                                Map.of(
                                        "x",
                                        FixedLenFeature.withDefault(
                                                List.of(2L, 0L),
                                                DType.STRING,
                                                DefaultValue.ofBytes())))));
    }

    @Test
    void sequenceSpecIsDetectedAndRoundTrips() throws Exception {
        SequenceFeatureSpecs seq =
                new SequenceFeatureSpecs(
                        FeatureSpecs.of(Map.of("c", new VarLenFeature(DType.INT64))),
                        FeatureSpecs.of(
                                Map.of(
                                        "l",
                                        new FixedLenSequenceFeature(
                                                List.of(2L),
                                                DType.FLOAT32,
                                                true,
                                                Optional.of(DefaultValue.ofFloat32(-1f))))));
        String json = SpecJsonWriter.write(seq);
        assertEquals(
                "{\"context\":{\"c\":{\"type\":\"var_len\",\"dtype\":\"int64\"}},"
                        + "\"feature_lists\":{\"l\":{\"type\":\"fixed_len_seq\","
                        + "\"dtype\":\"float32\",\"shape\":[2],\"allow_missing\":true,"
                        + "\"default\":-1.0}}}",
                json);
        assertEquals(seq, read(json));
        assertEquals(
                new SequenceFeatureSpecs(FeatureSpecs.empty(), FeatureSpecs.empty()),
                read("{\"context\": {}}"));
    }

    @Test
    void featureNamedContextIsAnExampleSpec() throws Exception {
        ParseSpec spec = read("{\"context\": {\"type\": \"var_len\", \"dtype\": \"int64\"}}");
        assertEquals(FeatureSpecs.of(Map.of("context", new VarLenFeature(DType.INT64))), spec);
    }

    @Test
    void rejectionsNameTheFeatureAndTheProblem() {
        assertRejected(
                "{\"x\": {\"type\": \"var_len\", \"dtype\": \"int32\"}}",
                "spec: feature 'x': dtypes must be int64, float32, or string (bytes); got"
                        + " 'int32'");
        assertRejected(
                "{\"x\": {\"type\": \"var_len\", \"dtype\": \"int64\", \"shape\": []}}",
                "spec: feature 'x': unknown field 'shape' for type var_len");
        assertRejected(
                "{\"x\": {\"type\": \"dense\", \"dtype\": \"int64\"}}",
                "spec: feature 'x': unknown type 'dense'");
        assertRejected(
                "{\"x\": {\"type\": \"fixed_len\", \"dtype\": \"int64\"}}",
                "spec: feature 'x': missing field 'shape'");
        assertRejected(
                "{\"x\": {\"type\": \"fixed_len\", \"dtype\": \"int64\", \"shape\": [3],"
                        + " \"default\": [1, 2]}}",
                "spec: feature 'x': default has 2 values but shape [3] needs 3");
        assertRejected(
                "{\"x\": {\"type\": \"fixed_len\", \"dtype\": \"int64\", \"shape\": [1],"
                        + " \"default\": 1.5}}",
                "spec: feature 'x': default value must be an int64 integer; got 1.5");
        assertRejected(
                "{\"x\": {\"type\": \"fixed_len\", \"dtype\": \"int64\", \"shape\": [1],"
                        + " \"default\": 9223372036854775808}}",
                "spec: feature 'x': default value must be an int64 integer");
        assertRejected(
                "{\"x\": {\"type\": \"fixed_len\", \"dtype\": \"float32\", \"shape\": [],"
                        + " \"default\": 1e39}}",
                "spec: feature 'x': float32 default value 1E+39 is outside the float32 range");
        assertRejected(
                "{\"x\": {\"type\": \"fixed_len\", \"dtype\": \"int64\", \"shape\": [-1]}}",
                "spec: feature 'x': All dimensions of shape");
        assertRejected(
                "{\"x\": {\"type\": \"ragged\", \"dtype\": \"int64\", \"partitions\":"
                        + " [{\"row_lenghts\": \"k\"}]}}",
                "spec: feature 'x': unknown partition 'row_lenghts'");
        assertRejected(
                "{\"x\": {\"type\": \"ragged\", \"dtype\": \"int64\", \"row_splits_dtype\":"
                        + " \"int16\"}}",
                "spec: feature 'x': row_splits_dtype must be int32 or int64; got 'int16'");
        assertRejected(
                "{\"x\": {\"type\": \"sparse\", \"index_keys\": [\"a\", \"b\"], \"value_key\":"
                        + " \"v\", \"dtype\": \"int64\", \"size\": [1]}}",
                "spec: feature 'x': SparseFeature has 2 index keys but size has 1 dimensions");
        assertRejected(
                "{\"x\": {\"type\": \"fixed_len\", \"dtype\": \"string\", \"shape\": [],"
                        + " \"default\": {\"base64\": \"!!\"}}}",
                "spec: feature 'x': string default value {\"base64\":\"!!\"} is not valid"
                        + " base64");
        assertRejected(
                "{\"context\": {\"x\": {\"type\": \"fixed_len_seq\", \"dtype\": \"int64\","
                        + " \"shape\": []}}}",
                "spec: Unsupported FixedLenSequenceFeature x in context features");
    }

    @Test
    void malformedJsonIsNotASpec() {
        MalformedSpecFileException e =
                assertThrows(MalformedSpecFileException.class, () -> read("{\"x\": "));
        assertTrue(e.getMessage().startsWith("spec: not JSON: "), e.getMessage());
        MalformedSpecFileException dup =
                assertThrows(
                        MalformedSpecFileException.class,
                        () ->
                                read(
                                        "{\"x\": {\"type\": \"var_len\", \"dtype\": \"int64\"},"
                                                + " \"x\": {\"type\": \"var_len\", \"dtype\":"
                                                + " \"float\"}}"));
        assertTrue(dup.getMessage().contains("Duplicate field 'x'"), dup.getMessage());
        assertThrows(MalformedSpecFileException.class, () -> read("[1]"));
        assertThrows(MalformedSpecFileException.class, () -> read("{} {}"));
    }

    private static void assertRejected(String json, String messageStart) {
        SpecRejectedException e = assertThrows(SpecRejectedException.class, () -> read(json));
        assertTrue(
                e.getMessage().startsWith(messageStart),
                "expected a message starting with <"
                        + messageStart
                        + "> but was <"
                        + e.getMessage()
                        + ">");
    }

    private static ParseSpec read(String json) throws MalformedSpecFileException {
        return SpecJsonReader.read(json, "spec");
    }
}
