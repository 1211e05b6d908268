package io.tfstream.parse.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.SerializedRecords;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.tensor.json.BatchJsonWriter;
import io.tfstream.tensor.json.StringEncoding;
import io.tfstream.testing.RecordMutator;
import io.tfstream.testing.WideProfileCorpus;
import io.tfstream.testing.WireEdgeCaseGenerator;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The scanner remembers, per entry position, the layout of the entries it took there and decides
 * the next record's entry at that position by comparing words (tags, key, kind, and lengths in the
 * same relation). A record must parse the same whatever came before it: each record is parsed by a
 * parser that has just parsed many similar records (mutants of the same record: other lengths,
 * kinds, varint sizes and values at the same positions) and by a new parser that remembers nothing,
 * and both give the same tensors or the same error.
 */
class RememberedEntryEquivalenceTest {
    private static final ParseLimits TIGHT = new ParseLimits(64, 4, 6, 8, 16);

    /** Lists longer than 4, strings over 8 bytes and records of over 60 entries rejected. */
    private static final ParseLimits WIDE_TIGHT = new ParseLimits(4096, 4, 60, 8, 16);

    /** One value of at most one byte per feature. */
    private static final ParseLimits ONE_VALUE = new ParseLimits(4096, 1, 100, 1, 16);

    @Test
    void mutantsOfRandomRecordsParseAsWithoutMemory() throws Exception {
        WireEdgeCaseGenerator gen = new WireEdgeCaseGenerator(29);
        RecordMutator mutator = new RecordMutator(31);
        int compared = 0;
        for (int round = 0; round < 60; round++) {
            FeatureSpecs spec = gen.randomSpec();
            ParseLimits limits = round % 4 == 3 ? TIGHT : ParseLimits.defaults();
            ExampleBatchParser warm = ExampleBatchParser.create(spec, limits);
            for (byte[] base : gen.batch(spec, 6, 0.2)) {
                List<byte[]> family = new ArrayList<>();
                family.add(base);
                for (int i = 0; i < 30; i++) {
                    family.add(mutator.mutate(base, 1 + i % 3));
                    family.add(gen.record(spec, i % 5 == 0));
                }
                for (byte[] r : family) {
                    assertEquals(alone(spec, limits, r), outcome(warm, r));
                    compared++;
                }
            }
        }
        assertTrue(compared > 10_000);
    }

    @Test
    void wideRecordsAndTheirMutantsParseAsWithoutMemory() throws Exception {
        FeatureSpecs spec = WideProfileCorpus.spec();
        RecordMutator mutator = new RecordMutator(37);
        ExampleBatchParser warm = ExampleBatchParser.create(spec);
        ExampleBatchParser tight = ExampleBatchParser.create(spec, WIDE_TIGHT);
        ExampleBatchParser none = ExampleBatchParser.create(spec, ONE_VALUE);
        int accepted = 0;
        for (byte[] r : WideProfileCorpus.records(400, 5)) {
            for (byte[] x : List.of(r, mutator.mutate(r, 1), mutator.mutate(r, 2))) {
                String expected = alone(spec, ParseLimits.defaults(), x);
                assertEquals(expected, outcome(warm, x));
                assertEquals(alone(spec, WIDE_TIGHT, x), outcome(tight, x));
                assertEquals(alone(spec, ONE_VALUE, x), outcome(none, x));
                if (!expected.startsWith("error")) {
                    accepted++;
                }
            }
        }
        assertTrue(accepted > 400);
    }

    /**
     * Every byte of two wide records set to each wire-significant value (and to its neighbours),
     * each mutant parsed right after the record it came from, whose entries are then remembered.
     */
    @Test
    void everySingleByteChangeAfterTheOriginalParsesAsWithoutMemory() throws Exception {
        FeatureSpecs spec = WideProfileCorpus.spec();
        ExampleBatchParser warm = ExampleBatchParser.create(spec);
        ExampleBatchParser fresh = ExampleBatchParser.create(spec);
        int[] values = {0x00, 0x01, 0x04, 0x05, 0x0a, 0x0d, 0x12, 0x1a, 0x7f, 0x80, 0xff};
        int differing = 0;
        for (byte[] r : WideProfileCorpus.records(2, 9)) {
            String original = outcome(fresh, r);
            for (int at = 0; at < r.length; at++) {
                for (int k = 0; k < values.length + 2; k++) {
                    byte[] x = r.clone();
                    x[at] =
                            (byte)
                                    (k < values.length
                                            ? values[k]
                                            : r[at] + (k == values.length ? 1 : -1));
                    if (x[at] == r[at]) {
                        continue;
                    }
                    assertEquals(original, outcome(warm, r));
                    String expected = alone(spec, ParseLimits.defaults(), x);
                    assertEquals(expected, outcome(warm, x), "byte " + at + " set to " + x[at]);
                    if (!expected.equals(original)) {
                        differing++;
                    }
                }
            }
        }
        assertTrue(differing > 10_000);
    }

    /** A whole batch parsed by the warm parser equals the records parsed one by one. */
    @Test
    void batchesOfMutantsParseAsTheirRecordsAlone() throws Exception {
        FeatureSpecs spec = WideProfileCorpus.spec();
        RecordMutator mutator = new RecordMutator(41);
        ExampleBatchParser warm = ExampleBatchParser.create(spec);
        for (int round = 0; round < 10; round++) {
            List<byte[]> batch = new ArrayList<>();
            for (byte[] r : WideProfileCorpus.records(50, 100 + round)) {
                batch.add(r);
                batch.add(mutator.mutate(r, 1));
            }
            List<String> rejected = new ArrayList<>();
            ParsedBatch b =
                    warm.parseLenient(
                            SerializedRecords.of(batch), e -> rejected.add(e.getMessage()));
            List<byte[]> good = new ArrayList<>();
            int expectedRejections = 0;
            for (byte[] r : batch) {
                if (alone(spec, ParseLimits.defaults(), r).startsWith("error ")) {
                    expectedRejections++;
                } else {
                    good.add(r);
                }
            }
            assertEquals(expectedRejections, rejected.size());
            ParsedBatch fresh = ExampleBatchParser.create(spec).parse(SerializedRecords.of(good));
            assertEquals(json(fresh), json(b));
        }
    }

    private static String alone(FeatureSpecs spec, ParseLimits limits, byte[] r) throws Exception {
        return outcome(ExampleBatchParser.create(spec, limits), r);
    }

    private static String outcome(ExampleBatchParser parser, byte[] r) throws Exception {
        try {
            return json(parser.parse(SerializedRecords.of(List.of(r))));
        } catch (ExampleParseException e) {
            return "error " + e.getMessage();
        }
    }

    private static String json(ParsedBatch b) throws Exception {
        StringWriter s = new StringWriter();
        try (BatchJsonWriter w = new BatchJsonWriter(s, StringEncoding.BASE64)) {
            w.writeBatch(0, b.features());
        }
        return s.toString();
    }
}
