package io.tfstream.e2e.parse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.RecordBatch;
import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.parse.example.SingleExampleParser;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.SparseFeature;
import io.tfstream.spec.VarLenFeature;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.SparseTensor;
import io.tfstream.tensor.Tensor;
import io.tfstream.testing.FeatureWire;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * SparseFeature against TensorFlow: the raw index and value features parsed by TensorFlow's {@code
 * ParseExampleV2} (vector and scalar input), merged by TensorFlow's {@code ConcatV2} and {@code
 * SparseReorder} kernels as {@code sparse_merge_impl} does, compared with {@link
 * ExampleBatchParser} and {@link SingleExampleParser}. Coordinates must be identical in order;
 * values that share a coordinate are compared as a multiset, since SparseReorder's sort is not
 * stable. With {@code already_sorted} the unsorted concatenation is compared exactly. Errors (index
 * keys with different totals, values not matching the indices) are compared verbatim.
 */
class SparseFeatureDifferentialTest {
    private static final String[] INDEX_NAMES = {"idx_b", "idx_a", "i2", "k"};
    private final Random rnd = new Random(21);
    private final Map<String, Integer> outcomes = new TreeMap<>();

    @Test
    void mergedAndReorderedAsTensorFlow() {
        int records = 0;
        for (int s = 0; s < 40; s++) {
            SparseFeature sf = randomFeature();
            Map<String, FeatureSpec> m = new LinkedHashMap<>();
            m.put("sp", sf);
            if (rnd.nextInt(4) == 0) {
                m.put(sf.indexKeys().get(0), new VarLenFeature(DType.INT64));
            }
            FeatureSpecs spec = FeatureSpecs.of(m);
            FeatureSpecs rawSpec = rawSpec(sf);
            try (TfParseOracle batchOracle = new TfParseOracle(rawSpec);
                    TfParseOracle singleOracle = TfParseOracle.scalar(rawSpec)) {
                ExampleBatchParser batch = ExampleBatchParser.create(spec, ParseLimits.none());
                SingleExampleParser single = SingleExampleParser.create(spec, ParseLimits.none());
                for (int size : new int[] {1, 2, 5, 20, 64}) {
                    for (int r = 0; r < 3; r++) {
                        List<byte[]> recs = new ArrayList<>();
                        for (int i = 0; i < size; i++) {
                            recs.add(record(sf));
                        }
                        records += size;
                        compareBatch(sf, batchOracle, batch, recs);
                        compareSingle(sf, singleOracle, single, recs.get(0));
                    }
                }
            }
        }
        System.out.printf("SparseFeature: %d records, outcomes %s%n", records, outcomes);
        assertTrue(outcomes.getOrDefault("sorted", 0) >= 100, outcomes.toString());
        assertTrue(outcomes.getOrDefault("already_sorted", 0) >= 30, outcomes.toString());
        assertTrue(outcomes.getOrDefault("error:ConcatOp", 0) >= 10, outcomes.toString());
        assertTrue(outcomes.getOrDefault("error:Number of elements", 0) >= 10, outcomes.toString());
    }

    private SparseFeature randomFeature() {
        int k = 1 + rnd.nextInt(3);
        List<String> idx = new ArrayList<>();
        List<Long> size = new ArrayList<>();
        long[] sizes = {-1, 0, 3, 10};
        for (int i = 0; i < k; i++) {
            idx.add(INDEX_NAMES[(i + rnd.nextInt(2)) % INDEX_NAMES.length]);
            size.add(sizes[rnd.nextInt(sizes.length)]);
        }
        if (idx.size() > 1 && idx.get(0).equals(idx.get(1))) {
            idx.set(1, "k");
        }
        if (idx.size() > 2 && (idx.get(2).equals(idx.get(0)) || idx.get(2).equals(idx.get(1)))) {
            idx.set(2, "z");
        }
        DType d = DType.values()[rnd.nextInt(3)];
        return new SparseFeature(idx, "val", d, size, rnd.nextInt(3) == 0);
    }

    private static FeatureSpecs rawSpec(SparseFeature sf) {
        Map<String, FeatureSpec> m = new TreeMap<>();
        for (String k : sf.indexKeys()) {
            m.put(k, new VarLenFeature(DType.INT64));
        }
        m.put(sf.valueKey(), new VarLenFeature(sf.dtype()));
        return FeatureSpecs.of(m);
    }

    /** Mostly consistent lengths; now and then a per-example or a total mismatch. */
    private byte[] record(SparseFeature sf) {
        int n = rnd.nextInt(6);
        List<byte[]> entries = new ArrayList<>();
        for (String k : sf.indexKeys()) {
            int len = rnd.nextInt(25) == 0 ? rnd.nextInt(4) : n;
            long[] v = new long[len];
            for (int i = 0; i < len; i++) {
                v[i] = rnd.nextInt(7) - 1;
            }
            addEntry(entries, k, FeatureWire.int64Feature(v), len);
        }
        int len = rnd.nextInt(25) == 0 ? rnd.nextInt(4) : n;
        byte[] values;
        switch (sf.dtype()) {
            case INT64:
                long[] l = new long[len];
                for (int i = 0; i < len; i++) {
                    l[i] = rnd.nextLong();
                }
                values = FeatureWire.int64Feature(l);
                break;
            case FLOAT32:
                float[] f = new float[len];
                for (int i = 0; i < len; i++) {
                    f[i] = rnd.nextInt(5) - 2.5f;
                }
                values = FeatureWire.floatFeature(f);
                break;
            default:
                byte[][] b = new byte[len][];
                for (int i = 0; i < len; i++) {
                    b[i] = new byte[] {(byte) ('a' + rnd.nextInt(4))};
                }
                values = FeatureWire.bytesFeature(b);
        }
        addEntry(entries, sf.valueKey(), values, len);
        java.util.Collections.shuffle(entries, rnd);
        return FeatureWire.example(entries);
    }

    private void addEntry(List<byte[]> entries, String key, byte[] feature, int len) {
        if (len == 0 && rnd.nextInt(3) == 0) {
            if (rnd.nextBoolean()) {
                entries.add(FeatureWire.entry(key, new byte[0]));
            }
            return;
        }
        entries.add(FeatureWire.entry(key, feature));
    }

    private void compareBatch(
            SparseFeature sf, TfParseOracle oracle, ExampleBatchParser parser, List<byte[]> recs) {
        TfParseOracle.Outcome raw = oracle.parse(recs);
        Tensor ours;
        String ourError = null;
        try {
            ours = parser.parse(RecordBatch.of(recs.toArray(new byte[0][]))).feature("sp");
        } catch (ExampleParseException e) {
            ours = null;
            ourError = e.getMessage();
        }
        check(sf, raw, ours, ourError, recs);
    }

    private void compareSingle(
            SparseFeature sf, TfParseOracle oracle, SingleExampleParser parser, byte[] rec) {
        TfParseOracle.Outcome raw = oracle.parseSingle(rec);
        Tensor ours;
        String ourError = null;
        try {
            ours = parser.parse(rec, 0, rec.length).feature("sp");
        } catch (ExampleParseException e) {
            ours = null;
            ourError = e.getMessage();
        }
        check(sf, raw, ours, ourError, List.of(rec));
    }

    private void check(
            SparseFeature sf,
            TfParseOracle.Outcome raw,
            Tensor ours,
            String ourError,
            List<byte[]> recs) {
        String context = sf + " on " + hex(recs);
        if (raw.error() != null) {
            fail(context + ": the raw kernel failed: " + raw.error());
        }
        TfSparseMerge.Merged tf = TfSparseMerge.merge(sf, raw.features());
        if (tf.error() != null) {
            String kind = tf.error().startsWith("ConcatOp") ? "ConcatOp" : "Number of elements";
            outcomes.merge("error:" + kind, 1, Integer::sum);
            assertEquals(tf.error(), ourError, context);
            return;
        }
        if (ourError != null) {
            fail(context + ": we failed with <" + ourError + "> but TensorFlow merged");
        }
        SparseTensor actual = (SparseTensor) ours;
        if (sf.alreadySorted()) {
            outcomes.merge("already_sorted", 1, Integer::sum);
            assertEquals(tf.unsorted(), actual, context);
            return;
        }
        outcomes.merge("sorted", 1, Integer::sum);
        SparseTensor expected = tf.sorted();
        assertArrayEquals(expected.denseShape(), actual.denseShape(), context);
        int n = expected.numValues();
        int rank = expected.rank();
        assertEquals(n, actual.numValues(), context);
        assertArrayEquals(
                java.util.Arrays.copyOf(expected.indicesArray(), n * rank),
                java.util.Arrays.copyOf(actual.indicesArray(), n * rank),
                context);
        assertEquals(groups(expected), groups(actual), context);
    }

    /** Values per coordinate, as sorted lists of their printed form. */
    private static Map<String, List<String>> groups(SparseTensor t) {
        Map<String, List<String>> g = new TreeMap<>();
        Column v = t.values();
        for (int i = 0; i < t.numValues(); i++) {
            StringBuilder key = new StringBuilder();
            for (int d = 0; d < t.rank(); d++) {
                key.append(t.index(i, d)).append(',');
            }
            String value =
                    switch (v.dtype()) {
                        case INT64 -> Long.toString(v.int64(i));
                        case FLOAT32 -> Integer.toHexString(Float.floatToRawIntBits(v.float32(i)));
                        default -> HexFormat.of().formatHex(v.bytes(i));
                    };
            g.computeIfAbsent(key.toString(), x -> new ArrayList<>()).add(value);
        }
        for (List<String> l : g.values()) {
            l.sort(null);
        }
        return g;
    }

    private static String hex(List<byte[]> recs) {
        StringBuilder sb = new StringBuilder();
        for (byte[] r : recs) {
            sb.append(HexFormat.of().formatHex(r)).append(' ');
        }
        return sb.toString();
    }
}
