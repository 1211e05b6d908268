package io.tfstream.parse.sequence;

import static io.tfstream.parse.CompositeFeatureGoldenTest.assertNested;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.RecordBatch;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.Partition;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.tensor.RaggedTensor;
import io.tfstream.testing.sequence.NestedRaggedRecords;
import io.tfstream.testing.sequence.SeqSpecs;
import io.tfstream.testing.sequence.SeqWire;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * RaggedFeature partitions in SequenceExamples: golden case Q06 ({@code parsing_ops_test.py} {@code
 * testSerializedContainingNestedRaggedFeature}), batch and single, and the spec rules for partition
 * keys.
 */
class SequenceRaggedPartitionTest {
    private static final String A =
            "[[[[[1]],[[2,3],[4]]],[[],[[5,6,7]]]], [], [[[[1,2,3],[4]],[[5],[6],[7,8]]]]]";
    private static final String B =
            "[[[[1],[2,3,4]],[[2,4],[6]]], [], [[[9],[8,7,6],[5]],[[4,3,2,1]],[[0]]]]";
    private static final String C =
            "[[[[1],[2],[3],[4]],[[2],[4],[6]]], [],"
                    + " [[[9],[8],[7],[6],[5]],[[4],[3],[2],[1]],[[0]]]]";

    private static SequenceExampleBatchParser parser(SequenceFeatureSpecs s) {
        return SequenceExampleBatchParser.create(s, ParseLimits.defaults());
    }

    @Test
    void q06NestedRaggedBatch() throws Exception {
        ParsedSequenceBatch b =
                parser(NestedRaggedRecords.specs())
                        .parse(
                                RecordBatch.of(
                                        NestedRaggedRecords.EX0,
                                        NestedRaggedRecords.EX1,
                                        NestedRaggedRecords.EX2));
        assertNested(A, b.context().get("a"));
        assertEquals(RowSplitsDType.INT64, ((RaggedTensor) b.context().get("a")).rowSplitsDtype());
        assertNested(B, b.featureLists().get("b"));
        RaggedTensor c = (RaggedTensor) b.featureLists().get("c");
        assertNested(C, c);
        assertEquals(2, c.rowSplits().size());
        assertArrayEquals(new long[] {17, 1}, c.valuesShape());
        assertEquals(List.of("a"), List.copyOf(b.context().keySet()));
        assertEquals(List.of("b", "c"), List.copyOf(b.featureLists().keySet()));
    }

    @Test
    void q06NestedRaggedSingle() throws Exception {
        byte[] ex0 = NestedRaggedRecords.EX0;
        ParsedSequenceBatch s = parser(NestedRaggedRecords.specs()).parseSingle(ex0, 0, ex0.length);
        assertNested("[[[[1]],[[2,3],[4]]],[[],[[5,6,7]]]]", s.context().get("a"));
        assertNested("[[[1],[2,3,4]],[[2,4],[6]]]", s.featureLists().get("b"));
        assertNested("[[[1],[2],[3],[4]],[[2],[4],[6]]]", s.featureLists().get("c"));
    }

    @Test
    void misalignedPartitionListFails() {
        byte[] rec =
                SeqWire.featureLists(
                        SeqWire.entry(
                                "b_values",
                                SeqWire.featureList(
                                        SeqWire.floatFeature(1), SeqWire.floatFeature(2))),
                        SeqWire.entry("b_splits", SeqWire.featureList(SeqWire.int64Feature(0, 1))));
        SequenceFeatureSpecs specs =
                SeqSpecs.specs(
                        FeatureSpecs.empty(),
                        SeqSpecs.dict(
                                "b",
                                new RaggedFeature(
                                        DType.FLOAT32,
                                        "b_values",
                                        List.of(new Partition.RowSplits("b_splits")),
                                        RowSplitsDType.INT32)));
        String m =
                assertThrows(
                                ExampleParseException.class,
                                () -> parser(specs).parse(RecordBatch.of(rec)))
                        .getMessage();
        assertTrue(m.startsWith("Feature b: values and partitions are not aligned"), m);
    }

    @Test
    void partitionKeysFollowPythonsKeyRules() {
        RaggedFeature withFloatPartitionKey =
                new RaggedFeature(
                        DType.FLOAT32,
                        "v",
                        List.of(new Partition.RowLengths("x")),
                        RowSplitsDType.INT32);
        String m =
                assertThrows(
                                IllegalArgumentException.class,
                                () ->
                                        parser(
                                                SeqSpecs.specs(
                                                        FeatureSpecs.empty(),
                                                        FeatureSpecs.of(
                                                                Map.of(
                                                                        "r",
                                                                        withFloatPartitionKey,
                                                                        "x",
                                                                        new RaggedFeature(
                                                                                DType.FLOAT32,
                                                                                "x",
                                                                                List.of(),
                                                                                RowSplitsDType
                                                                                        .INT32))))))
                        .getMessage();
        assertEquals("Conflicting type <dtype: 'int64'> vs <dtype: 'float32'> for feature x.", m);
    }
}
