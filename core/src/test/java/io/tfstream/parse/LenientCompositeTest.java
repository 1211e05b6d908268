package io.tfstream.parse;

import static io.tfstream.parse.GoldenCases.ex;
import static io.tfstream.parse.GoldenCases.f32;
import static io.tfstream.parse.GoldenCases.i64;
import static io.tfstream.parse.GoldenCases.specs;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.parse.example.ParsedBatch;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.Partition;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SparseFeature;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.SparseTensor;
import io.tfstream.testing.NestedText;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Lenient parsing when a composite cannot be built for the whole batch: the records whose own
 * composition fails are rejected, the others parsed (regression: this used to throw an
 * IllegalStateException out of {@code parseLenient}).
 */
class LenientCompositeTest {
    @Test
    void sparseFeatureCountMismatchRejectsOnlyTheBadRecord() {
        FeatureSpecs s =
                specs(
                        "sp",
                        new SparseFeature(
                                List.of("idx"), "val", DType.FLOAT32, List.of(5L), false));
        List<ExampleParseException> rejected = new ArrayList<>();
        ParsedBatch b =
                ExampleBatchParser.create(s, ParseLimits.none())
                        .parseLenient(
                                RecordBatch.of(
                                        ex(f32("val", 1), i64("idx", 3)),
                                        ex(f32("val", 2), i64("idx", 0, 1)),
                                        ex(f32("val", 3), i64("idx", 2))),
                                rejected::add);
        assertEquals(1, rejected.size());
        assertEquals(1, rejected.get(0).recordIndex());
        assertEquals(
                "Number of elements in indices (2) and values (1) do not match",
                rejected.get(0).getMessage());
        assertEquals(2, b.rows());
        assertEquals(2, b.recordIndex(1));
        assertEquals(
                new SparseTensor(new long[] {0, 3, 1, 2}, Column.float32s(1, 3), new long[] {2, 5}),
                b.feature("sp"));
    }

    @Test
    void uniformRowLengthReshapeFailureRejectsOnlyTheBadRecord() {
        FeatureSpecs s =
                specs(
                        "r",
                        new RaggedFeature(
                                DType.INT64,
                                "v",
                                List.of(new Partition.UniformRowLength(2)),
                                RowSplitsDType.INT64));
        List<ExampleParseException> rejected = new ArrayList<>();
        ParsedBatch b =
                ExampleBatchParser.create(s, ParseLimits.none())
                        .parseLenient(
                                RecordBatch.of(ex(i64("v", 1, 2)), ex(i64("v", 3)), ex(i64("v"))),
                                rejected::add);
        assertEquals(1, rejected.size());
        assertEquals(1, rejected.get(0).recordIndex());
        assertEquals(
                "Input to reshape is a tensor with 1 values, but the requested shape requires a"
                        + " multiple of 2",
                rejected.get(0).getMessage());
        assertEquals("[[[1,2]],[]]", NestedText.of(b.feature("r")));
    }
}
