package io.tfstream.parse.example;

import static io.tfstream.parse.GoldenCases.concat;
import static io.tfstream.parse.GoldenCases.dense;
import static io.tfstream.parse.GoldenCases.dims;
import static io.tfstream.parse.GoldenCases.error;
import static io.tfstream.parse.GoldenCases.errorNamed;
import static io.tfstream.parse.GoldenCases.ex;
import static io.tfstream.parse.GoldenCases.f32;
import static io.tfstream.parse.GoldenCases.fixed;
import static io.tfstream.parse.GoldenCases.i64;
import static io.tfstream.parse.GoldenCases.none;
import static io.tfstream.parse.GoldenCases.parse;
import static io.tfstream.parse.GoldenCases.ragged;
import static io.tfstream.parse.GoldenCases.raggedOf;
import static io.tfstream.parse.GoldenCases.seq;
import static io.tfstream.parse.GoldenCases.sparse;
import static io.tfstream.parse.GoldenCases.specs;
import static io.tfstream.parse.GoldenCases.str;
import static io.tfstream.parse.GoldenCases.strings;
import static io.tfstream.parse.GoldenCases.varLen;
import static io.tfstream.spec.DType.FLOAT32;
import static io.tfstream.spec.DType.INT64;
import static io.tfstream.spec.DType.STRING;
import static io.tfstream.spec.RowSplitsDType.INT32;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tfstream.spec.DefaultValue;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenSequenceFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.tensor.Column;
import io.tfstream.testing.FeatureWire;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The batch {@code parse_example} golden cases P01–P22 (docs/design.md#how-correctness-is-checked):
 * expected outputs and messages are TensorFlow 2.18's, verified on the real kernel.
 */
class ExampleBatchParserGoldenTest {
    private static final String UNKNOWN = "Name: <unknown>, Key: a, Index: 0.  ";

    @Test
    void p01VarLenBasic() throws Exception {
        ParsedBatch b =
                parse(specs("ft", varLen(FLOAT32)), ex(f32("ft", 1, 2)), ex(), ex(f32("ft", 3)));
        assertEquals(
                sparse(new long[][] {{0, 0}, {0, 1}, {2, 0}}, Column.float32s(1, 2, 3), 3, 2),
                b.feature("ft"));
    }

    @Test
    void p02VarLenEmptyListEmptyFeatureMissing() throws Exception {
        ParsedBatch b = parse(specs("st_c", varLen(FLOAT32), "st_d", varLen(STRING)), p02());
        assertEquals(
                sparse(
                        new long[][] {{0, 0}, {0, 1}, {3, 0}, {3, 1}, {3, 2}},
                        Column.float32s(3, 4, 1, 2, -1),
                        4,
                        3),
                b.feature("st_c"));
        assertEquals(sparse(new long[][] {{3, 0}}, strings("hi"), 4, 1), b.feature("st_d"));
    }

    private static byte[][] p02() {
        return new byte[][] {
            ex(f32("st_c", 3, 4)),
            ex(f32("st_c")),
            ex(none("st_d")),
            ex(f32("st_c", 1, 2, -1), str("st_d", "hi"))
        };
    }

    @Test
    void p03VarLenAllMissing() throws Exception {
        ParsedBatch b = parse(specs("x", varLen(INT64)), ex(), ex());
        assertEquals(sparse(new long[0][], Column.int64s(), 2, 0), b.feature("x"));
    }

    @Test
    void p04VarLenWrongKind() {
        FeatureSpecs s = specs("x", varLen(INT64));
        byte[][] r = {ex(i64("x", 1)), ex(f32("x", 1.5f))};
        assertEquals(
                "Name: ex1, Key: x, Index: 1.  Data types don't match. Expected type: int64, Actual"
                        + " type: float",
                errorNamed(s, new String[] {"ex0", "ex1"}, r));
        assertEquals(
                "Name: <unknown>, Key: x, Index: 1.  Data types don't match. Expected type: int64,"
                        + " Actual type: float",
                error(s, r));
    }

    @Test
    void p05FixedLenWithDefault() throws Exception {
        FeatureSpecs s = specs("a", fixed(FLOAT32, DefaultValue.ofFloat32(-1), 1));
        assertEquals(
                dense(dims(2, 1), Column.float32s(1, -1)),
                parse(s, ex(f32("a", 1)), ex()).feature("a"));
    }

    @Test
    void p06DefaultsAndEmptyFeatureIsMissing() throws Exception {
        FeatureSpecs s =
                specs(
                        "a", fixed(FLOAT32, DefaultValue.ofFloat32(3, -3), 1, 2, 1),
                        "b",
                                fixed(
                                        STRING,
                                        DefaultValue.ofBytes(
                                                "tmp_str".getBytes(StandardCharsets.UTF_8)),
                                        1,
                                        1,
                                        1,
                                        1));
        ParsedBatch b = parse(s, ex(f32("a", 1, 1)), ex(str("b", "b1")), ex(none("b")));
        assertEquals(dense(dims(3, 1, 2, 1), Column.float32s(1, 1, 3, -3, 3, -3)), b.feature("a"));
        assertEquals(
                dense(dims(3, 1, 1, 1, 1), strings("tmp_str", "b1", "tmp_str")), b.feature("b"));
    }

    @Test
    void p07FixedLenMatrix() throws Exception {
        ParsedBatch b =
                parse(
                        specs("a", fixed(INT64, 2, 2)),
                        ex(i64("a", 1, 2, 3, 4)),
                        ex(i64("a", 5, 6, 7, 8)));
        assertEquals(dense(dims(2, 2, 2), Column.int64s(1, 2, 3, 4, 5, 6, 7, 8)), b.feature("a"));
    }

    @Test
    void p08RequiredMissing() {
        FeatureSpecs s = specs("a", fixed(INT64));
        byte[][] r = {ex(i64("a", 1)), ex()};
        assertEquals(
                "Name: in2, Feature: a (data type: int64) is required but could not be found.",
                errorNamed(s, new String[] {"in1", "in2"}, r));
        assertEquals(
                "Name: <unknown>, Feature: a (data type: int64) is required but could not be found.",
                error(s, r));
        assertEquals(
                "Name: in1, Feature: a (data type: float) is required but could not be found.",
                errorNamed(specs("a", fixed(FLOAT32, 2)), new String[] {"in1"}, ex(none("a"))));
    }

    @Test
    void p09EmptyFeatureVersusEmptyList() throws Exception {
        FeatureSpecs s = specs("a", fixed(INT64, DefaultValue.ofInt64(7)));
        assertEquals(dense(dims(1), Column.int64s(7)), parse(s, ex(none("a"))).feature("a"));
        assertEquals(
                UNKNOWN
                        + "Number of int64 values != expected.  Values size: 0 but output shape: []",
                error(s, ex(i64("a"))));
    }

    @Test
    void p10WrongValueCounts() {
        assertEquals(
                UNKNOWN
                        + "Number of int64 values != expected.  Values size: 3 but output shape: [2]",
                error(specs("a", fixed(INT64, 2)), ex(i64("a", 1, 2, 3))));
        assertEquals(
                UNKNOWN
                        + "Number of float values != expected.  Values size: 1 but output shape: [2]",
                error(specs("a", fixed(FLOAT32, 2)), ex(f32("a", 1))));
        assertEquals(
                UNKNOWN
                        + "Number of float values != expected.  Values size: 3 but output shape: [2]",
                error(specs("a", fixed(FLOAT32, 2)), ex(f32("a", 1, 2, 3))));
        assertEquals(
                UNKNOWN
                        + "Number of bytes values != expected.  Values size: 1 but output shape: [2]",
                error(specs("a", fixed(STRING, 2)), ex(str("a", "x"))));
        assertEquals(
                UNKNOWN + "Can't parse serialized Example.",
                error(specs("a", fixed(STRING, 2)), ex(str("a", "x", "y", "z"))));
        assertEquals(
                "Name: z, Key: a, Index: 2.  Number of int64 values != expected.  Values size: 1 but"
                        + " output shape: [2]",
                errorNamed(
                        specs("a", fixed(INT64, 2)),
                        new String[] {"x", "y", "z"},
                        ex(i64("a", 1, 2)),
                        ex(i64("a", 1, 2)),
                        ex(i64("a", 3))));
    }

    @Test
    void p11WrongKindForDense() {
        assertEquals(
                UNKNOWN + "Data types don't match. Data type: int64 but expected type: float",
                error(specs("a", fixed(FLOAT32)), ex(i64("a", 1))));
        assertEquals(
                UNKNOWN + "Data types don't match. Data type: string but expected type: int64",
                error(specs("a", fixed(INT64)), ex(str("a", "1"))));
    }

    @Test
    void p12ZeroElementShape() throws Exception {
        FeatureSpecs s = specs("a", fixed(INT64, 0));
        assertEquals(
                "Name: <unknown>, Feature: a (data type: int64) is required but could not be found.",
                error(s, ex()));
        assertEquals(dense(dims(1, 0), Column.int64s()), parse(s, ex(i64("a"))).feature("a"));
    }

    @Test
    void p13StringDefault() throws Exception {
        FeatureSpecs s =
                specs(
                        "b",
                        fixed(
                                STRING,
                                DefaultValue.ofBytes("tmp_str".getBytes(StandardCharsets.UTF_8))));
        assertEquals(
                dense(dims(2), strings("tmp_str", "x")),
                parse(s, ex(), ex(str("b", "x"))).feature("b"));
    }

    @Test
    void p15FixedLenSequence() throws Exception {
        FeatureSpecs s =
                specs(
                        "a", seq(FLOAT32, DefaultValue.ofFloat32(-2), 2),
                        "b", seq(STRING, null),
                        "c", seq(INT64, null));
        ParsedBatch b =
                parse(
                        s,
                        ex(i64("c", 2)),
                        ex(f32("a", 1, 1), str("b", "b0", "b1")),
                        ex(f32("a", -1, -1, 2, 2), str("b", "b1")),
                        ex(f32("a"), i64("c", 3)));
        assertEquals(
                dense(
                        dims(4, 2, 2),
                        Column.float32s(
                                -2, -2, -2, -2, 1, 1, -2, -2, -1, -1, 2, 2, -2, -2, -2, -2)),
                b.feature("a"));
        assertEquals(
                dense(dims(4, 2), strings("", "", "b0", "b1", "b1", "", "", "")), b.feature("b"));
        assertEquals(dense(dims(4, 1), Column.int64s(2, 0, 0, 3)), b.feature("c"));
        assertEquals(
                "Name: in1, Key: a, Index: 0.  Number of float values is not a multiple of stride"
                        + " length. Saw 3 values but output shape is: [?,2]",
                errorNamed(
                        specs("a", seq(FLOAT32, null, 2)),
                        new String[] {"in1"},
                        ex(f32("a", 1, 2, 3))));
        FeatureSpecs notAllowed =
                specs("a", new FixedLenSequenceFeature(List.of(), INT64, false, Optional.empty()));
        assertEquals(
                "Unsupported: FixedLenSequenceFeature requires allow_missing to be True.",
                assertThrows(IllegalArgumentException.class, () -> parse(notAllowed)).getMessage());
    }

    @Test
    void p16RaggedRaw() throws Exception {
        FeatureSpecs s =
                specs(
                        "rt_c", ragged(FLOAT32, "rt_c", INT32),
                        "rt_d", ragged(STRING, "rt_d", RowSplitsDType.INT64));
        byte[][] r = {
            ex(f32("rt_c", 3, 4)),
            ex(f32("rt_c")),
            ex(none("rt_d")),
            ex(f32("rt_c", 1, 2, -1), str("rt_d", "hi"))
        };
        ParsedBatch b = parse(s, r);
        assertEquals(
                raggedOf(Column.float32s(3, 4, 1, 2, -1), INT32, 0, 2, 2, 2, 5), b.feature("rt_c"));
        assertEquals(
                raggedOf(strings("hi"), RowSplitsDType.INT64, 0, 0, 0, 0, 1), b.feature("rt_d"));
        assertEquals(
                "Name: <unknown>, Key: r, Index: 0.  Data types don't match. Expected type: int64,"
                        + " Actual type: float",
                error(specs("r", ragged(INT64, "r", INT32)), ex(f32("r", 3))));
    }

    @Test
    void p17DuplicatesLastWins() throws Exception {
        FeatureSpecs s = specs("a", fixed(FLOAT32, 2), "v", varLen(INT64));
        ParsedBatch b =
                parse(
                        s,
                        concat(
                                ex(f32("a", 10, 10), i64("v", 1, 2)),
                                ex(f32("a", 1, 1), i64("v", 3))));
        assertEquals(dense(dims(1, 2), Column.float32s(1, 1)), b.feature("a"));
        assertEquals(sparse(new long[][] {{0, 0}}, Column.int64s(3), 1, 1), b.feature("v"));

        FeatureSpecs a = specs("a", fixed(FLOAT32, 2));
        assertEquals(
                dense(dims(1, 2), Column.float32s(10, 10)),
                parse(a, concat(ex(f32("a", 10, 10)), ex(none("a")))).feature("a"));
        assertEquals(
                sparse(new long[0][], Column.int64s(), 1, 0),
                parse(specs("v", varLen(INT64)), concat(ex(i64("v", 1, 2)), ex(none("v"))))
                        .feature("v"));
        assertEquals(
                UNKNOWN + "Data types don't match. Data type: int64 but expected type: float",
                error(a, concat(ex(f32("a", 10, 10)), ex(i64("a", 1, 1)))));
        assertEquals(
                dense(dims(1, 2), Column.float32s(10, 10)),
                parse(a, concat(ex(i64("a", 1, 1)), ex(f32("a", 10, 10)))).feature("a"));

        byte[] twoEntries = ex(i64("a", 1), i64("a", 2));
        assertEquals(
                dense(dims(1), Column.int64s(2)),
                parse(specs("a", fixed(INT64)), twoEntries).feature("a"));
        assertEquals(
                sparse(new long[][] {{0, 0}}, Column.int64s(2), 1, 1),
                parse(specs("a", varLen(INT64)), twoEntries).feature("a"));
    }

    @Test
    void p18MalformedAndUnknownFields() throws Exception {
        FeatureSpecs s = specs("x", varLen(INT64));
        assertEquals(
                "Could not parse example input, value: '\n\u0005\u0001'",
                error(s, new byte[] {0x0a, 0x05, 0x01}));
        byte[] unknownField = concat(new byte[] {0x10, 0x05}, ex(i64("x", 1)));
        assertEquals(
                sparse(new long[][] {{0, 0}}, Column.int64s(1), 1, 1),
                parse(s, unknownField).feature("x"));
        byte[] field4 = ex(FeatureWire.entry("x", new byte[] {0x20, 0x01}));
        assertEquals("Unsupported datatype.", error(s, field4));
        assertEquals(
                sparse(new long[0][], Column.int64s(), 1, 0),
                parse(specs("y", varLen(INT64)), field4).feature("y"));
    }

    @Test
    void p19EmptyBatch() throws Exception {
        FeatureSpecs s =
                specs(
                        "s", varLen(INT64),
                        "d", fixed(FLOAT32, DefaultValue.ofFloat32(1, 2), 2),
                        "v", seq(FLOAT32, null, 3),
                        "r", ragged(STRING, "r", RowSplitsDType.INT64));
        ParsedBatch b = parse(s);
        assertEquals(0, b.rows());
        assertEquals(sparse(new long[0][], Column.int64s(), 0, 0), b.feature("s"));
        assertEquals(dense(dims(0, 2), Column.float32s()), b.feature("d"));
        assertEquals(dense(dims(0, 0, 3), Column.float32s()), b.feature("v"));
        assertEquals(raggedOf(strings(), RowSplitsDType.INT64, 0), b.feature("r"));
        assertEquals(
                dense(dims(0, 2), Column.float32s()),
                parse(specs("d", fixed(FLOAT32, 2))).feature("d"));
    }

    @Test
    void p20EmptySerializedString() throws Exception {
        FeatureSpecs s =
                specs(
                        "s", varLen(INT64),
                        "d", fixed(FLOAT32, DefaultValue.ofFloat32(1, 2), 2),
                        "r", ragged(STRING, "r", INT32));
        ParsedBatch b = parse(s, new byte[0]);
        assertEquals(sparse(new long[0][], Column.int64s(), 1, 0), b.feature("s"));
        assertEquals(dense(dims(1, 2), Column.float32s(1, 2)), b.feature("d"));
        assertEquals(raggedOf(strings(), INT32, 0, 0), b.feature("r"));
    }

    @Test
    void p21ValueFidelity() throws Exception {
        float nan = Float.intBitsToFloat(0x7fc00000);
        ParsedBatch b =
                parse(
                        specs("i", varLen(INT64), "f", varLen(FLOAT32)),
                        ex(
                                i64("i", Long.MIN_VALUE, Long.MAX_VALUE, -1),
                                f32(
                                        "f",
                                        nan,
                                        Float.POSITIVE_INFINITY,
                                        Float.NEGATIVE_INFINITY,
                                        -0.0f)));
        assertEquals(
                sparse(
                        new long[][] {{0, 0}, {0, 1}, {0, 2}},
                        Column.int64s(Long.MIN_VALUE, Long.MAX_VALUE, -1),
                        1,
                        3),
                b.feature("i"));
        assertEquals(
                sparse(
                        new long[][] {{0, 0}, {0, 1}, {0, 2}, {0, 3}},
                        Column.float32s(
                                nan, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0.0f),
                        1,
                        4),
                b.feature("f"));
    }

    @Test
    void p22KeysMatchByteExactly() throws Exception {
        ParsedBatch b =
                parse(specs("", varLen(INT64), "A", varLen(INT64)), ex(i64("", 5), i64("a", 6)));
        assertEquals(sparse(new long[][] {{0, 0}}, Column.int64s(5), 1, 1), b.feature(""));
        assertEquals(sparse(new long[0][], Column.int64s(), 1, 0), b.feature("A"));
    }
}
