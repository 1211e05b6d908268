package io.tfstream.parse.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseLimitException;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.SerializedRecords;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.testing.sequence.SequenceEdgeCases;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link SequenceExampleBatchParser#parseLenient}: the same contract as the Example parser's. On
 * random batches of the wire edge cases (valid and invalid records mixed) the rejected records are
 * exactly those that fail on their own, each with its own message, and the batch equals the strict
 * parse of the accepted records in order.
 */
class SequenceLenientParseTest {

    @Test
    void rejectsExactlyTheRecordsThatFailAloneAndParsesTheRest() throws Exception {
        SequenceFeatureSpecs spec = SequenceEdgeCases.SPEC;
        List<SequenceEdgeCases.Case> cases = SequenceEdgeCases.cases(7);
        SequenceExampleBatchParser parser =
                SequenceExampleBatchParser.create(spec, ParseLimits.defaults());
        SequenceExampleBatchParser reference =
                SequenceExampleBatchParser.create(spec, ParseLimits.defaults());
        Random rnd = new Random(11);
        int sawRejected = 0;
        for (int round = 0; round < 200; round++) {
            int n = 1 + rnd.nextInt(24);
            List<byte[]> records = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                records.add(cases.get(rnd.nextInt(cases.size())).record());
            }
            List<Integer> expectedRejected = new ArrayList<>();
            List<String> expectedMessages = new ArrayList<>();
            List<byte[]> good = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                try {
                    reference.parse(SerializedRecords.of(List.of(records.get(i))));
                    good.add(records.get(i));
                } catch (ExampleParseException e) {
                    expectedRejected.add(i);
                    expectedMessages.add(e.getMessage());
                }
            }
            List<ExampleParseException> rejected = new ArrayList<>();
            ParsedSequenceBatch b =
                    parser.parseLenient(SerializedRecords.of(records), rejected::add);
            List<Integer> gotIndexes = new ArrayList<>();
            List<String> gotMessages = new ArrayList<>();
            for (ExampleParseException e : rejected) {
                gotIndexes.add(e.recordIndex());
                gotMessages.add(e.getMessage());
            }
            assertEquals(expectedRejected, gotIndexes, "round " + round);
            assertEquals(expectedMessages, gotMessages, "round " + round);
            assertEquals(good.size(), b.rows());
            ParsedSequenceBatch strict = reference.parse(SerializedRecords.of(good));
            assertEquals(strict.context(), b.context());
            assertEquals(strict.featureLists(), b.featureLists());
            assertEquals(strict.featureListLengths(), b.featureListLengths());
            int row = 0;
            for (int i = 0; i < n; i++) {
                if (!expectedRejected.contains(i)) {
                    assertEquals(i, b.recordIndex(row++));
                }
            }
            sawRejected += expectedRejected.size();
        }
        assertTrue(sawRejected > 50, "the corpus mixes in invalid records: " + sawRejected);
    }

    @Test
    void aBatchWithoutBadRecordsIsParsedOnceWithIdentityRows() throws Exception {
        SequenceExampleBatchParser parser =
                SequenceExampleBatchParser.create(
                        SequenceEdgeCases.REQUIRED_SPEC, ParseLimits.defaults());
        List<byte[]> ok = new ArrayList<>();
        for (SequenceEdgeCases.Case c : SequenceEdgeCases.requiredCases()) {
            try {
                parser.parse(SerializedRecords.of(List.of(c.record())));
                ok.add(c.record());
            } catch (ExampleParseException e) {
                // an invalid case: left out of this batch
            }
        }
        List<ExampleParseException> rejected = new ArrayList<>();
        ParsedSequenceBatch b = parser.parseLenient(SerializedRecords.of(ok), rejected::add);
        assertEquals(List.of(), rejected);
        assertEquals(ok.size(), b.rows());
        for (int r = 0; r < ok.size(); r++) {
            assertEquals(r, b.recordIndex(r));
        }
    }

    @Test
    void limitViolationsAreNamedWithTheRecordIndex() {
        SequenceExampleBatchParser parser =
                SequenceExampleBatchParser.create(
                        SequenceEdgeCases.SPEC, ParseLimits.defaults().withMaxRecordBytes(8));
        byte[] small = new byte[0];
        byte[] big = new byte[64];
        Arrays.fill(big, (byte) 0);
        List<ExampleParseException> rejected = new ArrayList<>();
        ParsedSequenceBatch b =
                parser.parseLenient(
                        SerializedRecords.of(List.of(small, big, small)), rejected::add);
        assertEquals(2, b.rows());
        assertEquals(2, b.recordIndex(1));
        assertEquals(1, rejected.size());
        ParseLimitException e = assertInstanceOf(ParseLimitException.class, rejected.get(0));
        assertEquals(1, e.recordIndex());
        assertEquals("maxRecordBytes", e.setting());
        assertEquals("record 1 has 64 bytes, exceeds maxRecordBytes (8)", e.getMessage());
    }
}
