package io.tfstream.parse.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.SerializedRecords;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.testing.sequence.RandomSequenceExamples;
import io.tfstream.testing.sequence.SequenceEdgeCases;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The SequenceExample parser's one-pass path and the kernel's passes give the same batch or the
 * same error, on random specs and records and on the wire-level edge cases (each alone, and mixed
 * into batches of valid records), so that the one-pass path is only ever a faster way to the same
 * result.
 */
class SequenceOnePassEquivalenceTest {
    private static String outcome(SequenceExampleBatchParser p, List<byte[]> records) {
        try {
            ParsedSequenceBatch b = p.parse(SerializedRecords.of(records));
            return b.batchSize()
                    + " "
                    + b.context()
                    + " "
                    + b.featureLists()
                    + " "
                    + b.featureListLengths();
        } catch (ExampleParseException e) {
            return "error " + e.getMessage();
        }
    }

    private static int onePass;

    private static void assertSame(SequenceFeatureSpecs spec, List<byte[]> records) {
        SequenceExampleBatchParser fast =
                SequenceExampleBatchParser.create(spec, ParseLimits.defaults());
        SequenceExampleBatchParser kernel =
                SequenceExampleBatchParser.create(spec, ParseLimits.defaults());
        kernel.onePass(false);
        ParsedSequenceBatch a = parseOrNull(fast, records);
        ParsedSequenceBatch b = parseOrNull(kernel, records);
        assertEquals(outcome(kernel, records), outcome(fast, records));
        if (a != null) {
            assertEquals(b.context(), a.context());
            assertEquals(b.featureLists(), a.featureLists());
            assertEquals(b.featureListLengths(), a.featureListLengths());
        }
        onePass += fast.onePassBatches;
    }

    private static ParsedSequenceBatch parseOrNull(
            SequenceExampleBatchParser p, List<byte[]> records) {
        try {
            return p.parse(SerializedRecords.of(records));
        } catch (ExampleParseException e) {
            return null;
        }
    }

    @Test
    void randomSpecsAndRecords() {
        onePass = 0;
        int parsed = 0;
        for (long seed = 0; seed < 300; seed++) {
            RandomSequenceExamples gen = new RandomSequenceExamples(seed);
            SequenceFeatureSpecs spec;
            try {
                spec = gen.spec();
                SequenceExampleBatchParser.create(spec, ParseLimits.defaults());
            } catch (IllegalArgumentException rejected) {
                continue;
            }
            List<byte[]> records = new ArrayList<>();
            int n = gen.random().nextInt(6);
            for (int i = 0; i < n; i++) {
                records.add(gen.record(spec));
            }
            assertSame(spec, records);
            parsed++;
        }
        assertTrue(parsed > 100, "specs tried: " + parsed);
        assertTrue(onePass > 50, "batches parsed in one pass: " + onePass);
    }

    @Test
    void edgeCasesAloneAndInBatches() {
        onePass = 0;
        Random rnd = new Random(29);
        List<SequenceEdgeCases.Case> cases = SequenceEdgeCases.cases(29);
        for (SequenceEdgeCases.Case c : cases) {
            assertSame(SequenceEdgeCases.SPEC, List.of(c.record()));
            List<byte[]> batch = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                batch.add(cases.get(rnd.nextInt(cases.size())).record());
            }
            batch.add(rnd.nextInt(batch.size() + 1), c.record());
            assertSame(SequenceEdgeCases.SPEC, batch);
        }
        for (SequenceEdgeCases.Case c : SequenceEdgeCases.requiredCases()) {
            assertSame(SequenceEdgeCases.REQUIRED_SPEC, List.of(c.record()));
        }
        assertTrue(onePass > 10, "batches parsed in one pass: " + onePass);
    }
}
