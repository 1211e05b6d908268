package io.tfstream.e2e.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.example.ParsedExample;
import io.tfstream.parse.example.SingleExampleParser;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.tensor.Tensor;
import io.tfstream.testing.RecordMutator;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testing.WireEdgeCaseGenerator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Differential test of {@link SingleExampleParser} against TensorFlow's {@code ParseExampleV2}
 * kernel fed a scalar {@code serialized}, as {@code parse_single_example} calls it: outputs bit for
 * bit, errors verbatim, on generated records with wire-level edge cases and deliberate defects, on
 * byte-mutated records and on the seed-001 corpus.
 */
class SingleExampleDifferentialTest {
    private static final List<String> ERROR_KINDS =
            List.of(
                    "Could not parse example input",
                    "Unsupported datatype.",
                    "Can't parse serialized Example.",
                    "Data types don't match. Data type:",
                    "Data types don't match. Expected type:",
                    "should be divisible by",
                    "is required but could not be found");

    private final Map<String, Integer> errorKinds = new TreeMap<>();
    private int compared;

    @Test
    void matchesTensorFlowOnEdgeCasesMutationsAndSeedCorpus() {
        WireEdgeCaseGenerator gen = new WireEdgeCaseGenerator(11);
        Random rnd = new Random(12);
        for (int s = 0; s < 30; s++) {
            FeatureSpecs spec = gen.randomSpec();
            try (TfParseOracle oracle = TfParseOracle.scalar(spec)) {
                SingleExampleParser parser = SingleExampleParser.create(spec, ParseLimits.none());
                for (int r = 0; r < 100; r++) {
                    compare(spec, oracle, parser, gen.record(spec, rnd.nextInt(4) == 0));
                }
            }
        }
        RecordMutator mutator = new RecordMutator(13);
        int mutatedSpecs = 0;
        while (mutatedSpecs < 8) {
            FeatureSpecs spec = gen.randomSpec();
            if (spec.features().values().stream()
                    .anyMatch(f -> f instanceof FixedLenFeature && f.dtype() == DType.FLOAT32)) {
                // An unpacked float list longer than a fixed shape makes TensorFlow write past
                // its output (see ParseExampleDifferentialTest).
                continue;
            }
            mutatedSpecs++;
            try (TfParseOracle oracle = TfParseOracle.scalar(spec)) {
                SingleExampleParser parser = SingleExampleParser.create(spec, ParseLimits.none());
                for (int r = 0; r < 60; r++) {
                    compare(spec, oracle, parser, mutator.mutate(gen.record(spec, false), 3));
                }
            }
        }
        try (TfParseOracle oracle = TfParseOracle.scalar(Seed001Corpus.spec())) {
            SingleExampleParser parser =
                    SingleExampleParser.create(Seed001Corpus.spec(), ParseLimits.none());
            for (byte[] r : Seed001Corpus.records(500, 14)) {
                compare(Seed001Corpus.spec(), oracle, parser, r);
            }
        }
        System.out.printf(
                "parse_single_example: %d records identical to TensorFlow, errors %s%n",
                compared, errorKinds);
        assertTrue(compared >= 3000, "compared only " + compared);
        for (String kind : ERROR_KINDS) {
            assertTrue(
                    errorKinds.getOrDefault(kind, 0) >= 3,
                    "too few errors compared: " + kind + " in " + errorKinds);
        }
    }

    private void compare(
            FeatureSpecs spec, TfParseOracle oracle, SingleExampleParser parser, byte[] record) {
        TfParseOracle.Outcome expected = oracle.parseSingle(record);
        ParsedExample actual = null;
        ExampleParseException error = null;
        try {
            actual = parser.parse(record, 0, record.length);
        } catch (ExampleParseException e) {
            error = e;
        }
        compared++;
        String context = "spec " + spec + ", record " + HexFormat.of().formatHex(record);
        if (expected.error() != null) {
            if (error == null) {
                fail(context + ": TensorFlow failed with <" + expected.error() + "> but we parsed");
            }
            for (String kind : ERROR_KINDS) {
                if (expected.error().contains(kind)) {
                    errorKinds.merge(kind, 1, Integer::sum);
                }
            }
            assertEquals(untilNul(expected.error()), untilNul(error.getMessage()), context);
            return;
        }
        if (error != null) {
            fail(context + ": we failed with <" + error.getMessage() + "> but TensorFlow parsed");
        }
        assertEquals(expected.features().keySet(), actual.features().keySet(), context);
        for (Map.Entry<String, Tensor> e : expected.features().entrySet()) {
            assertEquals(e.getValue(), actual.feature(e.getKey()), context + ", " + e.getKey());
        }
    }

    private static String untilNul(String m) {
        int z = m.indexOf('\0');
        return z < 0 ? m : m.substring(0, z);
    }
}
