package io.tfstream.stats;

import static io.tfstream.testkit.ProtoFeatures.floats;
import static io.tfstream.testkit.ProtoFeatures.int64s;
import static io.tfstream.testkit.ProtoFeatures.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import com.google.protobuf.TextFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.BytesList;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.metadata.v0.DatasetFeatureStatistics;
import org.tensorflow.metadata.v0.FeatureNameStatistics;

/**
 * The statistics against TFDV's own expected outputs: the inputs and expected protos of
 * tensorflow/data-validation's tests ({@code statistics/generators/basic_stats_generator_test.py}:
 * {@code test_single_feature}, {@code test_with_entire_feature_value_list_missing}, {@code
 * test_infinity}, {@code test_only_nan}, {@code test_no_value_in_batch}, {@code
 * test_with_invalid_utf8}; {@code utils/stats_gen_lib_test.py}: {@code
 * test_stats_gen_with_tfrecords_of_tfexamples}, its histograms not compared there either), compared
 * as TFDV's tests compare them: numbers to a relative tolerance of 1e-4.
 */
class ExampleStatisticsTest {

    private static Example example(Object... nameFeature) {
        Features.Builder f = Features.newBuilder();
        for (int i = 0; i < nameFeature.length; i += 2) {
            f.putFeature((String) nameFeature[i], (Feature) nameFeature[i + 1]);
        }
        return Example.newBuilder().setFeatures(f).build();
    }

    private static DatasetFeatureStatistics stats(StatsOptions o, Example... examples) {
        ExampleStatistics s = new ExampleStatistics(o);
        for (Example e : examples) {
            s.add(e);
        }
        return s.build("");
    }

    private static FeatureNameStatistics feature(DatasetFeatureStatistics d, String name) {
        for (FeatureNameStatistics f : d.getFeaturesList()) {
            if (f.getPath().getStep(0).equals(name)) {
                return f;
            }
        }
        throw new AssertionError("no feature " + name + " in " + d);
    }

    private static FeatureNameStatistics expected(String text) throws Exception {
        return TextFormat.parse(text, FeatureNameStatistics.class);
    }

    private static final float NAN = Float.NaN;
    private static final float INF = Float.POSITIVE_INFINITY;

    @Test
    void aSingleFloatFeature() throws Exception {
        DatasetFeatureStatistics d =
                stats(
                        new StatsOptions(20, 1000, 4, 3, 4),
                        example("a", floats(1, 2)),
                        example("a", floats(3, 4, 5)),
                        example("a", floats(1)));
        assertClose(
                expected(
                        """
                        path { step: 'a' } type: FLOAT
                        num_stats {
                          common_stats { num_non_missing: 3 min_num_values: 1 max_num_values: 3
                            avg_num_values: 2.0 tot_num_values: 6
                            num_values_histogram { type: QUANTILES
                              buckets { low_value: 1.0 high_value: 1.0 sample_count: 1.0 }
                              buckets { low_value: 1.0 high_value: 2.0 sample_count: 1.0 }
                              buckets { low_value: 2.0 high_value: 3.0 sample_count: 0.5 }
                              buckets { low_value: 3.0 high_value: 3.0 sample_count: 0.5 } } }
                          mean: 2.66666666 std_dev: 1.49071198 num_zeros: 0 min: 1.0 max: 5.0
                          median: 3.0
                          histograms { type: STANDARD
                            buckets { low_value: 1.0 high_value: 2.3333333 sample_count: 3.0049751 }
                            buckets { low_value: 2.3333333 high_value: 3.6666667
                              sample_count: 1.0049751 }
                            buckets { low_value: 3.6666667 high_value: 5.0 sample_count: 1.9900498 } }
                          histograms { type: QUANTILES
                            buckets { low_value: 1.0 high_value: 1.0 sample_count: 2.0 }
                            buckets { low_value: 1.0 high_value: 3.0 sample_count: 2.0 }
                            buckets { low_value: 3.0 high_value: 4.0 sample_count: 1.0 }
                            buckets { low_value: 4.0 high_value: 5.0 sample_count: 1.0 } } }
                        """),
                feature(d, "a"));
        assertEquals(3, d.getNumExamples());
    }

    @Test
    void nanValuesAreCountedApart() throws Exception {
        DatasetFeatureStatistics d =
                stats(
                        new StatsOptions(20, 1000, 3, 3, 4),
                        example("a", floats(1, 2)),
                        example("a", floats(3, 4, NAN, 5)),
                        example("a", floats(NAN, 1)));
        FeatureNameStatistics a = feature(d, "a");
        assertEquals(8, a.getNumStats().getCommonStats().getTotNumValues(), "NaN counted");
        assertEquals(2, a.getNumStats().getHistograms(0).getNumNan());
        assertEquals(2, a.getNumStats().getHistograms(1).getNumNan());
        assertClose(
                expected(
                                """
                        path { step: 'a' } type: FLOAT
                        num_stats { common_stats { num_non_missing: 3 min_num_values: 2
                          max_num_values: 4 avg_num_values: 2.6666667 tot_num_values: 8
                          num_values_histogram { type: QUANTILES
                            buckets { low_value: 2 high_value: 2 sample_count: 2 }
                            buckets { low_value: 2 high_value: 4 sample_count: 0.5 }
                            buckets { low_value: 4 high_value: 4 sample_count: 0.5 } } } }
                        """)
                        .getNumStats()
                        .getCommonStats(),
                a.getNumStats().getCommonStats());
        assertClose(
                feature(
                                stats(
                                        new StatsOptions(20, 1000, 3, 3, 4),
                                        example("a", floats(1, 2)),
                                        example("a", floats(3, 4, 5)),
                                        example("a", floats(1))),
                                "a")
                        .getNumStats()
                        .toBuilder()
                        .clearCommonStats()
                        .setHistograms(0, a.getNumStats().getHistograms(0).toBuilder().setNumNan(0))
                        .setHistograms(1, a.getNumStats().getHistograms(1).toBuilder().setNumNan(0))
                        .build(),
                a.getNumStats().toBuilder()
                        .clearCommonStats()
                        .setHistograms(0, a.getNumStats().getHistograms(0).toBuilder().setNumNan(0))
                        .setHistograms(1, a.getNumStats().getHistograms(1).toBuilder().setNumNan(0))
                        .build());
    }

    @Test
    void missingFeaturesAndStrings() throws Exception {
        DatasetFeatureStatistics d =
                stats(
                        new StatsOptions(20, 1000, 3, 3, 4),
                        example("a", floats(1, 2), "b", strings("x", "y", "z", "w")),
                        example(),
                        example("a", floats(3, 4, 5), "b", strings("qwe", "abc")),
                        example("a", floats(1)),
                        example("b", strings("qwe")));
        FeatureNameStatistics b = feature(d, "b");
        assertClose(
                expected(
                                """
                        path { step: 'b' } type: STRING
                        string_stats {
                          common_stats { num_non_missing: 3 num_missing: 2 min_num_values: 1
                            max_num_values: 4 avg_num_values: 2.33333333 tot_num_values: 7
                            num_values_histogram { type: QUANTILES
                              buckets { low_value: 1.0 high_value: 2.0 sample_count: 2.0 }
                              buckets { low_value: 2.0 high_value: 4.0 sample_count: 0.5 }
                              buckets { low_value: 4.0 high_value: 4.0 sample_count: 0.5 } } }
                          avg_length: 1.85714285 }
                        """)
                        .getStringStats()
                        .getCommonStats(),
                b.getStringStats().getCommonStats());
        assertEquals(1.85714285f, b.getStringStats().getAvgLength(), 1e-6);
        FeatureNameStatistics a = feature(d, "a");
        assertClose(
                expected(
                                """
                        path { step: 'a' } type: FLOAT
                        num_stats { common_stats { num_non_missing: 3 num_missing: 2
                          min_num_values: 1 max_num_values: 3 avg_num_values: 2.0
                          tot_num_values: 6
                          num_values_histogram { type: QUANTILES
                            buckets { low_value: 1 high_value: 2 sample_count: 2.0 }
                            buckets { low_value: 2 high_value: 3 sample_count: 0.5 }
                            buckets { low_value: 3 high_value: 3 sample_count: 0.5 } } } }
                        """)
                        .getNumStats()
                        .getCommonStats(),
                a.getNumStats().getCommonStats());
    }

    @Test
    void infinities() throws Exception {
        DatasetFeatureStatistics d =
                stats(
                        new StatsOptions(20, 1000, 4, 4, 4),
                        example("a", floats(1, 2, INF, INF, -INF)),
                        example("a", floats(3, 4, 5, -INF)),
                        example("a", floats(1, INF, -INF)));
        assertClose(
                expected(
                        """
                        path { step: 'a' } type: FLOAT
                        num_stats {
                          common_stats { num_non_missing: 3 min_num_values: 3 max_num_values: 5
                            avg_num_values: 4.0 tot_num_values: 12
                            num_values_histogram { type: QUANTILES
                              buckets { low_value: 3 high_value: 3 sample_count: 1 }
                              buckets { low_value: 3 high_value: 4 sample_count: 1 }
                              buckets { low_value: 4 high_value: 5 sample_count: 0.5 }
                              buckets { low_value: 5 high_value: 5 sample_count: 0.5 } } }
                          mean: nan num_zeros: 0 min: -inf max: inf median: 3.0
                          histograms { type: STANDARD
                            buckets { low_value: -inf high_value: -inf sample_count: 3 }
                            buckets { low_value: 1 high_value: 2 sample_count: 3 }
                            buckets { low_value: 2 high_value: 3 sample_count: 1 }
                            buckets { low_value: 3 high_value: 4 sample_count: 1 }
                            buckets { low_value: 4 high_value: 5 sample_count: 1 }
                            buckets { low_value: inf high_value: inf sample_count: 3 } }
                          histograms { type: QUANTILES
                            buckets { low_value: -inf high_value: 1 sample_count: 5 }
                            buckets { low_value: 1 high_value: 3 sample_count: 2 }
                            buckets { low_value: 3 high_value: inf sample_count: 2.5 }
                            buckets { low_value: inf high_value: inf sample_count: 2.5 } } }
                        """),
                feature(d, "a"));
    }

    @Test
    void onlyNanAndNoValues() throws Exception {
        FeatureNameStatistics nan =
                feature(stats(StatsOptions.DEFAULTS, example("a", floats(NAN))), "a");
        assertClose(
                expected(
                        """
                        path { step: 'a' } type: FLOAT
                        num_stats {
                          common_stats { num_non_missing: 1 min_num_values: 1 max_num_values: 1
                            avg_num_values: 1 tot_num_values: 1
                            num_values_histogram { type: QUANTILES
                              buckets { low_value: 1 high_value: 1 sample_count: 0.1 }
                              buckets { low_value: 1 high_value: 1 sample_count: 0.1 }
                              buckets { low_value: 1 high_value: 1 sample_count: 0.1 }
                              buckets { low_value: 1 high_value: 1 sample_count: 0.1 }
                              buckets { low_value: 1 high_value: 1 sample_count: 0.1 }
                              buckets { low_value: 1 high_value: 1 sample_count: 0.1 }
                              buckets { low_value: 1 high_value: 1 sample_count: 0.1 }
                              buckets { low_value: 1 high_value: 1 sample_count: 0.1 }
                              buckets { low_value: 1 high_value: 1 sample_count: 0.1 }
                              buckets { low_value: 1 high_value: 1 sample_count: 0.1 } } }
                          histograms { num_nan: 1 type: STANDARD }
                          histograms { num_nan: 1 type: QUANTILES } }
                        """),
                nan);
        FeatureNameStatistics empty =
                feature(
                        stats(
                                StatsOptions.DEFAULTS,
                                example("a", int64s()),
                                example("a", int64s()),
                                example("a", int64s())),
                        "a");
        assertEquals(FeatureNameStatistics.Type.INT, empty.getType());
        var c = empty.getNumStats().getCommonStats();
        assertEquals(3, c.getNumNonMissing(), "an empty list is present");
        assertEquals(10, c.getNumValuesHistogram().getBucketsCount());
        for (var bucket : c.getNumValuesHistogram().getBucketsList()) {
            assertEquals(0.3, bucket.getSampleCount(), 1e-9);
        }
        assertEquals(0, empty.getNumStats().getHistogramsCount());
    }

    @Test
    void endToEndWithTopValuesAndInvalidUtf8() throws Exception {
        DatasetFeatureStatistics d =
                stats(
                        new StatsOptions(2, 2, 2, 2, 2),
                        example("a", floats(1, 2), "b", strings("a", "b", "c", "e")),
                        example("a", floats(3, 4, NAN, 5), "b", strings("a", "c", "d", "a")),
                        example("a", floats(1), "b", strings("a", "b", "c", "d")));
        FeatureNameStatistics a = feature(d, "a");
        assertClose(
                expected(
                        """
                        path { step: "a" } type: FLOAT
                        num_stats { common_stats { num_non_missing: 3 num_missing: 0
                          min_num_values: 1 max_num_values: 4 avg_num_values: 2.33333333
                          tot_num_values: 7 }
                          mean: 2.66666666 std_dev: 1.49071198 num_zeros: 0 min: 1.0 max: 5.0
                          median: 3.0 }
                        """),
                a.toBuilder()
                        .setNumStats(
                                a.getNumStats().toBuilder()
                                        .clearHistograms()
                                        .setCommonStats(
                                                a.getNumStats().getCommonStats().toBuilder()
                                                        .clearNumValuesHistogram()))
                        .build());
        FeatureNameStatistics b = feature(d, "b");
        assertClose(
                expected(
                        """
                        path { step: "b" } type: STRING
                        string_stats { common_stats { num_non_missing: 3 min_num_values: 4
                          max_num_values: 4 avg_num_values: 4.0 tot_num_values: 12 }
                          unique: 5
                          top_values { value: "a" frequency: 4.0 }
                          top_values { value: "c" frequency: 3.0 }
                          avg_length: 1.0
                          rank_histogram {
                            buckets { low_rank: 0 high_rank: 0 label: "a" sample_count: 4.0 }
                            buckets { low_rank: 1 high_rank: 1 label: "c" sample_count: 3.0 } } }
                        """),
                b.toBuilder()
                        .setStringStats(
                                b.getStringStats().toBuilder()
                                        .setCommonStats(
                                                b.getStringStats().getCommonStats().toBuilder()
                                                        .clearNumValuesHistogram()))
                        .build());
        // ties go to the larger value; values that are not UTF-8 are counted and labelled
        ByteString bad =
                ByteString.copyFrom(
                        new byte[] {
                            (byte) 0xfc,
                            (byte) 0xa1,
                            (byte) 0xa1,
                            (byte) 0xa1,
                            (byte) 0xa1,
                            (byte) 0xa1
                        });
        Feature withBad =
                Feature.newBuilder()
                        .setBytesList(
                                BytesList.newBuilder()
                                        .addValue(ByteString.copyFromUtf8("a"))
                                        .addValue(bad)
                                        .addValue(bad))
                        .build();
        var s =
                feature(
                                stats(
                                        StatsOptions.DEFAULTS,
                                        example("s", withBad),
                                        example("s", strings("gg", "ff"))),
                                "s")
                        .getStringStats();
        assertEquals(17f / 5, s.getAvgLength(), 1e-6); // 1 + 6 + 6 + 2 + 2 bytes
        assertEquals(2, s.getInvalidUtf8Count());
        assertEquals(
                List.of(FeatureAccumulator.NON_UTF8, "gg", "ff", "a"),
                s.getTopValuesList().stream().map(v -> v.getValue()).toList());
    }

    /** TFDV's {@code test_with_weight_feature}: weighted common, numeric statistics. */
    @Test
    void weightedByAWeightFeature() throws Exception {
        ExampleStatistics s = new ExampleStatistics(new StatsOptions(20, 1000, 4, 3, 4), "w");
        s.add(example("a", floats(1, 2), "b", int64s(1, 2), "w", floats(1)));
        s.add(example("a", floats(3, 4, 5), "b", int64s(3, 4, 5), "w", floats(2)));
        s.add(example("a", floats(1, NAN, NAN, NAN), "b", int64s(1), "w", floats(3)));
        s.add(example("w", floats(2)));
        DatasetFeatureStatistics d = s.build("");
        assertEquals(8.0, d.getWeightedNumExamples());
        String weightedA =
                """
                weighted_numeric_stats { mean: 2.7272727 std_dev: 1.5427784 median: 3.0
                  histograms { num_nan: %1$d
                    buckets { low_value: 1.0 high_value: 2.3333333 sample_count: 5.0091324 }
                    buckets { low_value: 2.3333333 high_value: 3.6666667 sample_count: 2.0091324 }
                    buckets { low_value: 3.6666667 high_value: 5.0 sample_count: 3.9817352 } }
                  histograms { num_nan: %1$d type: QUANTILES
                    buckets { low_value: 1.0 high_value: 1.0 sample_count: 4.0 }
                    buckets { low_value: 1.0 high_value: 3.0 sample_count: 3.0 }
                    buckets { low_value: 3.0 high_value: 4.0 sample_count: 2.0 }
                    buckets { low_value: 4.0 high_value: 5.0 sample_count: 2.0 } } }
                """;
        FeatureNameStatistics a = feature(d, "a");
        assertClose(
                TextFormat.parse(
                        """
                        num_non_missing: 6.0 num_missing: 2.0 avg_num_values: 3.33333333
                        tot_num_values: 20.0
                        """,
                        org.tensorflow.metadata.v0.WeightedCommonStatistics.class),
                a.getNumStats().getCommonStats().getWeightedCommonStats());
        assertClose(
                TextFormat.parse(
                        weightedA.formatted(3), org.tensorflow.metadata.v0.NumericStatistics.class),
                a.getNumStats().toBuilder()
                        .clearCommonStats()
                        .clearHistograms()
                        .clearMean()
                        .clearStdDev()
                        .clearMin()
                        .clearMax()
                        .clearMedian()
                        .build());
        FeatureNameStatistics b = feature(d, "b");
        assertClose(
                TextFormat.parse(
                        """
                        num_non_missing: 6.0 num_missing: 2.0 avg_num_values: 1.83333333
                        tot_num_values: 11.0
                        """,
                        org.tensorflow.metadata.v0.WeightedCommonStatistics.class),
                b.getNumStats().getCommonStats().getWeightedCommonStats());
        assertClose(
                TextFormat.parse(
                                weightedA.formatted(0),
                                org.tensorflow.metadata.v0.NumericStatistics.class)
                        .getWeightedNumericStats(),
                b.getNumStats().getWeightedNumericStats());
        assertClose(
                TextFormat.parse(
                        """
                        mean: 2.25 std_dev: 0.6614378 median: 2.0
                        histograms {
                          buckets { low_value: 1.0 high_value: 1.6666667 sample_count: 1.0133333 }
                          buckets { low_value: 1.6666667 high_value: 2.3333333 sample_count: 3.9932892 }
                          buckets { low_value: 2.3333333 high_value: 3.0 sample_count: 2.9933775 } }
                        histograms { type: QUANTILES
                          buckets { low_value: 1.0 high_value: 2.0 sample_count: 3.0 }
                          buckets { low_value: 2.0 high_value: 2.0 sample_count: 2.0 }
                          buckets { low_value: 2.0 high_value: 3.0 sample_count: 1.5 }
                          buckets { low_value: 3.0 high_value: 3.0 sample_count: 1.5 } }
                        """,
                        org.tensorflow.metadata.v0.WeightedNumericStatistics.class),
                feature(d, "w").getNumStats().getWeightedNumericStats());
        assertEquals(2.0, feature(d, "w").getNumStats().getMean(), 1e-9);
        // weighted top values: by weight, then by value
        ExampleStatistics strings = new ExampleStatistics(StatsOptions.DEFAULTS, "w");
        strings.add(example("s", strings("x"), "w", floats(0.5f)));
        strings.add(example("s", strings("y", "z"), "w", floats(3)));
        strings.add(example("s", strings("x"), "w", floats(1)));
        var ws = feature(strings.build(""), "s").getStringStats().getWeightedStringStats();
        assertEquals(
                List.of("z", "y", "x"),
                ws.getTopValuesList().stream().map(v -> v.getValue()).toList());
        assertEquals(1.5, ws.getTopValues(2).getFrequency());
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> strings.add(example("s", strings("x"))));
        assertEquals(
                "record 3: the weight feature 'w' must hold exactly one int64 or float value",
                e.getMessage());
    }

    @Test
    void aFeatureOfTwoKindsIsRefused() {
        ExampleStatistics s = new ExampleStatistics(StatsOptions.DEFAULTS);
        s.add(example("x", int64s(1)));
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class, () -> s.add(example("x", strings("a"))));
        assertEquals(
                "feature 'x' holds int64 values in one record and bytes values in another",
                e.getMessage());
    }

    /** {@code expected} and {@code actual} equal, numbers to a relative tolerance of 1e-4. */
    static void assertClose(Message expected, Message actual) {
        String where = compare(expected, actual, "");
        if (where != null) {
            fail(where + "\nexpected:\n" + expected + "\nactual:\n" + actual);
        }
    }

    private static String compare(Message e, Message a, String path) {
        for (FieldDescriptor f : e.getDescriptorForType().getFields()) {
            String p = path + "." + f.getName();
            if (f.isRepeated()) {
                int n = e.getRepeatedFieldCount(f);
                if (n != a.getRepeatedFieldCount(f)) {
                    return p
                            + ": "
                            + n
                            + " entries expected, "
                            + a.getRepeatedFieldCount(f)
                            + " found";
                }
                for (int i = 0; i < n; i++) {
                    String w =
                            value(
                                    f,
                                    e.getRepeatedField(f, i),
                                    a.getRepeatedField(f, i),
                                    p + "[" + i + "]");
                    if (w != null) {
                        return w;
                    }
                }
            } else if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
                if (e.hasField(f) != a.hasField(f)) {
                    return p + ": present " + e.hasField(f) + " expected";
                }
                if (e.hasField(f)) {
                    String w = compare((Message) e.getField(f), (Message) a.getField(f), p);
                    if (w != null) {
                        return w;
                    }
                }
            } else {
                String w = value(f, e.getField(f), a.getField(f), p);
                if (w != null) {
                    return w;
                }
            }
        }
        return null;
    }

    private static String value(FieldDescriptor f, Object e, Object a, String p) {
        if (e instanceof Message m) {
            return compare(m, (Message) a, p);
        }
        if (e instanceof Double || e instanceof Float) {
            double x = ((Number) e).doubleValue();
            double y = ((Number) a).doubleValue();
            boolean same =
                    (Double.isNaN(x) && Double.isNaN(y))
                            || x == y
                            || Math.abs(x - y) <= 1e-4 * Math.max(Math.abs(x), Math.abs(y));
            return same ? null : p + ": " + x + " expected, " + y + " found";
        }
        return e.equals(a) ? null : p + ": " + e + " expected, " + a + " found";
    }
}
