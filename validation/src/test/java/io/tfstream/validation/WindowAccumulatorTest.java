package io.tfstream.validation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.Example;

/**
 * Merging partial accumulators of consecutive parts of a stream equals feeding the whole stream to
 * one accumulator (compared through their serialized bytes), and the serializer round-trips and
 * rejects versions and schemas it does not know.
 */
class WindowAccumulatorTest {
    private final ValidationSchema schema = Fixtures.compiled(RandomExamples.SCHEMA);
    private final WindowAccumulatorSerializer serializer = new WindowAccumulatorSerializer(schema);

    @Test
    void mergeOfPartsEqualsTheWhole() {
        for (long seed = 0; seed < 40; seed++) {
            Random r = new Random(seed);
            List<Example> all = RandomExamples.examples(seed, 1 + r.nextInt(60));
            WindowAccumulator whole = Windows.window(schema, all);
            int cuts = 1 + r.nextInt(4);
            WindowAccumulator merged = new WindowAccumulator(schema);
            int from = 0;
            for (int c = 0; c < cuts; c++) {
                int to = c == cuts - 1 ? all.size() : from + r.nextInt(all.size() - from + 1);
                merged.merge(Windows.window(schema, all.subList(from, to), from));
                from = to;
            }
            assertArrayEquals(
                    serializer.serialize(whole), serializer.serialize(merged), "seed " + seed);
            assertEquals(
                    WindowEvaluator.evaluate(whole).toString(),
                    WindowEvaluator.evaluate(merged).toString(),
                    "seed " + seed);
        }
    }

    @Test
    void serializerRoundTrips() throws IOException {
        for (long seed = 100; seed < 110; seed++) {
            WindowAccumulator a = Windows.window(schema, RandomExamples.examples(seed, 50));
            byte[] bytes = serializer.serialize(a);
            WindowAccumulator back = serializer.deserialize(serializer.getVersion(), bytes);
            assertArrayEquals(bytes, serializer.serialize(back));
            assertEquals(
                    WindowEvaluator.evaluate(a).toString(),
                    WindowEvaluator.evaluate(back).toString());
        }
        WindowAccumulator empty = new WindowAccumulator(schema);
        byte[] e = serializer.serialize(empty);
        assertArrayEquals(
                e, serializer.serialize(serializer.deserialize(serializer.getVersion(), e)));
    }

    /**
     * State written by the version-1 layout (stored bytes: 40 {@link RandomExamples}, seed 7) still
     * restores: every count is as the window's, and the numeric histograms' finite range, which
     * version 1 did not keep, is taken from the occupied buckets, so that it encloses the exact
     * one.
     */
    @Test
    void storedVersionOneStateRestores() throws IOException {
        byte[] v1;
        try (var in = getClass().getResourceAsStream("/snapshots/window-accumulator-v1.bin")) {
            v1 = in.readAllBytes();
        }
        WindowAccumulator expected = Windows.window(schema, RandomExamples.examples(7, 40));
        WindowAccumulator restored = serializer.deserialize(1, v1);
        assertEquals(expected.numExamples(), restored.numExamples());
        assertEquals(
                WindowEvaluator.evaluate(expected).toString(),
                WindowEvaluator.evaluate(restored).toString());
        int checked = 0;
        for (int i = 0; i < expected.stats.length; i++) {
            ValueHistogram want = expected.stats[i].histogram;
            ValueHistogram got = restored.stats[i].histogram;
            if (want == null) {
                continue;
            }
            assertArrayEquals(want.counts, got.counts);
            assertTrue(got.finiteMin <= want.finiteMin && got.finiteMax >= want.finiteMax);
            checked++;
        }
        assertEquals(1, checked);
        // Written again, it is version-2 state equal to the window's but for the finite range.
        restored.stats[1].histogram.finiteMin = expected.stats[1].histogram.finiteMin;
        restored.stats[1].histogram.finiteMax = expected.stats[1].histogram.finiteMax;
        assertArrayEquals(serializer.serialize(expected), serializer.serialize(restored));
    }

    /** Version-2 state (pinned by its stored bytes, same window as above) reads as it was. */
    @Test
    void storedVersionTwoStateIsRead() throws IOException {
        byte[] v2;
        try (var in = getClass().getResourceAsStream("/snapshots/window-accumulator-v2.bin")) {
            v2 = in.readAllBytes();
        }
        WindowAccumulator a = Windows.window(schema, RandomExamples.examples(7, 40));
        assertArrayEquals(
                serializer.serialize(a), serializer.serialize(serializer.deserialize(2, v2)));
    }

    /**
     * The version-4 layout, with TFDV's statistics kept, pinned by its stored bytes; a job without
     * statistics reads it too, skipping them.
     */
    @Test
    void storedVersionFourStateIsTheLayoutWrittenToday() throws IOException {
        ValidationSchema withStats = Fixtures.compiledWithStatistics(RandomExamples.SCHEMA);
        WindowAccumulatorSerializer statsSerializer = new WindowAccumulatorSerializer(withStats);
        WindowAccumulator a = Windows.window(withStats, RandomExamples.examples(7, 40));
        byte[] written = statsSerializer.serialize(a);
        String write = System.getProperty("tfstream.snapshots.write");
        if (write != null) {
            java.nio.file.Files.write(
                    java.nio.file.Path.of(write, "window-accumulator-v4.bin"), written);
        }
        byte[] v4 = stored("v4");
        assertArrayEquals(v4, written);
        assertArrayEquals(v4, statsSerializer.serialize(statsSerializer.deserialize(4, v4)));
        WindowAccumulator plain = Windows.window(schema, RandomExamples.examples(7, 40));
        assertArrayEquals(
                serializer.serialize(plain), serializer.serialize(serializer.deserialize(4, v4)));
    }

    /**
     * State of the version-3 layout (the same window, stored bytes) is still read: the statistics
     * it gives are the window's (its schema has no image feature, whose byte lengths version 3 did
     * not keep).
     */
    @Test
    void storedVersionThreeStateIsStillRead() throws IOException {
        ValidationSchema withStats = Fixtures.compiledWithStatistics(RandomExamples.SCHEMA);
        WindowAccumulatorSerializer statsSerializer = new WindowAccumulatorSerializer(withStats);
        WindowAccumulator a = Windows.window(withStats, RandomExamples.examples(7, 40));
        byte[] v3 = stored("v3");
        assertEquals(
                WindowStatistics.part(a, 0, 1, "w"),
                WindowStatistics.part(statsSerializer.deserialize(3, v3), 0, 1, "w"));
        WindowAccumulator plain = Windows.window(schema, RandomExamples.examples(7, 40));
        assertArrayEquals(
                serializer.serialize(plain), serializer.serialize(serializer.deserialize(3, v3)));
    }

    private byte[] stored(String version) throws IOException {
        try (var in =
                getClass()
                        .getResourceAsStream("/snapshots/window-accumulator-" + version + ".bin")) {
            return in.readAllBytes();
        }
    }

    @Test
    void unknownVersionIsRejected() {
        byte[] bytes = serializer.serialize(new WindowAccumulator(schema));
        IOException e = assertThrows(IOException.class, () -> serializer.deserialize(5, bytes));
        assertEquals(
                "unknown WindowAccumulator serializer version 5; this build reads versions 1 to 4",
                e.getMessage());
    }

    @Test
    void stateOfAnotherSchemaIsRejected() {
        ValidationSchema other = Fixtures.compiled("feature { name: \"x\" type: INT }");
        byte[] bytes =
                new WindowAccumulatorSerializer(other).serialize(new WindowAccumulator(other));
        IOException e = assertThrows(IOException.class, () -> serializer.deserialize(1, bytes));
        assertTrue(e.getMessage().startsWith("window state was written for schema"));
        assertThrows(
                IllegalArgumentException.class,
                () -> new WindowAccumulator(schema).merge(new WindowAccumulator(other)));
    }

    @Test
    void damagedBytesAreRejected() {
        byte[] bytes = serializer.serialize(Windows.window(schema, RandomExamples.examples(7, 20)));
        byte[] cut = java.util.Arrays.copyOf(bytes, bytes.length - 3);
        assertThrows(IOException.class, () -> serializer.deserialize(1, cut));
    }
}
