package io.tfstream.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.hash.Hashing;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The Misra-Gries top values and the KMV distinct count: their stated bounds against exact counts
 * on skewed random data, merged from serialized parts; FarmHash against Guava's reference port.
 */
class TopValuesAndDistinctTest {
    /** FarmHash {@code Fingerprint64} equals Guava's, on every length class (0-16 … 65+). */
    @Test
    void farmHashIsTheReference() {
        Random random = new Random(11);
        for (int len = 0; len <= 300; len++) {
            for (int rep = 0; rep < 20; rep++) {
                byte[] b = new byte[len + 7];
                random.nextBytes(b);
                int off = random.nextInt(8);
                int n = Math.min(len, b.length - off);
                long want = Hashing.farmHashFingerprint64().hashBytes(b, off, n).asLong();
                assertEquals(want, FarmHash.fingerprint64(b, off, n), "length " + n);
            }
        }
    }

    private static byte[] key(int i) {
        return ("v" + i).getBytes(StandardCharsets.UTF_8);
    }

    /** A Zipf-like stream: value i with probability ∝ 1/(i+1). */
    private static int[] zipf(Random random, int n, int distinct) {
        double[] cum = new double[distinct];
        double s = 0;
        for (int i = 0; i < distinct; i++) {
            s += 1.0 / (i + 1);
            cum[i] = s;
        }
        int[] out = new int[n];
        for (int k = 0; k < n; k++) {
            double u = random.nextDouble() * s;
            int lo = 0;
            int hi = distinct - 1;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (cum[mid] < u) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            out[k] = lo;
        }
        return out;
    }

    @Test
    void exactCountsWhileWithinTheBuckets() {
        TopValues t = new TopValues(8);
        for (String v : new String[] {"a", "a", "b", "c", "a", "b"}) {
            byte[] b = v.getBytes(StandardCharsets.UTF_8);
            t.add(b, 0, b.length, 1);
        }
        Map<String, Double> got = counts(t);
        assertEquals(Map.of("a", 3.0, "b", 2.0, "c", 1.0), got);
        assertTrue(!t.reduced());
    }

    /**
     * Every reported count is an upper bound within delta of the truth, delta is within its bound,
     * and every value more frequent than N/(k+1) is reported: one pass and 16 merged parts.
     */
    @Test
    void misraGriesBoundsHoldOneAndMergedPasses() throws IOException {
        Random random = new Random(5);
        int n = 200_000;
        int k = 64;
        int[] stream = zipf(random, n, 20_000);
        Map<String, Long> truth = new HashMap<>();
        TopValues onePass = new TopValues(k);
        TopValues merged = new TopValues(k);
        TopValues part = new TopValues(k);
        for (int i = 0; i < n; i++) {
            byte[] b = key(stream[i]);
            truth.merge("v" + stream[i], 1L, Long::sum);
            onePass.add(b, 0, b.length, 1);
            part.add(b, 0, b.length, 1);
            if ((i + 1) % (n / 16) == 0) {
                merged.merge(roundTrip(part));
                part = new TopValues(k);
            }
        }
        for (TopValues t : new TopValues[] {onePass, merged}) {
            t.compress();
            assertTrue(t.size() <= k, "at most k counters: " + t.size());
            Map<String, Double> reported = counts(t);
            double delta = deltaOf(t, reported);
            assertTrue(delta <= (double) n / (k + 1) + 1e-9, "delta " + delta);
            for (Map.Entry<String, Double> e : reported.entrySet()) {
                long real = truth.getOrDefault(e.getKey(), 0L);
                assertTrue(e.getValue() >= real, e.getKey() + " under-reported");
                assertTrue(e.getValue() - delta <= real, e.getKey() + " over by more than delta");
            }
            for (Map.Entry<String, Long> e : truth.entrySet()) {
                if (e.getValue() > (double) n / (k + 1)) {
                    assertTrue(reported.containsKey(e.getKey()), "heavy " + e.getKey() + " lost");
                }
            }
        }
    }

    /** The smallest reported count minus the smallest lower bound: delta, read from outside. */
    private static double deltaOf(TopValues t, Map<String, Double> reported) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        t.write(new DataOutputStream(bytes));
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
        in.readInt();
        return in.readDouble();
    }

    private static Map<String, Double> counts(TopValues t) {
        Map<String, Double> m = new HashMap<>();
        t.forEach((b, off, len, c) -> m.put(new String(b, off, len, StandardCharsets.UTF_8), c));
        return m;
    }

    @Test
    void distinctCountIsExactBelowKAndWithinItsErrorAbove() throws IOException {
        DistinctCount small = new DistinctCount(16384);
        for (int i = 0; i < 5000; i++) {
            byte[] b = key(i % 3000);
            small.add(b, 0, b.length);
        }
        assertEquals(3000, small.estimate());

        int distinct = 300_000;
        DistinctCount onePass = new DistinctCount(16384);
        DistinctCount merged = new DistinctCount(16384);
        DistinctCount part = new DistinctCount(16384);
        for (int i = 0; i < 2 * distinct; i++) {
            byte[] b = key(i % distinct);
            onePass.add(b, 0, b.length);
            part.add(b, 0, b.length);
            if ((i + 1) % 50_000 == 0) {
                merged.merge(roundTrip(part));
                part = new DistinctCount(16384);
            }
        }
        long estimate = onePass.estimate();
        // relative standard error 1/sqrt(k-2) = 0.8%: 4% is five deviations
        assertEquals(distinct, estimate, distinct * 0.04);
        assertEquals(estimate, merged.estimate(), "merging keeps the same k smallest hashes");
    }

    private static TopValues roundTrip(TopValues t) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        t.write(new DataOutputStream(bytes));
        return TopValues.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
    }

    private static DistinctCount roundTrip(DistinctCount d) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        d.write(new DataOutputStream(bytes));
        return DistinctCount.read(
                new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
    }
}
