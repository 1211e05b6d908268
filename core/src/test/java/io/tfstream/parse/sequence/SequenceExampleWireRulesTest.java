package io.tfstream.parse.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseLimits;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.RaggedTensor;
import io.tfstream.tensor.SparseTensor;
import io.tfstream.testing.sequence.SequenceEdgeCases;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Wire rules of the SequenceExample path of TensorFlow's fast parser that differ from protobuf,
 * pinned as regression tests. Expected values were produced by TensorFlow 2.18 ({@code
 * ParseSequenceExampleV2} through TF Java 1.1.0: {@code TfSequenceParseOracle.parseSingle} on
 * {@link SequenceEdgeCases#cases} with {@link SequenceEdgeCases#SPEC}, no example name), and are
 * rechecked against TensorFlow on every run by the e2e differential tests.
 */
class SequenceExampleWireRulesTest {
    private static final Map<String, byte[]> CASES = index();

    private static Map<String, byte[]> index() {
        Map<String, byte[]> m = new HashMap<>();
        for (SequenceEdgeCases.Case c : SequenceEdgeCases.cases(7L)) {
            m.put(c.label(), c.record());
        }
        return m;
    }

    private static ParsedSequenceBatch single(String label) throws ExampleParseException {
        byte[] r = CASES.get(label);
        return SequenceExampleBatchParser.create(SequenceEdgeCases.SPEC, ParseLimits.defaults())
                .parseSingle(r, 0, r.length);
    }

    private static String error(String label) {
        return assertThrows(ExampleParseException.class, () -> single(label)).getMessage();
    }

    @Test
    void trailingBytesInsideAStepAreReadAsFurtherSteps() throws Exception {
        assertEquals(
                new SparseTensor(
                        new long[] {0, 0, 0, 1, 2, 0}, Column.int64s(1, 2, 3), new long[] {3, 2}),
                single("trailing bytes in step read as steps").featureLists().get("lv"));
        assertEquals(
                new RaggedTensor(
                        Column.float32s(1),
                        new long[] {1},
                        List.of(new long[] {0, 1, 1}),
                        RowSplitsDType.INT64),
                single("trailing bytes in ragged step").featureLists().get("lr"));
    }

    @Test
    void trailingBytesAfterAContextListAreIgnored() throws Exception {
        assertEquals(
                new DenseTensor(new long[] {2}, Column.int64s(1, 2)),
                single("trailing bytes after context list").context().get("cr"));
    }

    @Test
    void tenByteVarintKeepsTheLow64Bits() throws Exception {
        ParsedSequenceBatch p = single("ten-byte varint");
        assertEquals(new DenseTensor(new long[] {1}, Column.int64s(-1)), p.context().get("cr"));
        assertEquals(
                new SparseTensor(new long[] {0, 0}, Column.int64s(-1), new long[] {1, 1}),
                p.featureLists().get("lv"));
    }

    @Test
    void malformedStepsAndListsGiveTensorFlowsErrors() {
        assertEquals(
                "Error in sequence feature lv in example <unknown>",
                error("list step of one byte"));
        assertEquals(
                "Error in sequence feature lv in example <unknown>",
                error("int64 packed then unpacked"));
        assertEquals(
                "Name: <unknown>, Feature list: lv, Index: 0.  Data types don't match. Expected"
                        + " type: int64",
                error("list step two bytes nonzero len"));
        assertEquals(
                "Name: <unknown>, Feature list: lr, Index: 0.  Data types don't match. Expected"
                        + " type: float",
                error("float packed length 3 list"));
        assertEquals(
                "Name: <unknown>, Feature list: lr, Index: 1.  Data types don't match. Expected"
                        + " type: float",
                error("float two packed fields"));
        assertEquals(
                "Name: <unknown>, Context feature: cs.  Data types don't match. Expected type:"
                        + " string",
                error("unknown kind byte in context"));
    }

    @Test
    void bytesValueLongerThanItsListIsCountedThenFails() {
        assertEquals(
                "Unexpected number of elements in example <unknown>",
                error("truncated bytes value dense ctx"));
        assertEquals(
                "Error in sequence feature lb in example <unknown>",
                error("truncated bytes value dense list"));
        assertEquals(
                "Unexpected total number of elements in feature crs",
                error("truncated bytes value ragged ctx"));
        assertEquals(
                "Unexpected number of elements for feature lrs",
                error("truncated bytes value ragged list"));
    }
}
