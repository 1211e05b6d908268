package io.tfstream.e2e.sequence;

import static io.tfstream.testing.sequence.SeqWire.concat;
import static io.tfstream.testing.sequence.SeqWire.context;
import static io.tfstream.testing.sequence.SeqWire.entry;
import static io.tfstream.testing.sequence.SeqWire.featureList;
import static io.tfstream.testing.sequence.SeqWire.featureLists;
import static io.tfstream.testing.sequence.SeqWire.floatFeature;
import static io.tfstream.testing.sequence.SeqWire.int64Feature;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.RecordBatch;
import io.tfstream.parse.composite.RaggedComposition;
import io.tfstream.parse.sequence.ParsedSequenceBatch;
import io.tfstream.parse.sequence.SequenceExampleBatchParser;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.Partition;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.tensor.Tensor;
import io.tfstream.testing.NestedText;
import io.tfstream.testing.sequence.NestedRaggedRecords;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * RaggedFeature partitions in SequenceExamples against TensorFlow: the value and partition keys are
 * parsed by TensorFlow's {@code ParseSequenceExampleV2} kernel as raw ragged features, composed by
 * {@link RaggedComposition} as Python does, and compared bit for bit with {@link
 * SequenceExampleBatchParser} (batch and single) on random nested shapes encoded with every
 * partition kind; golden case Q06 is checked on TensorFlow's raw outputs too.
 */
class SequenceRaggedPartitionDifferentialTest {
    private static final String[] KINDS = {"splits", "lengths", "starts", "limits", "rowids"};
    private final Random rnd = new Random(41);

    @Test
    void q06FromTensorFlowsRawOutputs() throws Exception {
        SequenceFeatureSpecs specs = NestedRaggedRecords.specs();
        List<byte[]> recs =
                List.of(NestedRaggedRecords.EX0, NestedRaggedRecords.EX1, NestedRaggedRecords.EX2);
        try (TfSequenceParseOracle tf = new TfSequenceParseOracle(rawSpecs(specs))) {
            TfSequenceParseOracle.Outcome raw = tf.parse(recs, null);
            Map<String, Tensor> ctx = compose(specs.context(), raw.context());
            Map<String, Tensor> fl = compose(specs.featureLists(), raw.featureLists());
            assertEquals(
                    NestedText.normalize(
                            "[[[[[1]],[[2,3],[4]]],[[],[[5,6,7]]]], [],"
                                    + " [[[[1,2,3],[4]],[[5],[6],[7,8]]]]]"),
                    NestedText.of(ctx.get("a")));
            assertEquals(
                    NestedText.normalize(
                            "[[[[1],[2,3,4]],[[2,4],[6]]], [], [[[9],[8,7,6],[5]],[[4,3,2,1]],[[0]]]]"),
                    NestedText.of(fl.get("b")));
            ParsedSequenceBatch ours =
                    SequenceExampleBatchParser.create(specs, ParseLimits.defaults())
                            .parse(RecordBatch.of(recs.toArray(new byte[0][])));
            assertEquals(ctx, ours.context());
            assertEquals(fl, ours.featureLists());
        }
    }

    @Test
    void randomNestedShapesMatchTensorFlowRawOutputsComposed() throws Exception {
        int batches = 0;
        int composedOk = 0;
        for (int round = 0; round < 30; round++) {
            String[] k = new String[4];
            for (int i = 0; i < k.length; i++) {
                k[i] = KINDS[rnd.nextInt(KINDS.length)];
            }
            RowSplitsDType dtype = rnd.nextBoolean() ? RowSplitsDType.INT32 : RowSplitsDType.INT64;
            SequenceFeatureSpecs specs = specs(k, dtype);
            SequenceExampleBatchParser ours =
                    SequenceExampleBatchParser.create(specs, ParseLimits.defaults());
            try (TfSequenceParseOracle tf = new TfSequenceParseOracle(rawSpecs(specs))) {
                for (int r = 0; r < 8; r++) {
                    List<byte[]> recs = new ArrayList<>();
                    for (int b = rnd.nextInt(6); b > 0; b--) {
                        recs.add(record(k));
                    }
                    batches++;
                    composedOk += compareBatch(specs, tf, ours, recs) ? 1 : 0;
                    for (byte[] rec : recs) {
                        compareSingle(specs, tf, ours, rec);
                    }
                }
            }
        }
        System.out.printf(
                "sequence partitions: %d batches compared, %d composed without error%n",
                batches, composedOk);
        assertTrue(composedOk >= batches * 3 / 4, composedOk + " of " + batches);
    }

    private static SequenceFeatureSpecs specs(String[] k, RowSplitsDType d) {
        Map<String, FeatureSpec> ctx = new LinkedHashMap<>();
        ctx.put("a", rf("av", d, partition(k[0], "ao_" + k[0]), partition(k[1], "ai_" + k[1])));
        ctx.put("a_inner", rf("av", d, partition(k[1], "ai_" + k[1])));
        Map<String, FeatureSpec> fl = new LinkedHashMap<>();
        fl.put("b", rf("bv", d, partition(k[2], "bo_" + k[2]), partition(k[3], "bi_" + k[3])));
        fl.put("c", rf("bv", d, new Partition.UniformRowLength(1)));
        fl.put("e", rf("bv", d, partition(k[3], "bi_" + k[3])));
        return new SequenceFeatureSpecs(FeatureSpecs.of(ctx), FeatureSpecs.of(fl));
    }

    private static RaggedFeature rf(String key, RowSplitsDType d, Partition... p) {
        return new RaggedFeature(DType.FLOAT32, key, List.of(p), d);
    }

    private static Partition partition(String kind, String key) {
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

    /** The op's view: every value and partition key as a partition-free RaggedFeature. */
    static SequenceFeatureSpecs rawSpecs(SequenceFeatureSpecs specs) {
        return new SequenceFeatureSpecs(raw(specs.context()), raw(specs.featureLists()));
    }

    private static FeatureSpecs raw(FeatureSpecs specs) {
        Map<String, FeatureSpec> m = new TreeMap<>();
        for (FeatureSpec s : specs.features().values()) {
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

    static Map<String, Tensor> compose(FeatureSpecs specs, Map<String, Tensor> raw)
            throws ExampleParseException {
        Map<String, Tensor> out = new TreeMap<>();
        for (Map.Entry<String, FeatureSpec> e : specs.features().entrySet()) {
            RaggedFeature r = (RaggedFeature) e.getValue();
            out.put(
                    e.getKey(),
                    RaggedComposition.compose(e.getKey(), r, raw.get(r.valueKey()), raw::get));
        }
        return out;
    }

    /** A nested shape (rows of rows of values) with its level lengths encoded as {@code kind}. */
    private List<List<Integer>> shape() {
        List<Integer> outer = new ArrayList<>();
        List<Integer> inner = new ArrayList<>();
        int values = 0;
        for (int o = rnd.nextInt(4); o > 0; o--) {
            int rows = rnd.nextInt(3) + (o == 1 ? 1 : 0);
            outer.add(rows);
            for (int i = 0; i < rows; i++) {
                int v = rnd.nextInt(3) + (o == 1 && i == rows - 1 ? 1 : 0);
                inner.add(v);
                values += v;
            }
        }
        return List.of(outer, inner, List.of(values));
    }

    private static long[] encode(String kind, List<Integer> lengths) {
        int n = lengths.size();
        long[] splits = new long[n + 1];
        for (int r = 0; r < n; r++) {
            splits[r + 1] = splits[r] + lengths.get(r);
        }
        switch (kind) {
            case "splits":
                return splits;
            case "lengths":
                return lengths.stream().mapToLong(Integer::longValue).toArray();
            case "starts":
                return java.util.Arrays.copyOf(splits, n);
            case "limits":
                return java.util.Arrays.copyOfRange(splits, 1, n + 1);
            default:
                long[] ids = new long[(int) splits[n]];
                for (int r = 0; r < n; r++) {
                    for (long i = splits[r]; i < splits[r + 1]; i++) {
                        ids[(int) i] = r;
                    }
                }
                return ids;
        }
    }

    private float[] values(int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = rnd.nextInt(100) / 4f;
        }
        return v;
    }

    private byte[] record(String[] k) {
        List<byte[]> parts = new ArrayList<>();
        if (rnd.nextInt(5) != 0) {
            List<List<Integer>> a = shape();
            parts.add(
                    context(
                            entry("av", floatFeature(values(a.get(2).get(0)))),
                            entry("ao_" + k[0], int64Feature(encode(k[0], a.get(0)))),
                            entry("ai_" + k[1], int64Feature(encode(k[1], a.get(1))))));
        }
        if (rnd.nextInt(5) != 0) {
            int steps = rnd.nextInt(4);
            byte[][] v = new byte[steps][];
            byte[][] o = new byte[steps][];
            byte[][] in = new byte[steps][];
            for (int t = 0; t < steps; t++) {
                List<List<Integer>> b = shape();
                v[t] = floatFeature(values(b.get(2).get(0)));
                o[t] = int64Feature(encode(k[2], b.get(0)));
                in[t] = int64Feature(encode(k[3], b.get(1)));
            }
            parts.add(
                    featureLists(
                            entry("bv", featureList(v)),
                            entry("bo_" + k[2], featureList(o)),
                            entry("bi_" + k[3], featureList(in))));
        }
        return concat(parts.toArray(new byte[0][]));
    }

    /** Returns whether TensorFlow's raw outputs composed without error. */
    private static boolean compareBatch(
            SequenceFeatureSpecs specs,
            TfSequenceParseOracle tf,
            SequenceExampleBatchParser ours,
            List<byte[]> recs) {
        TfSequenceParseOracle.Outcome raw = tf.parse(recs, null);
        return compare(
                specs, raw, () -> ours.parse(RecordBatch.of(recs.toArray(new byte[0][]))), recs);
    }

    private static void compareSingle(
            SequenceFeatureSpecs specs,
            TfSequenceParseOracle tf,
            SequenceExampleBatchParser ours,
            byte[] rec) {
        TfSequenceParseOracle.Outcome raw = tf.parseSingle(rec, null);
        compare(specs, raw, () -> ours.parseSingle(rec, 0, rec.length), List.of(rec));
    }

    interface Parse {
        ParsedSequenceBatch run() throws ExampleParseException;
    }

    private static boolean compare(
            SequenceFeatureSpecs specs,
            TfSequenceParseOracle.Outcome raw,
            Parse ours,
            List<byte[]> recs) {
        StringBuilder hex = new StringBuilder();
        recs.forEach(r -> hex.append(HexFormat.of().formatHex(r)).append(' '));
        String context = specs + " on " + hex;
        if (raw.error() != null) {
            fail(context + ": TensorFlow's kernel failed: " + raw.error());
        }
        Map<String, Tensor> ctx;
        Map<String, Tensor> fl;
        String expectedError = null;
        try {
            ctx = compose(specs.context(), raw.context());
            fl = compose(specs.featureLists(), raw.featureLists());
        } catch (ExampleParseException e) {
            ctx = null;
            fl = null;
            expectedError = e.getMessage();
        }
        try {
            ParsedSequenceBatch b = ours.run();
            if (expectedError != null) {
                fail(context + ": composing TensorFlow's outputs failed with " + expectedError);
            }
            assertEquals(ctx, b.context(), context);
            assertEquals(fl, b.featureLists(), context);
            return true;
        } catch (ExampleParseException e) {
            assertEquals(expectedError, e.getMessage(), context);
            return false;
        }
    }
}
