package io.tfstream.parse;

import static io.tfstream.parse.GoldenCases.error;
import static io.tfstream.parse.GoldenCases.ex;
import static io.tfstream.parse.GoldenCases.f32;
import static io.tfstream.parse.GoldenCases.i64;
import static io.tfstream.parse.GoldenCases.none;
import static io.tfstream.parse.GoldenCases.parse;
import static io.tfstream.parse.GoldenCases.specs;
import static io.tfstream.parse.GoldenCases.str;
import static io.tfstream.parse.GoldenCases.strings;
import static io.tfstream.parse.GoldenCases.varLen;
import static io.tfstream.spec.DType.FLOAT32;
import static io.tfstream.spec.DType.INT64;
import static io.tfstream.spec.DType.STRING;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tfstream.parse.example.ParsedBatch;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.Partition;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SparseFeature;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.RaggedTensor;
import io.tfstream.tensor.SparseTensor;
import io.tfstream.tensor.Tensor;
import io.tfstream.testing.NestedText;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The composite golden cases C01–C08 (docs/design.md#how-correctness-is-checked): SparseFeature
 * merges and RaggedFeature partitions in a batch, expected values copied from TensorFlow's {@code
 * parsing_ops_test.py} and the {@code RaggedFeature} docstring.
 */
public class CompositeFeatureGoldenTest {

    public static SparseFeature sparseFeature(
            List<String> idx, String val, DType d, List<Long> size, boolean sorted) {
        return new SparseFeature(idx, val, d, size, sorted);
    }

    public static RaggedFeature rf(DType d, String key, RowSplitsDType s, Partition... parts) {
        return new RaggedFeature(d, key, List.of(parts), s);
    }

    public static SparseTensor sparseN(long[][] indices, Column values, long... shape) {
        long[] flat = new long[indices.length * shape.length];
        for (int i = 0; i < indices.length; i++) {
            System.arraycopy(indices[i], 0, flat, i * shape.length, shape.length);
        }
        return new SparseTensor(flat, values, shape);
    }

    public static void assertNested(String python, Tensor actual) {
        assertEquals(NestedText.normalize(python), NestedText.of(actual));
    }

    @Test
    void c01SparseFeatureUnsortedEmptyMissing() throws Exception {
        FeatureSpecs s =
                specs("sp", sparseFeature(List.of("idx"), "val", FLOAT32, List.of(13L), false));
        ParsedBatch b =
                parse(
                        s,
                        ex(f32("val", 3, 4), i64("idx", 5, 10)),
                        ex(f32("val"), i64("idx")),
                        ex(none("val")),
                        ex(f32("val", 1, 2, -1), i64("idx", 0, 9, 3)));
        assertEquals(
                sparseN(
                        new long[][] {{0, 5}, {0, 10}, {3, 0}, {3, 3}, {3, 9}},
                        Column.float32s(3, 4, 1, -1, 2),
                        4,
                        13),
                b.feature("sp"));
    }

    @Test
    void c02TwoSparseFeaturesSharingAnIndexKey() throws Exception {
        FeatureSpecs s =
                specs(
                        "sp1", sparseFeature(List.of("idx"), "val1", FLOAT32, List.of(13L), false),
                        "sp2", sparseFeature(List.of("idx"), "val2", FLOAT32, List.of(7L), true));
        ParsedBatch b =
                parse(
                        s,
                        ex(f32("val1", 3, 4), f32("val2", 5, 6), i64("idx", 5, 10)),
                        ex(f32("val1"), i64("idx")));
        assertEquals(
                sparseN(new long[][] {{0, 5}, {0, 10}}, Column.float32s(3, 4), 2, 13),
                b.feature("sp1"));
        assertEquals(
                sparseN(new long[][] {{0, 5}, {0, 10}}, Column.float32s(5, 6), 2, 7),
                b.feature("sp2"));
    }

    @Test
    void c03RankTwoSparseFeature() throws Exception {
        FeatureSpecs s =
                specs(
                        "sp",
                        sparseFeature(
                                List.of("idx0", "idx1"), "val", FLOAT32, List.of(13L, 3L), false));
        ParsedBatch b =
                parse(
                        s,
                        ex(f32("val", 3, 4), i64("idx0", 5, 10), i64("idx1", 0, 2)),
                        ex(f32("val"), i64("idx0"), i64("idx1")),
                        ex(none("val")),
                        ex(f32("val", 1, 2, -1), i64("idx0", 0, 9, 3), i64("idx1", 1, 0, 2)));
        assertEquals(
                sparseN(
                        new long[][] {{0, 5, 0}, {0, 10, 2}, {3, 0, 1}, {3, 3, 2}, {3, 9, 0}},
                        Column.float32s(3, 4, 1, -1, 2),
                        4,
                        13,
                        3),
                b.feature("sp"));
    }

    @Test
    void c04VarLenAndSparseFeatureOnTheSameKey() throws Exception {
        FeatureSpecs s =
                specs(
                        "idx", varLen(INT64),
                        "sp", sparseFeature(List.of("idx"), "val", STRING, List.of(13L), false));
        ParsedBatch b =
                parse(
                        s,
                        ex(str("val", "a", "b"), i64("idx", 0, 3)),
                        ex(str("val", "c", "d"), i64("idx", 7, 1)));
        assertEquals(
                sparseN(
                        new long[][] {{0, 0}, {0, 1}, {1, 0}, {1, 1}},
                        Column.int64s(0, 3, 7, 1),
                        2,
                        2),
                b.feature("idx"));
        assertEquals(
                sparseN(
                        new long[][] {{0, 0}, {0, 3}, {1, 1}, {1, 7}},
                        strings("a", "b", "d", "c"),
                        2,
                        13),
                b.feature("sp"));
    }

    private static byte[][] c05Records() {
        return new byte[][] {
            ex(
                    f32("rt_values", 3, 4, 5, 6),
                    i64("rt_splits", 0, 1, 4),
                    i64("rt_lengths", 1, 3),
                    i64("rt_starts", 0, 1),
                    i64("rt_limits", 1, 4),
                    i64("rt_rowids", 0, 1, 1, 1)),
            ex(
                    f32("rt_values"),
                    i64("rt_splits", 0),
                    i64("rt_lengths"),
                    i64("rt_starts"),
                    i64("rt_limits"),
                    i64("rt_rowids")),
            ex(
                    none("rt_values"),
                    i64("rt_splits", 0),
                    none("rt_lengths"),
                    none("rt_starts"),
                    none("rt_limits"),
                    none("rt_rowids")),
            ex(
                    f32("rt_values", 1, 2, -1, 8, 9, 5),
                    i64("rt_splits", 0, 3, 3, 5, 6),
                    i64("rt_lengths", 3, 0, 2, 1),
                    i64("rt_starts", 0, 3, 3, 5),
                    i64("rt_limits", 3, 3, 5, 6),
                    i64("rt_rowids", 0, 0, 0, 2, 2, 3))
        };
    }

    @Test
    void c05EveryPartitionKindInABatch() throws Exception {
        RowSplitsDType i32 = RowSplitsDType.INT32;
        FeatureSpecs s =
                specs(
                        "rt1", rf(FLOAT32, "rt_values", i32, new Partition.RowSplits("rt_splits")),
                        "rt2",
                                rf(
                                        FLOAT32,
                                        "rt_values",
                                        i32,
                                        new Partition.RowLengths("rt_lengths")),
                        "rt3", rf(FLOAT32, "rt_values", i32, new Partition.RowStarts("rt_starts")),
                        "rt4", rf(FLOAT32, "rt_values", i32, new Partition.RowLimits("rt_limits")),
                        "rt5",
                                rf(
                                        FLOAT32,
                                        "rt_values",
                                        i32,
                                        new Partition.ValueRowIds("rt_rowids")),
                        "uniform1",
                                rf(FLOAT32, "rt_values", i32, new Partition.UniformRowLength(2)),
                        "uniform2",
                                rf(
                                        FLOAT32,
                                        "rt_values",
                                        i32,
                                        new Partition.UniformRowLength(2),
                                        new Partition.RowSplits("rt_splits")));
        ParsedBatch b = parse(s, c05Records());
        for (String k : List.of("rt1", "rt2", "rt3", "rt4", "rt5")) {
            assertNested("[[[3],[4,5,6]], [], [], [[1,2,-1],[],[8,9],[5]]]", b.feature(k));
            assertEquals(i32, ((RaggedTensor) b.feature(k)).rowSplitsDtype());
        }
        assertEquals(
                List.of("rt1", "rt2", "rt3", "rt4", "rt5", "uniform1", "uniform2"),
                List.copyOf(b.features().keySet()));
        RaggedTensor u1 = (RaggedTensor) b.feature("uniform1");
        assertNested("[[[3,4],[5,6]], [], [], [[1,2],[-1,8],[9,5]]]", u1);
        assertEquals(1, u1.rowSplits().size());
        assertArrayEquals(new long[] {5, 2}, u1.valuesShape());
        assertNested(
                "[[[[3],[4,5,6]]], [], [], [[[1,2,-1],[]],[[8,9],[5]]]]", b.feature("uniform2"));
    }

    @Test
    void c06ThreeNestedPartitions() throws Exception {
        FeatureSpecs s =
                specs(
                        "rt1",
                        rf(
                                FLOAT32,
                                "rt_values",
                                RowSplitsDType.INT64,
                                new Partition.UniformRowLength(2),
                                new Partition.RowLengths("lengths_axis2"),
                                new Partition.RowSplits("splits_axis3")));
        ParsedBatch b =
                parse(
                        s,
                        ex(
                                f32("rt_values", 1, 2, 3, 4, 5, 6, 7),
                                i64("lengths_axis2", 1, 2, 0, 1),
                                i64("lengths_axis3", 1, 2, 1, 3),
                                i64("splits_axis3", 0, 1, 3, 4, 7)),
                        ex(
                                f32("rt_values", 1, 2, 3, 4, 5, 6, 7, 8),
                                i64("lengths_axis2", 2, 3),
                                i64("lengths_axis3", 3, 1, 1, 1, 2),
                                i64("splits_axis3", 0, 3, 4, 5, 6, 8)));
        RaggedTensor rt = (RaggedTensor) b.feature("rt1");
        assertNested(
                "[[[[[1]], [[2,3],[4]]], [[], [[5,6,7]]]],  [[[[1,2,3],[4]], [[5],[6],[7,8]]]]]",
                rt);
        assertEquals(RowSplitsDType.INT64, rt.rowSplitsDtype());
    }

    private static byte[] c07(int i) {
        return i == 0
                ? ex(i64("v", 3, 1, 4, 1, 5, 9), i64("s1", 0, 2, 3, 3, 6), i64("s2", 0, 2, 3, 4))
                : ex(
                        i64("v", 2, 7, 1, 8, 2, 8, 1),
                        i64("s1", 0, 3, 4, 5, 7),
                        i64("s2", 0, 1, 1, 4));
    }

    public static FeatureSpecs c07Specs() {
        RowSplitsDType i32 = RowSplitsDType.INT32;
        return specs(
                "f1", rf(INT64, "v", i32),
                "f2", rf(INT64, "v", i32, new Partition.RowSplits("s1")),
                "f3",
                        rf(
                                INT64,
                                "v",
                                i32,
                                new Partition.RowSplits("s2"),
                                new Partition.RowSplits("s1")));
    }

    @Test
    void c07DocstringBatch() throws Exception {
        ParsedBatch b = parse(c07Specs(), c07(0), c07(1));
        assertNested("[[3,1,4,1,5,9],[2,7,1,8,2,8,1]]", b.feature("f1"));
        assertNested("[[[3,1],[4],[],[1,5,9]], [[2,7,1],[8],[2],[8,1]]]", b.feature("f2"));
        assertNested(
                "[[[[3,1],[4]],[[]],[[1,5,9]]], [[[2,7,1]],[],[[8],[2],[8,1]]]]", b.feature("f3"));
    }

    @Test
    void c08PerExampleMisalignmentIsSilent() throws Exception {
        FeatureSpecs s =
                specs("r", rf(INT64, "v", RowSplitsDType.INT32, new Partition.RowLengths("l")));
        ParsedBatch b = parse(s, ex(i64("v", 1, 2, 3), i64("l", 1)), ex(i64("v", 4), i64("l", 3)));
        assertNested("[[[1]], [[2,3,4]]]", b.feature("r"));
    }

    @Test
    void sparseFeatureTotalsMustAgree() {
        FeatureSpecs one =
                specs("sp", sparseFeature(List.of("idx"), "val", FLOAT32, List.of(13L), false));
        assertEquals(
                "Number of elements in indices (2) and values (1) do not match",
                error(one, ex(f32("val", 1), i64("idx", 0, 3))));
        FeatureSpecs two =
                specs(
                        "sp",
                        sparseFeature(List.of("i0", "i1"), "val", FLOAT32, List.of(4L, 4L), false));
        assertEquals(
                "ConcatOp : Dimension 0 in both shapes must be equal: shape[0] = [2,1] vs."
                        + " shape[2] = [1,1]",
                error(two, ex(f32("val", 1, 2), i64("i0", 0, 3), i64("i1", 2))));
    }

    @Test
    void sparseFeatureMismatchedExamplesWithEqualTotalsUseFlatPositions() throws Exception {
        FeatureSpecs s =
                specs("sp", sparseFeature(List.of("idx"), "val", INT64, List.of(-1L), true));
        ParsedBatch b = parse(s, ex(i64("val", 7), i64("idx", 4, 2)), ex(i64("val", 8)));
        assertEquals(
                sparseN(new long[][] {{0, 4}, {0, 2}}, Column.int64s(7, 8), 2, -1),
                b.feature("sp"));
    }
}
