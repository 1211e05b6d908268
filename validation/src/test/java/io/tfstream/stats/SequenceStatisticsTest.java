package io.tfstream.stats;

import static io.tfstream.stats.ExampleStatisticsTest.assertClose;
import static io.tfstream.testkit.ProtoFeatures.floats;
import static io.tfstream.testkit.ProtoFeatures.int64s;
import static io.tfstream.testkit.ProtoFeatures.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.TextFormat;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.Feature;
import org.tensorflow.example.FeatureList;
import org.tensorflow.example.FeatureLists;
import org.tensorflow.example.Features;
import org.tensorflow.example.SequenceExample;
import org.tensorflow.metadata.v0.DatasetFeatureStatistics;
import org.tensorflow.metadata.v0.FeatureNameStatistics;

/**
 * SequenceExample statistics against TFDV's golden ({@code
 * integration_tests/sequence_example_e2e_test.py}, {@code _BASIC_GOLDEN_STATS}: 10 of its example A
 * and 10 of B, 3 buckets everywhere): context features as an Example's, the {@code ##SEQUENCE##}
 * struct, feature lists with presence and valency per nesting level and the level-2 custom
 * histograms.
 */
class SequenceStatisticsTest {
    private static final SequenceExample A =
            SequenceExample.newBuilder()
                    .setContext(
                            Features.newBuilder()
                                    .putFeature("context_bytes_feature", strings("0"))
                                    .putFeature("context_int64_feature", int64s())
                                    .putFeature("label", floats(1))
                                    .putFeature("example_weight", floats(5)))
                    .setFeatureLists(
                            FeatureLists.newBuilder()
                                    .putFeatureList(
                                            "sequence_int64_feature",
                                            FeatureList.newBuilder()
                                                    .addFeature(Feature.getDefaultInstance())
                                                    .addFeature(int64s(1, 2))
                                                    .addFeature(int64s())
                                                    .build())
                                    .putFeatureList(
                                            "sequence_float_feature",
                                            FeatureList.newBuilder()
                                                    .addFeature(floats(0, 0))
                                                    .build()))
                    .build();

    private static final SequenceExample B =
            SequenceExample.newBuilder()
                    .setContext(
                            Features.newBuilder()
                                    .putFeature("context_bytes_feature", strings("1"))
                                    .putFeature("label", floats(2))
                                    .putFeature("example_weight", floats(10)))
                    .setFeatureLists(
                            FeatureLists.newBuilder()
                                    .putFeatureList(
                                            "sequence_int64_feature",
                                            FeatureList.newBuilder()
                                                    .addFeature(int64s(2, 3, 4))
                                                    .build()))
                    .build();

    /** TFDV's golden input: 10 of example A, 10 of B, 3 buckets everywhere. */
    static DatasetFeatureStatistics golden() {
        ExampleStatistics s = new ExampleStatistics(new StatsOptions(20, 3, 3, 3, 3));
        for (int i = 0; i < 10; i++) {
            s.add(A);
        }
        for (int i = 0; i < 10; i++) {
            s.add(B);
        }
        return s.build("");
    }

    private static FeatureNameStatistics feature(DatasetFeatureStatistics d, String... path) {
        for (FeatureNameStatistics f : d.getFeaturesList()) {
            if (f.getPath().getStepList().equals(java.util.List.of(path))) {
                return f;
            }
        }
        throw new AssertionError("no feature " + String.join(".", path));
    }

    private static <T extends com.google.protobuf.Message> T parse(String text, Class<T> type)
            throws Exception {
        return TextFormat.parse(text, type);
    }

    /**
     * Weighted by the context feature {@code example_weight} (A: 5, B: 10): the weighted parts of
     * TFDV's golden {@code _WEIGHT_AND_LABEL_GOLDEN_STATS} of the same test file (each example's
     * weight on its lists, their steps and their values; per nesting level).
     */
    @Test
    void weightedByAContextFeatureAsTfdvsWeightAndLabelGolden() throws Exception {
        ExampleStatistics s =
                new ExampleStatistics(new StatsOptions(20, 3, 3, 3, 3), "example_weight");
        for (int i = 0; i < 10; i++) {
            s.add(A);
            s.add(B);
        }
        DatasetFeatureStatistics d = s.build("");
        assertEquals(150.0, d.getWeightedNumExamples());
        assertClose(
                parse(
                        "num_non_missing: 150.0 avg_num_values: 1.0 tot_num_values: 150.0",
                        org.tensorflow.metadata.v0.WeightedCommonStatistics.class),
                feature(d, "##SEQUENCE##")
                        .getStructStats()
                        .getCommonStats()
                        .getWeightedCommonStats());
        var floats =
                feature(d, "##SEQUENCE##", "sequence_float_feature").getNumStats().getCommonStats();
        assertClose(
                parse(
                        "num_non_missing: 50.0 num_missing: 100.0 avg_num_values: 2.0"
                                + " tot_num_values: 100.0",
                        org.tensorflow.metadata.v0.WeightedCommonStatistics.class),
                floats.getWeightedCommonStats());
        assertEquals(2, floats.getWeightedPresenceAndValencyStatsCount());
        assertClose(
                parse(
                        "num_non_missing: 50.0 num_missing: 100.0 avg_num_values: 1.0"
                                + " tot_num_values: 50.0",
                        org.tensorflow.metadata.v0.WeightedCommonStatistics.class),
                floats.getWeightedPresenceAndValencyStats(0));
        assertClose(
                parse(
                        "num_non_missing: 50.0 avg_num_values: 2.0 tot_num_values: 100.0",
                        org.tensorflow.metadata.v0.WeightedCommonStatistics.class),
                floats.getWeightedPresenceAndValencyStats(1));
        var ints = feature(d, "##SEQUENCE##", "sequence_int64_feature").getNumStats();
        assertClose(
                parse(
                        "num_non_missing: 150.0 avg_num_values: 2.6666666666666667"
                                + " tot_num_values: 400.0",
                        org.tensorflow.metadata.v0.WeightedCommonStatistics.class),
                ints.getCommonStats().getWeightedCommonStats());
        assertClose(
                parse(
                        "num_non_missing: 150.0 avg_num_values: 1.6666666666666667"
                                + " tot_num_values: 250.0",
                        org.tensorflow.metadata.v0.WeightedCommonStatistics.class),
                ints.getCommonStats().getWeightedPresenceAndValencyStats(0));
        assertClose(
                parse(
                        "num_non_missing: 200.0 num_missing: 50.0 avg_num_values: 2.0"
                                + " tot_num_values: 400.0",
                        org.tensorflow.metadata.v0.WeightedCommonStatistics.class),
                ints.getCommonStats().getWeightedPresenceAndValencyStats(1));
        assertClose(
                parse(
                        """
                        mean: 2.625 std_dev: 0.9921567416492215 median: 3.0
                        histograms { type: STANDARD
                          buckets { low_value: 1.0 high_value: 2.0 sample_count: 200.0 }
                          buckets { low_value: 2.0 high_value: 3.0 sample_count: 100.0 }
                          buckets { low_value: 3.0 high_value: 4.0 sample_count: 100.0 } }
                        histograms { type: QUANTILES
                          buckets { low_value: 1.0 high_value: 2.0 sample_count: 200.0 }
                          buckets { low_value: 2.0 high_value: 3.0 sample_count: 100.0 }
                          buckets { low_value: 3.0 high_value: 4.0 sample_count: 100.0 } }
                        """,
                        org.tensorflow.metadata.v0.WeightedNumericStatistics.class),
                ints.getWeightedNumericStats());
        assertClose(
                parse(
                        "num_non_missing: 50.0 num_missing: 100.0",
                        org.tensorflow.metadata.v0.WeightedCommonStatistics.class),
                feature(d, "context_int64_feature")
                        .getNumStats()
                        .getCommonStats()
                        .getWeightedCommonStats());
        assertClose(
                parse(
                        """
                        top_values { value: "1" frequency: 100.0 }
                        top_values { value: "0" frequency: 50.0 }
                        rank_histogram { buckets { label: "1" sample_count: 100.0 }
                          buckets { low_rank: 1 high_rank: 1 label: "0" sample_count: 50.0 } }
                        """,
                        org.tensorflow.metadata.v0.WeightedStringStatistics.class),
                feature(d, "context_bytes_feature").getStringStats().getWeightedStringStats());
    }

    @Test
    void theSequenceStructAndItsFeatureLists() throws Exception {
        DatasetFeatureStatistics d = golden();
        assertEquals(20, d.getNumExamples());
        assertEquals(
                java.util.List.of(
                        "context_bytes_feature",
                        "context_int64_feature",
                        "example_weight",
                        "label",
                        "##SEQUENCE##",
                        "##SEQUENCE##.sequence_float_feature",
                        "##SEQUENCE##.sequence_int64_feature"),
                d.getFeaturesList().stream()
                        .map(f -> String.join(".", f.getPath().getStepList()))
                        .toList(),
                "context by name, the struct, then its children");
        assertClose(
                parse(
                        """
                        path { step: "##SEQUENCE##" } type: STRUCT
                        struct_stats { common_stats { num_non_missing: 20 min_num_values: 1
                          max_num_values: 1 avg_num_values: 1 tot_num_values: 20
                          num_values_histogram { type: QUANTILES
                            buckets { low_value: 1 high_value: 1 sample_count: 6.6666667 }
                            buckets { low_value: 1 high_value: 1 sample_count: 6.6666667 }
                            buckets { low_value: 1 high_value: 1 sample_count: 6.6666667 } } } }
                        """,
                        FeatureNameStatistics.class),
                feature(d, "##SEQUENCE##"));
        assertClose(
                parse(
                        """
                        path { step: "##SEQUENCE##" step: "sequence_int64_feature" } type: INT
                        num_stats {
                          common_stats { num_non_missing: 20 min_num_values: 2 max_num_values: 3
                            avg_num_values: 2.5 tot_num_values: 50
                            num_values_histogram { type: QUANTILES
                              buckets { low_value: 2 high_value: 2 sample_count: 10 }
                              buckets { low_value: 2 high_value: 3 sample_count: 5 }
                              buckets { low_value: 3 high_value: 3 sample_count: 5 } }
                            presence_and_valency_stats { num_non_missing: 20 min_num_values: 1
                              max_num_values: 3 tot_num_values: 40 }
                            presence_and_valency_stats { num_non_missing: 30 num_missing: 10
                              max_num_values: 3 tot_num_values: 50 } }
                          mean: 2.4 std_dev: 1.019803902718557 min: 1 median: 2 max: 4
                          histograms { type: STANDARD
                            buckets { low_value: 1 high_value: 2 sample_count: 30 }
                            buckets { low_value: 2 high_value: 3 sample_count: 10 }
                            buckets { low_value: 3 high_value: 4 sample_count: 10 } }
                          histograms { type: QUANTILES
                            buckets { low_value: 1 high_value: 2 sample_count: 30 }
                            buckets { low_value: 2 high_value: 3 sample_count: 10 }
                            buckets { low_value: 3 high_value: 4 sample_count: 10 } } }
                        custom_stats { name: "level_2_value_list_length_quantiles"
                          histogram { type: QUANTILES
                            buckets { low_value: 0 high_value: 2 sample_count: 20 }
                            buckets { low_value: 2 high_value: 3 sample_count: 5 }
                            buckets { low_value: 3 high_value: 3 sample_count: 5 } } }
                        custom_stats { name: "level_2_value_list_length_standard"
                          histogram {
                            buckets { low_value: 0 high_value: 1 sample_count: 10 }
                            buckets { low_value: 1 high_value: 2 sample_count: 10 }
                            buckets { low_value: 2 high_value: 3 sample_count: 10 } } }
                        """,
                        FeatureNameStatistics.class),
                feature(d, "##SEQUENCE##", "sequence_int64_feature"));
        FeatureNameStatistics floats = feature(d, "##SEQUENCE##", "sequence_float_feature");
        assertClose(
                parse(
                        """
                        num_non_missing: 10 num_missing: 10 min_num_values: 2 max_num_values: 2
                        avg_num_values: 2 tot_num_values: 20
                        presence_and_valency_stats { num_non_missing: 10 num_missing: 10
                          min_num_values: 1 max_num_values: 1 tot_num_values: 10 }
                        presence_and_valency_stats { num_non_missing: 10 min_num_values: 2
                          max_num_values: 2 tot_num_values: 20 }
                        """,
                        org.tensorflow.metadata.v0.CommonStatistics.class),
                floats.getNumStats().getCommonStats().toBuilder()
                        .clearNumValuesHistogram()
                        .build());
        assertEquals(20, floats.getNumStats().getNumZeros());
        assertEquals("level_2_value_list_length_standard", floats.getCustomStats(1).getName());
        assertEquals(1, floats.getCustomStats(1).getHistogram().getBucketsCount());
        assertEquals(10, floats.getCustomStats(1).getHistogram().getBuckets(0).getSampleCount());
    }

    @Test
    void contextFeaturesAreAnExamplesFeatures() throws Exception {
        DatasetFeatureStatistics d = golden();
        FeatureNameStatistics weight = feature(d, "example_weight");
        assertClose(
                parse(
                        """
                        mean: 7.5 std_dev: 2.5 min: 5 median: 10 max: 10
                        histograms { type: STANDARD
                          buckets { low_value: 5 high_value: 6.6666665 sample_count: 10.0220747 }
                          buckets { low_value: 6.6666665 high_value: 8.333333 sample_count: 0.0220751 }
                          buckets { low_value: 8.333333 high_value: 10 sample_count: 9.9558363 } }
                        histograms { type: QUANTILES
                          buckets { low_value: 5 high_value: 5 sample_count: 10 }
                          buckets { low_value: 5 high_value: 10 sample_count: 5 }
                          buckets { low_value: 10 high_value: 10 sample_count: 5 } }
                        """,
                        org.tensorflow.metadata.v0.NumericStatistics.class),
                weight.getNumStats().toBuilder().clearCommonStats().build());
        var empty = feature(d, "context_int64_feature").getNumStats();
        assertEquals(10, empty.getCommonStats().getNumNonMissing());
        assertEquals(10, empty.getCommonStats().getNumMissing());
        assertEquals(0, empty.getHistogramsCount(), "no values: common statistics only");
        var bytes = feature(d, "context_bytes_feature").getStringStats();
        assertEquals(2, bytes.getUnique());
        assertEquals("1", bytes.getTopValues(0).getValue(), "a tie goes to the larger value");
        assertEquals(1f, bytes.getAvgLength());
    }
}
