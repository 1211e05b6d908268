package io.tfstream.testing.sequence;

import static io.tfstream.testing.sequence.SeqWire.concat;
import static io.tfstream.testing.sequence.SeqWire.context;
import static io.tfstream.testing.sequence.SeqWire.entry;
import static io.tfstream.testing.sequence.SeqWire.featureList;
import static io.tfstream.testing.sequence.SeqWire.featureLists;
import static io.tfstream.testing.sequence.SeqWire.floatFeature;
import static io.tfstream.testing.sequence.SeqWire.int64Feature;

import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.Partition;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SequenceFeatureSpecs;
import java.util.List;

/**
 * Golden case Q06 of the parsing reference (TensorFlow's {@code parsing_ops_test.py} {@code
 * testSerializedContainingNestedRaggedFeature} for SequenceExamples): nested ragged partitions in
 * the context and in feature lists.
 */
public final class NestedRaggedRecords {
    private NestedRaggedRecords() {}

    public static final byte[] EX0 =
            concat(
                    context(
                            entry("a_values", floatFeature(1, 2, 3, 4, 5, 6, 7)),
                            entry("a_lengths_axis2", int64Feature(1, 2, 0, 1)),
                            entry("a_lengths_axis3", int64Feature(1, 2, 1, 3)),
                            entry("a_splits_axis3", int64Feature(0, 1, 3, 4, 7))),
                    featureLists(
                            entry(
                                    "b_values",
                                    featureList(floatFeature(1, 2, 3, 4), floatFeature(2, 4, 6))),
                            entry(
                                    "b_splits",
                                    featureList(int64Feature(0, 1, 4), int64Feature(0, 2, 3)))));

    public static final byte[] EX1 = new byte[0];

    public static final byte[] EX2 =
            concat(
                    context(
                            entry("a_values", floatFeature(1, 2, 3, 4, 5, 6, 7, 8)),
                            entry("a_lengths_axis2", int64Feature(2, 3)),
                            entry("a_lengths_axis3", int64Feature(3, 1, 1, 1, 2)),
                            entry("a_splits_axis3", int64Feature(0, 3, 4, 5, 6, 8))),
                    featureLists(
                            entry(
                                    "b_values",
                                    featureList(
                                            floatFeature(9, 8, 7, 6, 5),
                                            floatFeature(4, 3, 2, 1),
                                            floatFeature(0))),
                            entry(
                                    "b_splits",
                                    featureList(
                                            int64Feature(0, 1, 4, 5),
                                            int64Feature(0, 4),
                                            int64Feature(0, 1)))));

    public static SequenceFeatureSpecs specs() {
        RaggedFeature a =
                new RaggedFeature(
                        DType.FLOAT32,
                        "a_values",
                        List.of(
                                new Partition.UniformRowLength(2),
                                new Partition.RowLengths("a_lengths_axis2"),
                                new Partition.RowSplits("a_splits_axis3")),
                        RowSplitsDType.INT64);
        RaggedFeature b =
                new RaggedFeature(
                        DType.FLOAT32,
                        "b_values",
                        List.of(new Partition.RowSplits("b_splits")),
                        RowSplitsDType.INT32);
        RaggedFeature c =
                new RaggedFeature(
                        DType.FLOAT32,
                        "b_values",
                        List.of(new Partition.UniformRowLength(1)),
                        RowSplitsDType.INT32);
        return SeqSpecs.specs(
                SeqSpecs.dict("a", a), FeatureSpecs.of(java.util.Map.of("b", b, "c", c)));
    }
}
