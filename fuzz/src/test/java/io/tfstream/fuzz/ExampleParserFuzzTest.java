package io.tfstream.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseErrorKind;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.SerializedRecords;
import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.parse.example.ParsedBatch;
import io.tfstream.spec.FeatureSpecs;
import java.util.ArrayList;
import java.util.List;

/**
 * Fuzzes {@link ExampleBatchParser}: a batch of fuzzed records under one of {@link
 * FuzzSpecs#EXAMPLE} (low bits of the configuration byte), with {@link FuzzSpecs#DEFAULT} or tight
 * limits (bit 7).
 *
 * <p>Oracle: {@code parse} returns or throws {@link ExampleParseException}; {@code parseLenient}
 * never throws, accounts for every record, and agrees with {@code parse} on whether the batch is
 * clean and on its tensors, and on a failed batch's first bad record and its message; the tensors
 * are well formed; nothing is allocated beyond what the input size justifies.
 */
class ExampleParserFuzzTest {

    @FuzzTest(maxDuration = FuzzRecords.MAX_DURATION)
    void parse(byte[] data) throws Exception {
        int config = FuzzRecords.config(data);
        FeatureSpecs spec = FuzzSpecs.EXAMPLE.get((config & 0x7f) % FuzzSpecs.EXAMPLE.size());
        ParseLimits limits = (config & 0x80) != 0 ? FuzzSpecs.TIGHT : FuzzSpecs.DEFAULT;
        List<byte[]> records = FuzzRecords.records(data);
        AllocationBudget.check(data.length, () -> parseBoth(spec, limits, records));
    }

    private static void parseBoth(FeatureSpecs spec, ParseLimits limits, List<byte[]> records) {
        SerializedRecords batch = SerializedRecords.of(records);
        ExampleBatchParser parser = ExampleBatchParser.create(spec, limits);
        ParsedBatch strict;
        ExampleParseException failure = null;
        try {
            strict = parser.parse(batch);
            check(strict.rows() == records.size(), "parse returned " + strict.rows() + " rows");
            TensorInvariants.checkAll(
                    strict.features(), records.size(), TensorInvariants.composites(spec));
        } catch (ExampleParseException e) {
            // A composite's batch error names no record (-1); the record that fails it alone
            // (FUZZING.md finding 5) or any other bad record is named by its index.
            check(
                    e.kind() == ParseErrorKind.INCONSISTENT_BATCH && e.recordIndex() == -1
                            || e.recordIndex() >= 0 && e.recordIndex() < records.size(),
                    "error names record " + e.recordIndex() + " of " + records.size());
            strict = null;
            failure = e;
        }

        // The same parser again: a failed batch must leave nothing behind.
        List<ExampleParseException> rejected = new ArrayList<>();
        ParsedBatch lenient = parser.parseLenient(batch, rejected::add);
        check(
                lenient.rows() + rejected.size() == records.size(),
                lenient.rows()
                        + " accepted + "
                        + rejected.size()
                        + " rejected != "
                        + records.size());
        TensorInvariants.checkAll(
                lenient.features(), lenient.rows(), TensorInvariants.composites(spec));
        for (int row = 0; row < lenient.rows(); row++) {
            int index = lenient.recordIndex(row);
            check(index >= row && index < records.size(), "row " + row + " from record " + index);
        }
        if (strict != null) {
            check(rejected.isEmpty(), "lenient rejected records parse accepted");
            check(
                    strict.features().equals(lenient.features()),
                    "parse and parseLenient disagree on a clean batch");
        } else {
            check(!rejected.isEmpty(), "parse failed but lenient rejected nothing: " + failure);
            check(
                    failure.recordIndex() == -1
                            || rejected.get(0).recordIndex() == failure.recordIndex(),
                    "first rejected record "
                            + rejected.get(0).recordIndex()
                            + " != failing record "
                            + failure.recordIndex());
            check(
                    failure.recordIndex() == -1
                            || rejected.get(0).getMessage().equals(failure.getMessage()),
                    "record "
                            + failure.recordIndex()
                            + ": parse says '"
                            + failure.getMessage()
                            + "', parseLenient '"
                            + rejected.get(0).getMessage()
                            + "'");
        }
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }
}
