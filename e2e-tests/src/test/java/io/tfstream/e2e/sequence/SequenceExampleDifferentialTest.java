package io.tfstream.e2e.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.sequence.SequenceExampleBatchParser;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.testing.sequence.RandomSequenceExamples;
import io.tfstream.testing.sequence.SequenceEdgeCases;
import io.tfstream.testing.sequence.SequenceEdgeCases.Case;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link SequenceExampleBatchParser} against TensorFlow 2.18's {@code ParseSequenceExampleV2}
 * (through TF Java 1.1.0): random specs with random valid SequenceExamples, and hand-built edge
 * records, in batches of 0, 1, 7 and 64 and one record at a time; outputs and error texts must be
 * identical.
 */
class SequenceExampleDifferentialTest {
    private static final int[] BATCH_SIZES = {1, 7, 64};

    @Test
    void randomValidCorpusIsIdentical() {
        RandomSequenceExamples gen = new RandomSequenceExamples(20261122L);
        Random r = gen.random();
        int records = 0;
        int batches = 0;
        List<String> diffs = new ArrayList<>();
        Map<String, Integer> tally = new TreeMap<>();
        for (int s = 0; s < 40; s++) {
            SequenceFeatureSpecs spec = gen.spec();
            try (TfSequenceParseOracle tf = new TfSequenceParseOracle(spec)) {
                SequenceExampleBatchParser ours =
                        SequenceExampleBatchParser.create(spec, ParseLimits.none());
                for (int b = 0; b < 8; b++) {
                    int size = b == 0 ? 0 : BATCH_SIZES[r.nextInt(BATCH_SIZES.length)];
                    List<byte[]> batch = new ArrayList<>();
                    for (int i = 0; i < size; i++) {
                        batch.add(gen.record(spec));
                    }
                    List<String> names = r.nextBoolean() ? names(size, s) : null;
                    note(diffs, SequenceComparison.batch(tf, ours, batch, names, tally), spec);
                    for (int i = 0; i < batch.size(); i++) {
                        String name = names == null ? null : names.get(i);
                        note(
                                diffs,
                                SequenceComparison.single(tf, ours, batch.get(i), name, tally),
                                spec);
                    }
                    records += size;
                    batches++;
                }
            }
        }
        assertEquals(
                List.of(), diffs.subList(0, Math.min(3, diffs.size())), diffs.size() + " diffs");
        assertTrue(records >= 5000, "only " + records + " records in " + batches + " batches");
        System.out.println("random corpus: " + records + " records, outcomes " + tally);
        assertTrue(tally.getOrDefault("ok", 0) > 5000, "too few successful parses: " + tally);
    }

    @Test
    void edgeCasesAreIdentical() {
        List<String> diffs = new ArrayList<>();
        Map<String, Integer> tally = new TreeMap<>();
        int checked = 0;
        checked += edgeCases(SequenceEdgeCases.SPEC, SequenceEdgeCases.cases(7L), diffs, tally);
        checked +=
                edgeCases(
                        SequenceEdgeCases.REQUIRED_SPEC,
                        SequenceEdgeCases.requiredCases(),
                        diffs,
                        tally);
        assertEquals(
                List.of(), diffs.subList(0, Math.min(3, diffs.size())), diffs.size() + " diffs");
        assertTrue(checked > 150, "only " + checked + " edge records");
        System.out.println("edge corpus: " + checked + " records, outcomes " + tally);
        assertTrue(tally.size() >= 12, "too few distinct outcomes: " + tally);
    }

    private static int edgeCases(
            SequenceFeatureSpecs spec,
            List<Case> cases,
            List<String> diffs,
            Map<String, Integer> tally) {
        RandomSequenceExamples gen = new RandomSequenceExamples(99L);
        Random r = gen.random();
        int n = 0;
        try (TfSequenceParseOracle tf = new TfSequenceParseOracle(spec)) {
            SequenceExampleBatchParser ours =
                    SequenceExampleBatchParser.create(spec, ParseLimits.none());
            note(diffs, SequenceComparison.batch(tf, ours, List.of(), null, tally), spec);
            for (Case c : cases) {
                String name = "edge-" + n;
                String single = SequenceComparison.single(tf, ours, c.record(), name, tally);
                note(diffs, single == null ? null : c.label() + ": " + single, spec);
                int size = BATCH_SIZES[n % BATCH_SIZES.length];
                List<byte[]> batch = new ArrayList<>();
                boolean valid = spec == SequenceEdgeCases.SPEC;
                for (int i = 0; i < size - 1; i++) {
                    batch.add(
                            valid
                                    ? gen.record(spec)
                                    : SequenceEdgeCases.requiredCases().get(0).record());
                }
                batch.add(r.nextInt(batch.size() + 1), c.record());
                List<String> names = n % 2 == 0 ? names(size, n) : null;
                String diff = SequenceComparison.batch(tf, ours, batch, names, tally);
                note(diffs, diff == null ? null : c.label() + ": " + diff, spec);
                n++;
            }
        }
        return n;
    }

    private static List<String> names(int n, int salt) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            names.add("rec-" + salt + "-" + i);
        }
        return names;
    }

    private static void note(List<String> diffs, String diff, SequenceFeatureSpecs spec) {
        if (diff != null) {
            diffs.add(diff + "\nspec: " + spec);
        }
    }
}
