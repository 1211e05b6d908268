package io.tfstream.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.SerializedRecords;
import io.tfstream.parse.sequence.ParsedSequenceBatch;
import io.tfstream.parse.sequence.SequenceExampleBatchParser;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.tensor.DenseTensor;
import java.util.List;
import java.util.Map;

/**
 * Fuzzes {@link SequenceExampleBatchParser}: one of {@link FuzzSpecs#SEQUENCE} (low bits of the
 * configuration byte), {@link FuzzSpecs#DEFAULT} or tight limits (bit 7).
 *
 * <p>Oracle: only {@link ExampleParseException}; well-formed tensors with the batch as leading
 * dimension; single parsing accepts a record exactly when a batch of that one record is accepted;
 * nothing is allocated beyond what the input size justifies.
 */
class SequenceExampleParserFuzzTest {

    @FuzzTest(maxDuration = FuzzRecords.MAX_DURATION)
    void parseBatch(byte[] data) throws Exception {
        int config = FuzzRecords.config(data);
        SequenceExampleBatchParser parser = parser(config);
        List<byte[]> records = FuzzRecords.records(data);
        AllocationBudget.check(
                data.length,
                () -> {
                    try {
                        ParsedSequenceBatch b = parser.parse(SerializedRecords.of(records));
                        check(b.batchSize() == records.size(), "batch size " + b.batchSize());
                        checkBatch(b, parser.specs(), records.size());
                    } catch (ExampleParseException e) {
                        // -1: a batch-level error, such as TensorFlow's "Inconsistent max
                        // number of elements" for a context feature missing from some records.
                        check(
                                e.recordIndex() >= -1 && e.recordIndex() < records.size(),
                                "error names record " + e.recordIndex() + " of " + records.size());
                    }
                });
    }

    /** The whole input after the configuration byte is one record, read in place at offset 1. */
    @FuzzTest(maxDuration = FuzzRecords.MAX_DURATION)
    void parseSingle(byte[] data) throws Exception {
        int config = FuzzRecords.config(data);
        SequenceExampleBatchParser parser = parser(config);
        int len = Math.max(0, data.length - 1);
        AllocationBudget.check(
                data.length,
                () -> {
                    boolean single;
                    try {
                        ParsedSequenceBatch s = parser.parseSingle(data, data.length - len, len);
                        TensorInvariants.checkAll(
                                s.context(),
                                -1,
                                TensorInvariants.composites(parser.specs().context()));
                        TensorInvariants.checkAll(
                                s.featureLists(),
                                -1,
                                TensorInvariants.composites(parser.specs().featureLists()));
                        single = true;
                    } catch (ExampleParseException e) {
                        single = false;
                    }
                    byte[] record =
                            java.util.Arrays.copyOfRange(data, data.length - len, data.length);
                    boolean batch;
                    try {
                        checkBatch(
                                parser.parse(SerializedRecords.of(List.of(record))),
                                parser.specs(),
                                1);
                        batch = true;
                    } catch (ExampleParseException e) {
                        batch = false;
                    }
                    check(
                            single == batch,
                            "single parse ok=" + single + ", batch of one ok=" + batch);
                });
    }

    private static SequenceExampleBatchParser parser(int config) {
        SequenceFeatureSpecs spec =
                FuzzSpecs.SEQUENCE.get((config & 0x7f) % FuzzSpecs.SEQUENCE.size());
        ParseLimits limits = (config & 0x80) != 0 ? FuzzSpecs.TIGHT : FuzzSpecs.DEFAULT;
        return SequenceExampleBatchParser.create(spec, limits);
    }

    private static void checkBatch(ParsedSequenceBatch b, SequenceFeatureSpecs spec, int rows) {
        TensorInvariants.checkAll(b.context(), rows, TensorInvariants.composites(spec.context()));
        TensorInvariants.checkAll(
                b.featureLists(), rows, TensorInvariants.composites(spec.featureLists()));
        for (Map.Entry<String, DenseTensor> e : b.featureListLengths().entrySet()) {
            long[] shape = e.getValue().shape();
            check(shape.length == 1 && shape[0] == rows, "lengths of " + e.getKey());
            for (int i = 0; i < rows; i++) {
                check(e.getValue().values().int64(i) >= 0, "negative length of " + e.getKey());
            }
        }
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }
}
