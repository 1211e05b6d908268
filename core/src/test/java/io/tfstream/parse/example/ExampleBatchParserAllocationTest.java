package io.tfstream.parse.example;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.parse.OutputBytes;
import io.tfstream.parse.RecordBatch;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.tensor.Tensor;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testing.WideProfileCorpus;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The parser allocates nothing per record beyond its output arrays: the bytes the thread allocates
 * for each additional record are bounded by that record's share of the output. Measured with the
 * thread allocation counter, so it is deterministic (no timing).
 */
class ExampleBatchParserAllocationTest {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Test
    void seed001AllocatesOnlyItsOutput() throws Exception {
        assertMarginalAllocationWithinOutput(Seed001Corpus.spec(), Seed001Corpus.records(2048, 1));
    }

    @Test
    void wideProfileAllocatesOnlyItsOutput() throws Exception {
        assertMarginalAllocationWithinOutput(
                WideProfileCorpus.spec(), WideProfileCorpus.records(2048, 1));
    }

    /**
     * Parses the first half and then all records, each after a warm-up parse of the same batch (as
     * in a steady stream of equal batches), and compares the growth in allocated bytes with the
     * growth in output bytes.
     */
    private static void assertMarginalAllocationWithinOutput(FeatureSpecs spec, List<byte[]> all)
            throws Exception {
        ExampleBatchParser parser = ExampleBatchParser.create(spec);
        RecordBatch half = RecordBatch.of(all.subList(0, all.size() / 2));
        RecordBatch full = RecordBatch.of(all);
        long[] halfCost = measure(parser, half);
        long[] fullCost = measure(parser, full);
        int extraRecords = full.size() - half.size();
        double allocPerRecord = (fullCost[0] - halfCost[0]) / (double) extraRecords;
        double outputPerRecord = (fullCost[1] - halfCost[1]) / (double) extraRecords;
        assertTrue(
                allocPerRecord <= outputPerRecord * 1.05 + 8,
                "allocated "
                        + allocPerRecord
                        + " bytes per record for "
                        + outputPerRecord
                        + " bytes of output per record");
    }

    /** {allocated bytes, output bytes} of parsing {@code batch} after warming up on it. */
    private static long[] measure(ExampleBatchParser parser, RecordBatch batch) throws Exception {
        for (int i = 0; i < 20; i++) {
            parser.parse(batch);
        }
        long id = Thread.currentThread().getId();
        long before = THREADS.getThreadAllocatedBytes(id);
        ParsedBatch out = parser.parse(batch);
        long allocated = THREADS.getThreadAllocatedBytes(id) - before;
        long output = 0;
        for (Tensor t : out.features().values()) {
            output += OutputBytes.of(t);
        }
        return new long[] {allocated, output};
    }
}
