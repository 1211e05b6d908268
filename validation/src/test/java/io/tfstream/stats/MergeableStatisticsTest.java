package io.tfstream.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.tfstream.testing.StatisticsAssertions;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.BytesList;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.example.FloatList;
import org.tensorflow.example.Int64List;
import org.tensorflow.metadata.v0.DatasetFeatureStatistics;
import org.tensorflow.metadata.v0.FeatureNameStatistics;

/**
 * Statistics merged from parts equal one pass over the same records (the job merges a window's
 * partial statistics), including through serialization; TFDV's sketch-based top values agree with
 * the exact ones where they are exact, and lenient accumulators leave other kinds out.
 */
class MergeableStatisticsTest {
    private static List<Example> corpus(long seed, int n) {
        Random random = new Random(seed);
        List<Example> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Features.Builder f = Features.newBuilder();
            if (random.nextInt(10) > 0) {
                Int64List.Builder ints = Int64List.newBuilder();
                for (int k = random.nextInt(4); k > 0; k--) {
                    ints.addValue(random.nextInt(50) - 10);
                }
                f.putFeature("ints", Feature.newBuilder().setInt64List(ints).build());
            }
            if (random.nextInt(10) > 1) {
                FloatList.Builder floats = FloatList.newBuilder();
                for (int k = random.nextInt(3); k > 0; k--) {
                    int c = random.nextInt(40);
                    floats.addValue(c == 0 ? Float.NaN : c == 1 ? Float.POSITIVE_INFINITY : c / 3f);
                }
                f.putFeature("floats", Feature.newBuilder().setFloatList(floats).build());
            }
            if (random.nextInt(10) > 2) {
                BytesList.Builder bytes = BytesList.newBuilder();
                for (int k = random.nextInt(3); k > 0; k--) {
                    int c = random.nextInt(30);
                    bytes.addValue(
                            c == 0
                                    ? ByteString.copyFrom(new byte[] {(byte) 0xc0, 1})
                                    : ByteString.copyFromUtf8("s" + c * c));
                }
                f.putFeature("strings", Feature.newBuilder().setBytesList(bytes).build());
            }
            f.putFeature(
                    "w",
                    Feature.newBuilder()
                            .setFloatList(FloatList.newBuilder().addValue(1 + random.nextInt(3)))
                            .build());
            out.add(Example.newBuilder().setFeatures(f).build());
        }
        return out;
    }

    private static DatasetFeatureStatistics onePass(
            List<Example> records, StatsOptions o, String weight) {
        ExampleStatistics s = new ExampleStatistics(o, weight);
        records.forEach(s::add);
        return s.build("d");
    }

    @Test
    void mergedPartsEqualOnePass() {
        List<Example> records = corpus(1, 3000);
        for (String weight : new String[] {null, "w"}) {
            for (StatsOptions o :
                    new StatsOptions[] {
                        StatsOptions.DEFAULTS, StatsOptions.DEFAULTS.withSketchTopValues(true)
                    }) {
                ExampleStatistics merged = new ExampleStatistics(o, weight);
                for (int from = 0; from < records.size(); from += 250) {
                    ExampleStatistics part = new ExampleStatistics(o, weight);
                    records.subList(from, from + 250).forEach(part::add);
                    merged.merge(part);
                }
                StatisticsAssertions.assertSameStatistics(
                        onePass(records, o, weight), merged.build("d"));
            }
        }
    }

    @Test
    void aFeatureSurvivesSerialization() throws IOException {
        List<Example> records = corpus(2, 2000);
        StatsOptions o = StatsOptions.DEFAULTS.withSketchTopValues(true);
        for (String name : new String[] {"ints", "floats", "strings"}) {
            FeatureAccumulator a =
                    new FeatureAccumulator(name, false, o, true, true, StatsRole.PLAIN);
            for (Example e : records) {
                Feature f = e.getFeatures().getFeatureOrDefault(name, null);
                if (f != null) {
                    a.add(f, e.getFeatures().getFeatureOrThrow("w").getFloatList().getValue(0));
                }
            }
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            a.write(new DataOutputStream(bytes));
            FeatureAccumulator b =
                    new FeatureAccumulator(name, false, o, true, true, StatsRole.PLAIN);
            b.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
            assertEquals(a.build(2000, 4000), b.build(2000, 4000), name);
        }
    }

    /** Below the sketches' sizes, TFDV's sketch-based top values are the exact ones. */
    @Test
    void sketchedTopValuesAreExactWhileSmall() {
        List<Example> records = corpus(3, 2000);
        DatasetFeatureStatistics exact = onePass(records, StatsOptions.DEFAULTS, null);
        DatasetFeatureStatistics sketched =
                onePass(records, StatsOptions.DEFAULTS.withSketchTopValues(true), null);
        FeatureNameStatistics e = exact.getFeatures(2);
        FeatureNameStatistics s = sketched.getFeatures(2);
        assertEquals("strings", e.getPath().getStep(0));
        assertEquals(e.getStringStats().getUnique(), s.getStringStats().getUnique());
        // the one invalid value is its own placeholder in both
        assertEquals(e.getStringStats().getTopValuesList(), s.getStringStats().getTopValuesList());
        assertEquals(
                e, onePass(records, StatsOptions.DEFAULTS.withEpsilon(0), null).getFeatures(2));
    }

    /** The job's accumulators keep the first kind and leave values of another out. */
    @Test
    void lenientKeepsTheFirstKind() {
        FeatureAccumulator strict =
                new FeatureAccumulator(
                        "x", false, StatsOptions.DEFAULTS, false, true, StatsRole.PLAIN);
        FeatureAccumulator lenient =
                new FeatureAccumulator(
                        "x", false, StatsOptions.DEFAULTS, false, false, StatsRole.PLAIN);
        for (FeatureAccumulator a : new FeatureAccumulator[] {strict, lenient}) {
            assertTrue(a.present(FeatureAccumulator.INT, 1, 1));
            a.number(3);
        }
        assertThrows(
                IllegalArgumentException.class,
                () -> strict.present(FeatureAccumulator.BYTES, 1, 1));
        assertTrue(!lenient.present(FeatureAccumulator.BYTES, 1, 1));
        FeatureNameStatistics f = lenient.build(2, Double.NaN);
        assertEquals(FeatureNameStatistics.Type.INT, f.getType());
        assertEquals(2, f.getNumStats().getCommonStats().getNumNonMissing());
        assertEquals(3, f.getNumStats().getMax(), 0);
    }
}
