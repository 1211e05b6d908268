package io.tfstream.e2e.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.RecordBatch;
import io.tfstream.parse.composite.RaggedComposition;
import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.parse.example.SingleExampleParser;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.Partition;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.tensor.Tensor;
import io.tfstream.testing.FeatureWire;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * RaggedFeature partitions in Examples against TensorFlow: the value and partition keys parsed by
 * TensorFlow's {@code ParseExampleV2} (vector and scalar input) as raw ragged features, composed by
 * {@link RaggedComposition} as Python does, compared bit for bit with {@link ExampleBatchParser}
 * and {@link SingleExampleParser}. Partition values are random small integers, so consistent,
 * inconsistent and failing compositions (reshape, negative row ids) all occur.
 */
class RaggedPartitionDifferentialTest {
    private static final String[] KINDS = {"splits", "lengths", "starts", "limits", "rowids"};
    private final Random rnd = new Random(51);
    private final Map<String, Integer> outcomes = new TreeMap<>();

    @Test
    void composedFromTensorFlowsRawOutputs() {
        for (int round = 0; round < 40; round++) {
            RowSplitsDType d = rnd.nextBoolean() ? RowSplitsDType.INT32 : RowSplitsDType.INT64;
            Map<String, FeatureSpec> m = new LinkedHashMap<>();
            for (int f = 0; f < 3; f++) {
                List<Partition> parts = new ArrayList<>();
                for (int p = rnd.nextInt(3) + 1; p > 0; p--) {
                    parts.add(
                            rnd.nextInt(5) == 0
                                    ? new Partition.UniformRowLength(1 + rnd.nextInt(2))
                                    : partition(KINDS[rnd.nextInt(KINDS.length)], rnd.nextInt(2)));
                }
                m.put("r" + f, new RaggedFeature(DType.INT64, "v", parts, d));
            }
            FeatureSpecs spec = FeatureSpecs.of(m);
            FeatureSpecs raw = rawSpec(spec);
            try (TfParseOracle batchOracle = new TfParseOracle(raw);
                    TfParseOracle singleOracle = TfParseOracle.scalar(raw)) {
                ExampleBatchParser batch = ExampleBatchParser.create(spec, ParseLimits.none());
                SingleExampleParser single = SingleExampleParser.create(spec, ParseLimits.none());
                for (int r = 0; r < 10; r++) {
                    List<byte[]> recs = new ArrayList<>();
                    for (int i = rnd.nextInt(5); i > 0; i--) {
                        recs.add(record(raw));
                    }
                    TfParseOracle.Outcome tf = batchOracle.parse(recs);
                    check(
                            "batch",
                            spec,
                            tf,
                            () ->
                                    batch.parse(RecordBatch.of(recs.toArray(new byte[0][])))
                                            .features(),
                            recs);
                    for (byte[] rec : recs) {
                        check(
                                "single",
                                spec,
                                singleOracle.parseSingle(rec),
                                () -> single.parse(rec, 0, rec.length).features(),
                                List.of(rec));
                    }
                }
            }
        }
        System.out.printf("RaggedFeature partitions: %s%n", outcomes);
        assertTrue(outcomes.getOrDefault("batch ok", 0) >= 150, outcomes.toString());
        assertTrue(outcomes.getOrDefault("single ok", 0) >= 150, outcomes.toString());
        assertTrue(outcomes.getOrDefault("batch error", 0) >= 10, outcomes.toString());
    }

    private static Partition partition(String kind, int n) {
        String key = kind + n;
        switch (kind) {
            case "splits":
                return new Partition.RowSplits(key);
            case "lengths":
                return new Partition.RowLengths(key);
            case "starts":
                return new Partition.RowStarts(key);
            case "limits":
                return new Partition.RowLimits(key);
            default:
                return new Partition.ValueRowIds(key);
        }
    }

    private static FeatureSpecs rawSpec(FeatureSpecs spec) {
        Map<String, FeatureSpec> m = new TreeMap<>();
        for (FeatureSpec s : spec.features().values()) {
            RaggedFeature r = (RaggedFeature) s;
            m.put(
                    r.valueKey(),
                    new RaggedFeature(r.dtype(), r.valueKey(), List.of(), r.rowSplitsDtype()));
            for (Partition p : r.partitions()) {
                if (p.key() != null) {
                    m.put(
                            p.key(),
                            new RaggedFeature(DType.INT64, p.key(), List.of(), r.rowSplitsDtype()));
                }
            }
        }
        return FeatureSpecs.of(m);
    }

    /** Small random lists for every raw key: mostly non-decreasing, sometimes anything. */
    private byte[] record(FeatureSpecs raw) {
        List<byte[]> entries = new ArrayList<>();
        for (String k : raw.features().keySet()) {
            int n = rnd.nextInt(6);
            long[] v = new long[n];
            long at = rnd.nextInt(2);
            for (int i = 0; i < n; i++) {
                at += rnd.nextInt(3);
                v[i] = rnd.nextInt(12) == 0 ? rnd.nextInt(7) - 2 : at;
            }
            if (rnd.nextInt(10) != 0) {
                entries.add(FeatureWire.entry(k, FeatureWire.int64Feature(v)));
            }
        }
        java.util.Collections.shuffle(entries, rnd);
        return FeatureWire.example(entries);
    }

    interface Parse {
        Map<String, Tensor> run() throws ExampleParseException;
    }

    private void check(
            String mode,
            FeatureSpecs spec,
            TfParseOracle.Outcome raw,
            Parse ours,
            List<byte[]> recs) {
        StringBuilder hex = new StringBuilder();
        recs.forEach(r -> hex.append(HexFormat.of().formatHex(r)).append(' '));
        String context = mode + " " + spec + " on " + hex;
        if (raw.error() != null) {
            fail(context + ": TensorFlow's kernel failed: " + raw.error());
        }
        Map<String, Tensor> expected = new TreeMap<>();
        String expectedError = null;
        Function<String, Tensor> rawOf = raw.features()::get;
        try {
            for (Map.Entry<String, FeatureSpec> e : spec.features().entrySet()) {
                RaggedFeature r = (RaggedFeature) e.getValue();
                expected.put(
                        e.getKey(),
                        RaggedComposition.compose(e.getKey(), r, rawOf.apply(r.valueKey()), rawOf));
            }
        } catch (ExampleParseException e) {
            expectedError = e.getMessage();
        }
        try {
            Map<String, Tensor> actual = ours.run();
            if (expectedError != null) {
                fail(context + ": composing TensorFlow's outputs failed with " + expectedError);
            }
            assertEquals(expected, actual, context);
            outcomes.merge(mode + " ok", 1, Integer::sum);
        } catch (ExampleParseException e) {
            assertEquals(expectedError, e.getMessage(), context);
            outcomes.merge(mode + " error", 1, Integer::sum);
        }
    }
}
