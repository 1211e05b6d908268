package io.tfstream.validation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.Example;

/**
 * Splitting a window by feature path loses and duplicates nothing: the findings each split owns
 * after {@link WindowSplits#restrict}, window and drift, together equal the findings of the whole
 * window, for random windows and split counts.
 */
class WindowSplitsTest {
    private final ValidationSchema schema =
            Fixtures.compiled(
                    RandomExamples.SCHEMA, ValidationOptions.defaults().withMinDriftExamples(1));
    private final WindowAccumulatorSerializer serializer = new WindowAccumulatorSerializer(schema);

    private WindowAccumulator copy(WindowAccumulator a) throws IOException {
        return serializer.deserialize(serializer.getVersion(), serializer.serialize(a));
    }

    private static List<String> texts(List<WindowFinding> findings) {
        List<String> out = new ArrayList<>();
        for (WindowFinding f : findings) {
            out.add(f.toString());
        }
        out.sort(null);
        return out;
    }

    /** A split written from the whole window is the restricted window written, byte for byte. */
    @Test
    void aSplitIsWrittenWithoutRestrictingACopy() throws IOException {
        ValidationSchema stats = Fixtures.compiledWithStatistics(RandomExamples.SCHEMA);
        for (ValidationSchema sc : new ValidationSchema[] {schema, stats}) {
            WindowAccumulatorSerializer ser = new WindowAccumulatorSerializer(sc);
            for (long seed = 0; seed < 10; seed++) {
                WindowAccumulator a = Windows.window(sc, RandomExamples.examples(seed, 50));
                byte[] before = ser.serialize(a);
                for (int splits = 1; splits <= 4; splits++) {
                    for (int s = 0; s < splits; s++) {
                        WindowAccumulator restricted =
                                WindowSplits.restrict(
                                        ser.deserialize(ser.getVersion(), before), s, splits);
                        assertArrayEquals(ser.serialize(restricted), ser.serialize(a, s, splits));
                    }
                }
                assertArrayEquals(before, ser.serialize(a), "the window is left as it was");
            }
        }
    }

    @Test
    void theSplitsTogetherReportExactlyTheWholeWindowsFindings() throws IOException {
        int compared = 0;
        boolean drift = false;
        for (long seed = 0; seed < 30; seed++) {
            Random r = new Random(seed);
            List<Example> first = RandomExamples.examples(seed, 1 + r.nextInt(60));
            List<Example> second = RandomExamples.examples(seed + 1000, 1 + r.nextInt(60));
            WindowAccumulator previous = Windows.window(schema, first);
            WindowAccumulator current = Windows.window(schema, second);
            List<WindowFinding> whole = new ArrayList<>(WindowEvaluator.evaluate(current));
            whole.addAll(DriftEvaluator.compare(current, previous).findings());
            int splits = 1 + r.nextInt(4);
            List<WindowFinding> union = new ArrayList<>();
            for (int s = 0; s < splits; s++) {
                WindowAccumulator c = WindowSplits.restrict(copy(current), s, splits);
                WindowAccumulator p = WindowSplits.restrict(copy(previous), s, splits);
                assertEquals(current.numExamples(), c.numExamples());
                for (WindowFinding f : WindowEvaluator.evaluate(c)) {
                    if (WindowSplits.owns(f.finding(), s, splits)) {
                        union.add(f);
                    }
                }
                for (WindowFinding f : DriftEvaluator.compare(c, p).findings()) {
                    if (WindowSplits.owns(f.finding(), s, splits)) {
                        union.add(f);
                    }
                }
            }
            assertEquals(texts(whole), texts(union), "seed " + seed + ", " + splits + " splits");
            compared += whole.size();
            drift |= whole.stream().anyMatch(f -> f.scope() == AlertScope.DRIFT);
        }
        assertTrue(compared > 100, "findings compared: " + compared);
        assertTrue(drift, "some drift findings compared");
    }

    @Test
    void aSplitOutsideTheRangeIsRefused() {
        WindowAccumulator a = new WindowAccumulator(schema);
        assertThrows(IllegalArgumentException.class, () -> WindowSplits.restrict(a, 2, 2));
        assertThrows(IllegalArgumentException.class, () -> WindowSplits.restrict(a, -1, 2));
    }
}
