package io.tfstream.parse.sequence;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.parse.OutputBytes;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.RecordBatch;
import io.tfstream.tensor.Tensor;
import io.tfstream.testing.sequence.RandomSequenceExamples;
import io.tfstream.testing.sequence.SequenceEdgeCases;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The SequenceExample parser's one-pass path allocates nothing per record or step beyond its output
 * arrays (and the few percent of spare room it leaves in the columns it hands over): the bytes the
 * thread allocates for each additional record are bounded by that record's share of the output.
 * Measured with the thread allocation counter, so it is deterministic.
 */
class SequenceExampleBatchParserAllocationTest {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Test
    void everyKindAllocatesOnlyItsOutput() throws Exception {
        RandomSequenceExamples gen = new RandomSequenceExamples(29);
        List<byte[]> all = new ArrayList<>();
        for (int i = 0; i < 2048; i++) {
            all.add(gen.record(SequenceEdgeCases.SPEC));
        }
        SequenceExampleBatchParser parser =
                SequenceExampleBatchParser.create(SequenceEdgeCases.SPEC, ParseLimits.defaults());
        RecordBatch half = RecordBatch.of(all.subList(0, all.size() / 2));
        RecordBatch full = RecordBatch.of(all);
        long[] halfCost = measure(parser, half);
        long[] fullCost = measure(parser, full);
        assertTrue(parser.onePassBatches > 0, "the one-pass path was not taken");
        int extra = full.size() - half.size();
        double allocPerRecord = (fullCost[0] - halfCost[0]) / (double) extra;
        double outputPerRecord = (fullCost[1] - halfCost[1]) / (double) extra;
        assertTrue(
                allocPerRecord <= outputPerRecord * 1.05 + 8,
                "allocated "
                        + allocPerRecord
                        + " bytes per record for "
                        + outputPerRecord
                        + " bytes of output per record");
    }

    /** {allocated bytes, output bytes} of parsing {@code batch} after warming up on it. */
    private static long[] measure(SequenceExampleBatchParser parser, RecordBatch batch)
            throws Exception {
        for (int i = 0; i < 20; i++) {
            parser.parse(batch);
        }
        long id = Thread.currentThread().getId();
        long before = THREADS.getThreadAllocatedBytes(id);
        ParsedSequenceBatch out = parser.parse(batch);
        long allocated = THREADS.getThreadAllocatedBytes(id) - before;
        long output = 0;
        for (Map<String, ? extends Tensor> m :
                List.of(out.context(), out.featureLists(), out.featureListLengths())) {
            for (Tensor t : m.values()) {
                output += OutputBytes.of(t);
            }
        }
        return new long[] {allocated, output};
    }
}
