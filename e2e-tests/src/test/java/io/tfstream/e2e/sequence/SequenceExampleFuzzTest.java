package io.tfstream.e2e.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.sequence.SequenceExampleBatchParser;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.testing.sequence.SequenceFuzzRecords;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Structured fuzzing against TensorFlow 2.18's {@code ParseSequenceExampleV2}: records with wrong
 * kinds, odd steps, trailing bytes, duplicates, truncation and bit flips, one record at a time and
 * in batches of 1, 7 and 64; outputs and error texts must be identical.
 */
class SequenceExampleFuzzTest {
    private static final int[] BATCH_SIZES = {1, 7, 64};

    @Test
    void fuzzedRecordsAreIdentical() {
        SequenceFuzzRecords fuzz = new SequenceFuzzRecords(4242L);
        Random r = fuzz.random();
        List<String> diffs = new ArrayList<>();
        Map<String, Integer> tally = new TreeMap<>();
        int records = 0;
        for (int s = 0; s < 60; s++) {
            SequenceFeatureSpecs spec = fuzz.spec();
            try (TfSequenceParseOracle tf = new TfSequenceParseOracle(spec)) {
                SequenceExampleBatchParser ours =
                        SequenceExampleBatchParser.create(spec, ParseLimits.none());
                for (int b = 0; b < 4; b++) {
                    int size = BATCH_SIZES[r.nextInt(BATCH_SIZES.length)];
                    double faultRate = size == 64 ? 0.02 : 0.3;
                    List<byte[]> batch = new ArrayList<>();
                    for (int i = 0; i < size; i++) {
                        batch.add(fuzz.record(spec, faultRate));
                    }
                    String d = SequenceComparison.batch(tf, ours, batch, null, tally);
                    if (d != null) {
                        diffs.add(d + "\nspec: " + spec);
                    }
                    for (byte[] rec : batch) {
                        String single = SequenceComparison.single(tf, ours, rec, "x", tally);
                        if (single != null) {
                            diffs.add(single + "\nspec: " + spec);
                        }
                    }
                    records += size;
                }
            }
        }
        assertEquals(
                List.of(), diffs.subList(0, Math.min(3, diffs.size())), diffs.size() + " diffs");
        System.out.println("fuzz corpus: " + records + " records, outcomes " + tally);
        assertTrue(tally.getOrDefault("ok", 0) > 1000, "too few successful parses: " + tally);
        assertTrue(tally.size() >= 12, "too few distinct outcomes: " + tally);
    }
}
