package io.tfstream.e2e.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.RecordBatch;
import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.parse.example.ParsedBatch;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.FixedLenSequenceFeature;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.VarLenFeature;
import io.tfstream.tensor.Tensor;
import io.tfstream.testing.FeatureWire;
import io.tfstream.testing.RecordMutator;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testing.WideProfileCorpus;
import io.tfstream.testing.WireEdgeCaseGenerator;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestInstance;

/**
 * Differential tests of {@link ExampleBatchParser} against TensorFlow's {@code ParseExampleV2}
 * kernel: every output compared bit for bit (floats by raw bits) and every error message compared
 * verbatim, over the seed-001 corpus, the wide profile and wire-level edge cases built byte by
 * byte.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ParseExampleDifferentialTest {
    private static final int[] EDGE_BATCH_SIZES = {0, 1, 8, 100, 1024};
    private static final double[] BAD_RATES = {0, 0.001, 0.05, 0.5};

    /** Error texts every run must have compared at least once (TF 2.18 error catalogue). */
    private static final List<String> ERROR_KINDS =
            List.of(
                    "Could not parse example input",
                    "Unsupported datatype.",
                    "Can't parse serialized Example.",
                    "Data types don't match. Data type:",
                    "Data types don't match. Expected type:",
                    "values != expected.",
                    "is not a multiple of stride length",
                    "is required but could not be found");

    private final Map<String, Integer> errorKindsSeen = new TreeMap<>();
    private long recordsCompared;
    private long batchesCompared;
    private long errorBatches;

    @Test
    void seed001CorpusMatchesTensorFlow() {
        List<byte[]> records = Seed001Corpus.records(10_000, 1);
        compareInBatches(Seed001Corpus.spec(), records, 1024);
        FeatureSpecs lists =
                FeatureSpecs.of(
                        Map.<String, FeatureSpec>of(
                                "feature0", new VarLenFeature(DType.INT64),
                                "feature1",
                                        new RaggedFeature(
                                                DType.INT64,
                                                "feature1",
                                                List.of(),
                                                RowSplitsDType.INT32),
                                "feature2", new VarLenFeature(DType.STRING),
                                "feature3",
                                        new FixedLenSequenceFeature(
                                                List.of(), DType.FLOAT32, true, Optional.empty())));
        compareInBatches(lists, records.subList(0, 2048), 100);
    }

    @Test
    void wideProfileMatchesTensorFlow() {
        List<byte[]> records = WideProfileCorpus.records(3000, 2);
        compareInBatches(WideProfileCorpus.spec(), records, 1024);
        compareInBatches(WideProfileCorpus.spec(), records.subList(0, 500), 100);
    }

    @Test
    void wireEdgeCasesMatchTensorFlow() {
        WireEdgeCaseGenerator gen = new WireEdgeCaseGenerator(3);
        Random rnd = new Random(4);
        for (int s = 0; s < 30; s++) {
            FeatureSpecs spec = gen.randomSpec();
            try (TfParseOracle oracle = new TfParseOracle(spec)) {
                ExampleBatchParser parser = ExampleBatchParser.create(spec, ParseLimits.none());
                for (int size : EDGE_BATCH_SIZES) {
                    int repeats = size <= 8 ? 6 : size == 100 ? 3 : 1;
                    for (int r = 0; r < repeats; r++) {
                        double bad = BAD_RATES[rnd.nextInt(BAD_RATES.length)];
                        List<byte[]> batch = gen.batch(spec, size, bad);
                        List<String> names = List.of();
                        if (rnd.nextInt(4) == 0) {
                            names = new ArrayList<>();
                            for (int i = 0; i < size; i++) {
                                names.add("ex" + i);
                            }
                        }
                        TfParseOracle.Outcome tf = compare(spec, oracle, parser, batch, names);
                        if (bad == 0 && tf.error() != null) {
                            fail("the generator made a bad record without being asked: " + tf);
                        }
                    }
                }
            }
        }
        assertTrue(recordsCompared >= 10_000, "compared only " + recordsCompared + " records");
        for (String kind : ERROR_KINDS) {
            assertTrue(
                    errorKindsSeen.getOrDefault(kind, 0) >= 3,
                    "too few errors compared: " + kind + " in " + errorKindsSeen);
        }
    }

    /**
     * Byte-level mutations of generated records, mostly in batches of one so that every record's
     * own outcome is compared. Specs with a FixedLen float32 feature are left out: for an unpacked
     * float list longer than the fixed shape, TensorFlow's {@code ParseFloatList} writes past its
     * output slice and can crash the test JVM.
     */
    @Test
    void mutatedRecordsMatchTensorFlow() {
        WireEdgeCaseGenerator gen = new WireEdgeCaseGenerator(6);
        RecordMutator mutator = new RecordMutator(7);
        int specsDone = 0;
        while (specsDone < 12) {
            FeatureSpecs spec = gen.randomSpec();
            if (spec.features().values().stream()
                    .anyMatch(f -> f instanceof FixedLenFeature && f.dtype() == DType.FLOAT32)) {
                continue;
            }
            specsDone++;
            try (TfParseOracle oracle = new TfParseOracle(spec)) {
                ExampleBatchParser parser = ExampleBatchParser.create(spec, ParseLimits.none());
                for (int b = 0; b < 150; b++) {
                    int size = b % 10 == 0 ? 8 : 1;
                    List<byte[]> batch = new ArrayList<>();
                    for (byte[] r : gen.batch(spec, size, 0)) {
                        batch.add(mutator.mutate(r, 3));
                    }
                    compare(spec, oracle, parser, batch);
                }
            }
        }
    }

    /**
     * TensorFlow's "not a multiple of stride length" message counts the values of a whole minibatch
     * (about 50 kB of records), so large batches must split exactly as the kernel does.
     */
    @Test
    void notMultipleMessageFollowsTensorFlowMinibatches() {
        FeatureSpecs spec =
                FeatureSpecs.of(
                        Map.of(
                                "seq",
                                new FixedLenSequenceFeature(
                                        List.of(2L), DType.FLOAT32, true, Optional.empty())));
        Random rnd = new Random(5);
        try (TfParseOracle oracle = new TfParseOracle(spec)) {
            ExampleBatchParser parser = ExampleBatchParser.create(spec, ParseLimits.none());
            // 9..3000 records of up to 400 padding bytes: 8 to 12 minibatches; 300 records of up
            // to 30 kB: capped at 64 minibatches.
            for (int size : new int[] {9, 64, 700, 3000, 300}) {
                int maxPad = size == 300 ? 30_000 : 400;
                for (int bad : new int[] {0, size / 3, size - 1}) {
                    List<byte[]> batch = new ArrayList<>();
                    for (int i = 0; i < size; i++) {
                        float[] v = new float[i == bad ? 3 : 2 * rnd.nextInt(4)];
                        byte[] pad = new byte[rnd.nextInt(maxPad)];
                        batch.add(
                                FeatureWire.example(
                                        FeatureWire.entry("seq", FeatureWire.floatFeature(v)),
                                        FeatureWire.entry("pad", FeatureWire.bytesFeature(pad))));
                    }
                    compare(spec, oracle, parser, batch);
                }
            }
        }
    }

    @BeforeEach
    void resetCounts() {
        errorKindsSeen.clear();
        recordsCompared = 0;
        batchesCompared = 0;
        errorBatches = 0;
    }

    @AfterEach
    void report(TestInfo test) {
        System.out.printf(
                "%s: %d records in %d batches identical to TensorFlow (%d batches with errors: %s)%n",
                test.getDisplayName(),
                recordsCompared,
                batchesCompared,
                errorBatches,
                errorKindsSeen);
    }

    private void compareInBatches(FeatureSpecs spec, List<byte[]> records, int batchSize) {
        try (TfParseOracle oracle = new TfParseOracle(spec)) {
            ExampleBatchParser parser = ExampleBatchParser.create(spec, ParseLimits.none());
            for (int i = 0; i < records.size(); i += batchSize) {
                List<byte[]> batch = records.subList(i, Math.min(records.size(), i + batchSize));
                compare(spec, oracle, parser, batch);
            }
        }
    }

    private void compare(
            FeatureSpecs spec,
            TfParseOracle oracle,
            ExampleBatchParser parser,
            List<byte[]> batch) {
        compare(spec, oracle, parser, batch, List.of());
    }

    private TfParseOracle.Outcome compare(
            FeatureSpecs spec,
            TfParseOracle oracle,
            ExampleBatchParser parser,
            List<byte[]> batch,
            List<String> names) {
        TfParseOracle.Outcome expected = oracle.parse(batch, names);
        RecordBatch records = new RecordBatch();
        for (int i = 0; i < batch.size(); i++) {
            byte[] r = batch.get(i);
            records.addNamed(r, 0, r.length, names.isEmpty() ? null : names.get(i));
        }
        ParsedBatch actual = null;
        ExampleParseException error = null;
        try {
            actual = parser.parse(records);
        } catch (ExampleParseException e) {
            error = e;
        }
        recordsCompared += batch.size();
        batchesCompared++;
        String context = "spec " + spec + ", batch of " + batch.size();
        if (expected.error() != null) {
            errorBatches++;
            if (error == null) {
                fail(context + ": TensorFlow failed with <" + expected.error() + "> but we parsed");
            }
            for (String kind : ERROR_KINDS) {
                if (expected.error().contains(kind)) {
                    errorKindsSeen.merge(kind, 1, Integer::sum);
                }
            }
            String ours = untilNul(error.getMessage());
            if (!untilNul(expected.error()).equals(ours)) {
                int i = error.recordIndex();
                fail(
                        context
                                + ", our record "
                                + i
                                + (i >= 0 ? " = " + HexFormat.of().formatHex(batch.get(i)) : "")
                                + "\nexpected: "
                                + expected.error()
                                + "\nactual:   "
                                + error.getMessage());
            }
            return expected;
        }
        if (error != null) {
            int i = error.recordIndex();
            fail(
                    context
                            + ": we failed with <"
                            + error.getMessage()
                            + "> on "
                            + (i >= 0 ? HexFormat.of().formatHex(batch.get(i)) : "")
                            + " but TensorFlow parsed");
        }
        assertEquals(expected.features().keySet(), actual.features().keySet(), context);
        for (Map.Entry<String, Tensor> e : expected.features().entrySet()) {
            assertEquals(e.getValue(), actual.feature(e.getKey()), context + ", " + e.getKey());
        }
        return expected;
    }

    /**
     * TensorFlow Java reads status messages as C strings, so a message quoting record bytes ends at
     * the first NUL byte.
     */
    private static String untilNul(String m) {
        int z = m.indexOf('\0');
        return z < 0 ? m : m.substring(0, z);
    }
}
