package io.tfstream.parse.example;

import static io.tfstream.parse.CompositeFeatureGoldenTest.assertNested;
import static io.tfstream.parse.CompositeFeatureGoldenTest.rf;
import static io.tfstream.parse.CompositeFeatureGoldenTest.sparseN;
import static io.tfstream.parse.GoldenCases.concat;
import static io.tfstream.parse.GoldenCases.ex;
import static io.tfstream.parse.GoldenCases.f32;
import static io.tfstream.parse.GoldenCases.fixed;
import static io.tfstream.parse.GoldenCases.i64;
import static io.tfstream.parse.GoldenCases.none;
import static io.tfstream.parse.GoldenCases.ragged;
import static io.tfstream.parse.GoldenCases.seq;
import static io.tfstream.parse.GoldenCases.specs;
import static io.tfstream.parse.GoldenCases.str;
import static io.tfstream.parse.GoldenCases.strings;
import static io.tfstream.parse.GoldenCases.varLen;
import static io.tfstream.spec.DType.FLOAT32;
import static io.tfstream.spec.DType.INT64;
import static io.tfstream.spec.DType.STRING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.parse.CompositeFeatureGoldenTest;
import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseLimits;
import io.tfstream.spec.DefaultValue;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.Partition;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SparseFeature;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.SparseTensor;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@code parse_single_example} golden cases P30–P32 (docs/design.md#how-correctness-is-checked;
 * verified on TensorFlow 2.18 or taken from {@code parsing_ops_test.py}) and the single-example
 * half of the {@code RaggedFeature} docstring (C07).
 */
class SingleExampleGoldenTest {
    private static final RowSplitsDType I32 = RowSplitsDType.INT32;

    static ParsedExample parse(FeatureSpecs s, byte[] record) throws ExampleParseException {
        return SingleExampleParser.create(s, ParseLimits.none()).parse(record, 0, record.length);
    }

    static String error(FeatureSpecs s, byte[] record) {
        return assertThrows(ExampleParseException.class, () -> parse(s, record)).getMessage();
    }

    @Test
    void p30Shapes() throws Exception {
        FeatureSpecs s =
                specs(
                        "st_a", varLen(FLOAT32),
                        "missing", varLen(INT64),
                        "d", seq(FLOAT32, null, 2),
                        "e", seq(INT64, null, 3),
                        "r", ragged(INT64, "r", I32),
                        "q", ragged(FLOAT32, "q", I32));
        ParsedExample p = parse(s, ex(f32("st_a", 3, 4), f32("d", 0, 1, 2, 3), i64("r", 5, 6, 7)));
        assertEquals(
                new SparseTensor(new long[] {0, 1}, Column.float32s(3, 4), new long[] {2}),
                p.feature("st_a"));
        assertEquals(
                new SparseTensor(new long[0], Column.int64s(), new long[] {0}),
                p.feature("missing"));
        assertEquals(
                new DenseTensor(new long[] {2, 2}, Column.float32s(0, 1, 2, 3)), p.feature("d"));
        assertEquals(new DenseTensor(new long[] {0, 3}, Column.int64s()), p.feature("e"));
        assertEquals(new DenseTensor(new long[] {3}, Column.int64s(5, 6, 7)), p.feature("r"));
        assertEquals(new DenseTensor(new long[] {0}, Column.float32s()), p.feature("q"));
    }

    @Test
    void p31Errors() {
        String count = "Key: a.  Can't parse serialized Example.";
        assertEquals(count, error(specs("a", fixed(INT64, 2)), ex(i64("a", 1, 2, 3))));
        assertEquals(count, error(specs("a", fixed(INT64, 2)), ex(i64("a", 1))));
        assertEquals(count, error(specs("a", fixed(FLOAT32, 2)), ex(f32("a", 1, 2, 3))));
        assertEquals(count, error(specs("a", fixed(FLOAT32, 2)), ex(f32("a", 1))));
        assertEquals(count, error(specs("a", fixed(STRING, 2)), ex(str("a", "x", "y", "z"))));
        assertEquals(count, error(specs("a", fixed(STRING, 2)), ex(str("a", "x"))));
        assertEquals(
                "Key: a.  Data types don't match. Data type: int64 but expected type: float",
                error(specs("a", fixed(FLOAT32)), ex(i64("a", 1))));
        assertEquals(
                "Key: a.  Data types don't match. Expected type: float, Actual type: int64",
                error(specs("a", varLen(FLOAT32)), ex(i64("a", 1))));
        assertEquals(
                "Feature: a (data type: int64) is required but could not be found.",
                error(specs("a", fixed(INT64)), ex()));
        assertEquals(
                "Error while parsing feature with key d: number of elements should be divisible"
                        + " by 2, found 3 instead",
                error(specs("d", seq(FLOAT32, null, 2)), ex(f32("d", 0, 1, 2))));
    }

    @Test
    void emptyFeatureIsSkippedForEveryKind() throws Exception {
        byte[] dup = concat(ex(i64("v", 1, 2)), ex(none("v")));
        assertEquals(
                new SparseTensor(new long[] {0, 1}, Column.int64s(1, 2), new long[] {2}),
                parse(specs("v", varLen(INT64)), dup).feature("v"));
        assertEquals(
                new DenseTensor(new long[] {2}, Column.int64s(1, 2)),
                parse(specs("v", ragged(INT64, "v", I32)), dup).feature("v"));
        assertTrue(
                assertThrows(
                                IllegalArgumentException.class,
                                () -> SingleExampleParser.create(specs(), ParseLimits.none()))
                        .getMessage()
                        .equals("Missing features."));
    }

    private static byte[] p32() {
        return ex(
                f32("c", 3, 4),
                f32("d", 0, 1),
                str("val", "a", "b"),
                i64("idx", 0, 3),
                f32("st_a", 3, 4),
                f32("rt_1d", 3, 4),
                f32("rt_values", 5, 6, 7),
                i64("rt_splits", 0, 1, 1, 3),
                i64("rt_lengths", 1, 0, 2),
                i64("rt_starts", 0, 1, 1),
                i64("rt_limits", 1, 1, 3),
                i64("rt_rowids", 0, 2, 2),
                i64("rt_splits2", 0, 2, 3));
    }

    @Test
    void p32SingleExampleWithAllFeatureTypes() throws Exception {
        byte[][] bDefault = new byte[9][];
        for (int i = 0; i < 9; i++) {
            bDefault[i] = ("b" + i).getBytes(StandardCharsets.UTF_8);
        }
        FeatureSpecs s =
                specs(
                        "st_a", varLen(FLOAT32),
                        "sp", new SparseFeature(List.of("idx"), "val", STRING, List.of(13L), false),
                        "a", fixed(INT64, DefaultValue.ofInt64(1, 2, 3), 1, 3),
                        "b", fixed(STRING, DefaultValue.ofBytes(bDefault), 3, 3),
                        "c", fixed(FLOAT32, 2),
                        "d", seq(FLOAT32, null),
                        "rt_1d", ragged(FLOAT32, "rt_1d", I32),
                        "rt_2d_with_splits",
                                rf(FLOAT32, "rt_values", I32, new Partition.RowSplits("rt_splits")),
                        "rt_2d_with_lengths",
                                rf(
                                        FLOAT32,
                                        "rt_values",
                                        I32,
                                        new Partition.RowLengths("rt_lengths")),
                        "rt_2d_with_starts",
                                rf(FLOAT32, "rt_values", I32, new Partition.RowStarts("rt_starts")),
                        "rt_2d_with_limits",
                                rf(FLOAT32, "rt_values", I32, new Partition.RowLimits("rt_limits")),
                        "rt_2d_with_rowids",
                                rf(
                                        FLOAT32,
                                        "rt_values",
                                        I32,
                                        new Partition.ValueRowIds("rt_rowids")),
                        "rt_2d_with_uniform_row_length",
                                rf(FLOAT32, "rt_values", I32, new Partition.UniformRowLength(1)),
                        "rt_3d",
                                rf(
                                        FLOAT32,
                                        "rt_values",
                                        I32,
                                        new Partition.RowSplits("rt_splits2"),
                                        new Partition.RowSplits("rt_splits")),
                        "rt_3d_with_uniform_row_length",
                                rf(
                                        FLOAT32,
                                        "rt_values",
                                        I32,
                                        new Partition.UniformRowLength(1),
                                        new Partition.RowSplits("rt_splits")));
        ParsedExample p = parse(s, p32());
        assertEquals(
                new SparseTensor(new long[] {0, 1}, Column.float32s(3, 4), new long[] {2}),
                p.feature("st_a"));
        assertEquals(sparseN(new long[][] {{0}, {3}}, strings("a", "b"), 13), p.feature("sp"));
        assertEquals(new DenseTensor(new long[] {1, 3}, Column.int64s(1, 2, 3)), p.feature("a"));
        assertEquals(new DenseTensor(new long[] {3, 3}, Column.strings(bDefault)), p.feature("b"));
        assertEquals(new DenseTensor(new long[] {2}, Column.float32s(3, 4)), p.feature("c"));
        assertEquals(new DenseTensor(new long[] {2}, Column.float32s(0, 1)), p.feature("d"));
        assertEquals(new DenseTensor(new long[] {2}, Column.float32s(3, 4)), p.feature("rt_1d"));
        for (String k : List.of("splits", "lengths", "starts", "limits", "rowids")) {
            assertNested("[[5],[],[6,7]]", p.feature("rt_2d_with_" + k));
        }
        assertEquals(
                new DenseTensor(new long[] {3, 1}, Column.float32s(5, 6, 7)),
                p.feature("rt_2d_with_uniform_row_length"));
        assertNested("[[[5],[]],[[6,7]]]", p.feature("rt_3d"));
        assertNested("[[[5]],[[]],[[6,7]]]", p.feature("rt_3d_with_uniform_row_length"));
    }

    @Test
    void c07DocstringSingle() throws Exception {
        byte[] e0 = ex(i64("v", 3, 1, 4, 1, 5, 9), i64("s1", 0, 2, 3, 3, 6), i64("s2", 0, 2, 3, 4));
        ParsedExample p = parse(CompositeFeatureGoldenTest.c07Specs(), e0);
        assertEquals(
                new DenseTensor(new long[] {6}, Column.int64s(3, 1, 4, 1, 5, 9)), p.feature("f1"));
        assertNested("[[3,1],[4],[],[1,5,9]]", p.feature("f2"));
        assertNested("[[[3,1],[4]],[[]],[[1,5,9]]]", p.feature("f3"));
    }
}
