package io.tfstream.e2e.sequence;

import static io.tfstream.spec.DType.FLOAT32;
import static io.tfstream.spec.DType.INT64;
import static io.tfstream.spec.DType.STRING;
import static io.tfstream.testing.sequence.SeqSpecs.dict;
import static io.tfstream.testing.sequence.SeqSpecs.fixed;
import static io.tfstream.testing.sequence.SeqSpecs.ragged;
import static io.tfstream.testing.sequence.SeqSpecs.seq;
import static io.tfstream.testing.sequence.SeqSpecs.specs;
import static io.tfstream.testing.sequence.SeqSpecs.varLen;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tfstream.e2e.sequence.TfSequenceParseOracle.Outcome;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.RaggedTensor;
import io.tfstream.tensor.SparseTensor;
import io.tfstream.testing.sequence.SequenceGoldenRecords;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The oracle itself reproduces golden cases Q01, Q03 and Q05 of the parsing reference, so that its
 * conversion of TensorFlow's outputs (output order, ragged outer/inner splits, scalar input) is
 * known to be right independently of the parser it checks.
 */
class TfSequenceParseOracleTest {
    private static final SequenceFeatureSpecs Q01 =
            specs(
                    dict(
                            "c", fixed(FLOAT32, 2),
                            "st_a", varLen(FLOAT32),
                            "cr", ragged(INT64, "cr", RowSplitsDType.INT64)),
                    dict(
                            "a", seq(INT64, false, 1, 3),
                            "s", varLen(FLOAT32),
                            "r", ragged(STRING, "r", RowSplitsDType.INT32),
                            "m", seq(FLOAT32, true, 5)));

    private static RaggedTensor ragged2(Column v, RowSplitsDType t, long[]... splits) {
        return new RaggedTensor(v, new long[] {v.size()}, List.of(splits), t);
    }

    private static Column str(String... s) {
        byte[][] b = new byte[s.length][];
        for (int i = 0; i < s.length; i++) {
            b[i] = s[i].getBytes(StandardCharsets.UTF_8);
        }
        return Column.strings(b);
    }

    @Test
    void q01Batch() {
        try (TfSequenceParseOracle tf = new TfSequenceParseOracle(Q01)) {
            Outcome o =
                    tf.parse(
                            List.of(SequenceGoldenRecords.Q01_EX0, SequenceGoldenRecords.Q01_EX1),
                            null);
            assertNull(o.error());
            assertEquals(
                    new DenseTensor(new long[] {2, 2}, Column.float32s(3, 4, 5, 6)),
                    o.context().get("c"));
            assertEquals(
                    new SparseTensor(
                            new long[] {0, 0, 0, 1}, Column.float32s(3, 4), new long[] {2, 2}),
                    o.context().get("st_a"));
            assertEquals(
                    ragged2(Column.int64s(), RowSplitsDType.INT64, new long[] {0, 0, 0}),
                    o.context().get("cr"));
            assertEquals(
                    new DenseTensor(
                            new long[] {2, 2, 1, 3},
                            Column.int64s(-1, 0, 1, 2, 3, 4, 7, 8, 9, 0, 0, 0)),
                    o.featureLists().get("a"));
            assertEquals(
                    new DenseTensor(new long[] {2}, Column.int64s(2, 1)), o.lengths().get("a"));
            assertEquals(
                    new DenseTensor(new long[] {2, 0, 5}, Column.float32s()),
                    o.featureLists().get("m"));
            assertEquals(
                    new SparseTensor(
                            new long[] {0, 0, 0, 0, 0, 1, 0, 1, 0},
                            Column.float32s(3, 4, 5),
                            new long[] {2, 3, 2}),
                    o.featureLists().get("s"));
            assertEquals(
                    ragged2(
                            str("x", "y", "z"),
                            RowSplitsDType.INT32,
                            new long[] {0, 2, 2},
                            new long[] {0, 1, 3}),
                    o.featureLists().get("r"));
        }
    }

    @Test
    void q01SingleHasNoBatchDimension() {
        try (TfSequenceParseOracle tf = new TfSequenceParseOracle(Q01)) {
            Outcome o = tf.parseSingle(SequenceGoldenRecords.Q01_EX0, null);
            assertNull(o.error());
            assertEquals(
                    new DenseTensor(new long[] {2}, Column.float32s(3, 4)), o.context().get("c"));
            assertEquals(new DenseTensor(new long[] {0}, Column.int64s()), o.context().get("cr"));
            assertEquals(
                    ragged2(str("x", "y", "z"), RowSplitsDType.INT32, new long[] {0, 1, 3}),
                    o.featureLists().get("r"));
            assertEquals(new DenseTensor(new long[0], Column.int64s(2)), o.lengths().get("a"));
        }
    }

    @Test
    void q05RaggedBatch() {
        SequenceFeatureSpecs s =
                specs(
                        dict("a", ragged(FLOAT32, "a", RowSplitsDType.INT32)),
                        dict(
                                "b", ragged(FLOAT32, "b", RowSplitsDType.INT32),
                                "c", ragged(INT64, "c", RowSplitsDType.INT64)));
        try (TfSequenceParseOracle tf = new TfSequenceParseOracle(s)) {
            Outcome o = tf.parse(Arrays.asList(SequenceGoldenRecords.Q05), null);
            assertEquals(
                    ragged2(
                            Column.float32s(3, 4, 9),
                            RowSplitsDType.INT32,
                            new long[] {0, 2, 3, 3, 3}),
                    o.context().get("a"));
            assertEquals(
                    ragged2(
                            Column.float32s(5, 3, 1, 1, 2, 1, 2, 3),
                            RowSplitsDType.INT32,
                            new long[] {0, 2, 2, 5, 6},
                            new long[] {0, 1, 2, 3, 5, 8, 8}),
                    o.featureLists().get("b"));
            assertEquals(
                    ragged2(
                            Column.int64s(6, 7, 8, 9, 1, 2, 3, 3, 3, 3),
                            RowSplitsDType.INT64,
                            new long[] {0, 1, 3, 3, 4},
                            new long[] {0, 4, 4, 7, 10}),
                    o.featureLists().get("c"));
        }
    }

    @Test
    void q03ErrorTextIsTensorFlows() {
        SequenceFeatureSpecs s = specs(dict("c", fixed(FLOAT32)), FeatureSpecs.empty());
        try (TfSequenceParseOracle tf = new TfSequenceParseOracle(s)) {
            assertEquals(
                    "Inconsistent max number of elements for feature c: expected 1, but found 0",
                    tf.parse(List.of(), null).error());
        }
    }
}
