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
        assertArrayEquals(e, serializer.serialize(serializer.deserialize(1, e)));
    }

    @Test
    void unknownVersionIsRejected() {
        byte[] bytes = serializer.serialize(new WindowAccumulator(schema));
        IOException e = assertThrows(IOException.class, () -> serializer.deserialize(2, bytes));
        assertEquals(
                "unknown WindowAccumulator serializer version 2; this build reads version 1",
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
