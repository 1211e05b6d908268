package io.tfstream.stats;

import static io.tfstream.stats.ExampleStatisticsTest.assertClose;
import static io.tfstream.testkit.ProtoFeatures.floats;
import static io.tfstream.testkit.ProtoFeatures.int64s;
import static io.tfstream.testkit.ProtoFeatures.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.TextFormat;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.metadata.v0.FeatureNameStatistics;
import org.tensorflow.metadata.v0.Schema;

/**
 * Statistics computed with a schema, against TFDV's own expected outputs ({@code
 * statistics/generators/basic_stats_generator_test.py}: {@code test_with_bytes_features}, {@code
 * test_categorical_int_feature}, {@code test_categorical_float_feature}, {@code
 * test_schema_claims_bytes_but_actually_int}; {@code top_k_uniques_sketch_stats_generator_test.py}:
 * {@code test_topk_uniques_sketch_with_categorical_numeric_feature}, {@code
 * test_schema_claimed_bytes}, {@code test_string_domain_categorization}; {@code
 * statistics/stats_impl_test.py}: the in-memory case {@code schema}), numbers to a relative
 * tolerance of 1e-4 as TFDV's tests compare them.
 */
class SchemaStatisticsTest {
    private static final StatsOptions SKETCH = StatsOptions.DEFAULTS.withSketchTopValues(true);

    private static Example example(String name, Feature f) {
        Features.Builder b = Features.newBuilder();
        if (f != null) {
            b.putFeature(name, f);
        }
        return Example.newBuilder().setFeatures(b).build();
    }

    private static FeatureNameStatistics stats(
            String schema, StatsOptions o, String name, Example... examples) throws Exception {
        ExampleStatistics s =
                new ExampleStatistics(
                        o, null, StatsRole.of(TextFormat.parse(schema, Schema.class)));
        for (Example e : examples) {
            s.add(e);
        }
        for (FeatureNameStatistics f : s.build("").getFeaturesList()) {
            if (f.getPath().getStep(0).equals(name)) {
                return f;
            }
        }
        throw new AssertionError("no feature " + name);
    }

    private static FeatureNameStatistics expected(String text) throws Exception {
        return TextFormat.parse(text, FeatureNameStatistics.class);
    }

    @Test
    void imageDomainFeaturesGetBytesStatisticsAndNoTopValues() throws Exception {
        String schema = "feature { name: 'b' type: BYTES image_domain { } }";
        for (StatsOptions o : new StatsOptions[] {new StatsOptions(20, 1000, 3, 3, 4), SKETCH}) {
            FeatureNameStatistics b =
                    stats(
                            schema,
                            o.withEpsilon(0.001),
                            "b",
                            example("b", strings("x", "y", "z", "w")),
                            example("b", strings("qwe", "abc")),
                            example("b", strings("ab")));
            FeatureNameStatistics want =
                    expected(
                            """
                            path { step: 'b' } type: BYTES
                            bytes_stats {
                              common_stats { num_non_missing: 3 min_num_values: 1
                                max_num_values: 4 avg_num_values: 2.33333333 tot_num_values: 7
                                num_values_histogram {
                                  buckets { low_value: 1.0 high_value: 2.0 sample_count: 2.0 }
                                  buckets { low_value: 2.0 high_value: 4.0 sample_count: 0.5 }
                                  buckets { low_value: 4.0 high_value: 4.0 sample_count: 0.5 }
                                  type: QUANTILES } }
                              avg_num_bytes: 1.71428571 min_num_bytes: 1 max_num_bytes: 3
                              max_num_bytes_int: 3 }
                            """);
            if (o.sketchTopValues()) {
                // the histogram depends on the value-count buckets only, compared above
                assertClose(
                        want.getBytesStats().toBuilder().clearCommonStats().build(),
                        b.getBytesStats().toBuilder().clearCommonStats().build());
                assertEquals(FeatureNameStatistics.Type.BYTES, b.getType());
            } else {
                assertClose(want, b);
            }
            assertFalse(b.hasStringStats(), "no string statistics, no top values");
        }
    }

    @Test
    void anImageFeatureHoldingIntsGetsNumericStatistics() throws Exception {
        FeatureNameStatistics a =
                stats(
                        "feature { name: 'a' type: BYTES image_domain { } }",
                        StatsOptions.DEFAULTS,
                        "a",
                        example("a", int64s(3)));
        assertEquals(FeatureNameStatistics.Type.INT, a.getType());
        assertEquals(3.0, a.getNumStats().getMean());
    }

    private static Example[] categoricalInts() {
        return new Example[] {
            example("c", int64s(1, 5, 10)),
            example("c", int64s(0)),
            example("c", int64s(1, 1, 1, 5, 15)),
            example("c", int64s(-1)),
            example("c", null),
            example("c", null)
        };
    }

    private static final String COMMON =
            """
            common_stats { num_non_missing: 4 num_missing: 2 min_num_values: 1 max_num_values: 5
              avg_num_values: 2.5 tot_num_values: 10
              num_values_histogram {
                buckets { low_value: 1.0 high_value: 1.0 sample_count: 2 }
                buckets { low_value: 1.0 high_value: 3.0 sample_count: 1 }
                buckets { low_value: 3.0 high_value: 5.0 sample_count: 1 }
                type: QUANTILES } }
            """;

    @Test
    void categoricalIntsGetStringStatisticsOfTheirDecimalText() throws Exception {
        for (String domain :
                new String[] {"int_domain { is_categorical: true }", "bool_domain { }"}) {
            String schema = "feature { name: 'c' type: INT " + domain + " }";
            FeatureNameStatistics c =
                    stats(schema, new StatsOptions(0, 0, 3, 3, 4), "c", categoricalInts());
            assertClose(
                    expected(
                            "path { step: 'c' } type: INT string_stats { "
                                    + COMMON
                                    + " unique: 6 avg_length: 1.29999995232 }"),
                    c);
        }
    }

    @Test
    void categoricalFloatsGetStringStatisticsOfPythonsText() throws Exception {
        String schema = "feature { name: 'c' type: FLOAT float_domain { is_categorical: true } }";
        FeatureNameStatistics c =
                stats(
                        schema,
                        new StatsOptions(6, 0, 3, 3, 4).withSketchTopValues(true),
                        "c",
                        example("c", floats(1, 5, 10)),
                        example("c", floats(0)),
                        example("c", floats(1, 1, 1, 5, 15)),
                        example("c", floats(-1)),
                        example("c", null),
                        example("c", null));
        // avg_length from Python's repr ("1.0", "10.0", "-1.0"): 33 / 10; labels as %.6g prints
        // them, ties in reverse order of the label's bytes
        assertClose(
                expected(
                        "path { step: 'c' } type: FLOAT string_stats { "
                                + COMMON
                                + " unique: 6 avg_length: 3.3"
                                + " top_values { value: '1' frequency: 4 }"
                                + " top_values { value: '5' frequency: 2 }"
                                + " top_values { value: '15' frequency: 1 }"
                                + " top_values { value: '10' frequency: 1 }"
                                + " top_values { value: '0' frequency: 1 }"
                                + " top_values { value: '-1' frequency: 1 } }"),
                c);
        assertThrows(
                IllegalArgumentException.class,
                () -> stats(schema, StatsOptions.DEFAULTS, "c", example("c", floats(1))));
    }

    @Test
    void categoricalIntTopValuesBreakTiesAsTfdvsGenerators() throws Exception {
        String schema = "feature { name: 'fa' type: INT int_domain { is_categorical: true } }";
        Example[] records = {
            example("fa", int64s(12, 23, 34, 12)),
            example("fa", int64s(45, 23)),
            example("fa", int64s(12, 12, 34, 45)),
            example("fa", int64s(9, 10))
        };
        String ranks =
                " rank_histogram {"
                        + " buckets { low_rank: 0 high_rank: 0 label: '12' sample_count: 4 }"
                        + " buckets { low_rank: 1 high_rank: 1 label: '45' sample_count: 2 }"
                        + " buckets { low_rank: 2 high_rank: 2 label: '34' sample_count: 2 } }";
        // the sketch: ties by the label's bytes, descending ("9" before "10")
        FeatureNameStatistics sketched =
                stats(
                        schema,
                        new StatsOptions(6, 3, 3, 3, 4).withSketchTopValues(true),
                        "fa",
                        records);
        assertEquals(
                expected(
                                "string_stats { unique: 6"
                                        + " top_values { value: '12' frequency: 4 }"
                                        + " top_values { value: '45' frequency: 2 }"
                                        + " top_values { value: '34' frequency: 2 }"
                                        + " top_values { value: '23' frequency: 2 }"
                                        + " top_values { value: '9' frequency: 1 }"
                                        + " top_values { value: '10' frequency: 1 }"
                                        + ranks
                                        + " }")
                        .getStringStats(),
                sketched.getStringStats().toBuilder().clearCommonStats().clearAvgLength().build());
        // exact counts: ties by number, descending (10 before 9), as TFDV's exact top-k
        FeatureNameStatistics exact = stats(schema, new StatsOptions(6, 3, 3, 3, 4), "fa", records);
        assertEquals(
                java.util.List.of("12", "45", "34", "23", "10", "9"),
                exact.getStringStats().getTopValuesList().stream().map(v -> v.getValue()).toList());
    }

    /** stats_impl_test.py's in-memory case "schema": sketched top values of a categorical int. */
    @Test
    void tfdvsInMemorySchemaCase() throws Exception {
        FeatureNameStatistics a =
                stats(
                        "feature { name: 'a' type: INT int_domain { is_categorical: true } }",
                        new StatsOptions(2, 3, 3, 10, 10).withSketchTopValues(true),
                        "a",
                        example("a", int64s(1, 3, 5, 7)),
                        example("a", int64s(2, 4, 6, 8)),
                        example("a", int64s(0, 3, 6, 9)));
        assertClose(
                expected(
                                """
                                string_stats {
                                  unique: 10
                                  top_values { value: "6" frequency: 2.0 }
                                  top_values { value: "3" frequency: 2.0 }
                                  avg_length: 1.0
                                  rank_histogram {
                                    buckets { low_rank: 0 high_rank: 0 label: "6" sample_count: 2.0 }
                                    buckets { low_rank: 1 high_rank: 1 label: "3" sample_count: 2.0 }
                                    buckets { low_rank: 2 high_rank: 2 label: "9" sample_count: 1.0 }
                                  } }
                                """)
                        .getStringStats(),
                a.getStringStats().toBuilder().clearCommonStats().build());
        assertEquals(FeatureNameStatistics.Type.INT, a.getType());
        assertEquals(12, a.getStringStats().getCommonStats().getTotNumValues());
    }

    @Test
    void aCategoricalIntHoldingFloatsGetsNumericStatistics() throws Exception {
        FeatureNameStatistics a =
                stats(
                        "feature { name: 'a' type: INT int_domain { is_categorical: true } }",
                        StatsOptions.DEFAULTS,
                        "a",
                        example("a", floats(1.5f)));
        assertEquals(FeatureNameStatistics.Type.FLOAT, a.getType());
        assertEquals(1.5, a.getNumStats().getMean());
    }

    /** test_string_domain_categorization: sketched top values by string_domain.is_categorical. */
    @Test
    void stringDomainCategorizationDecidesSketchedTopValues() throws Exception {
        String large = "f".repeat(1025);
        Example[] records = {
            example("fa", strings("a", "b", large, "a")),
            example("fa", strings("a", large, large, "a")),
            example("fa", strings("c"))
        };
        StatsOptions o = new StatsOptions(2, 2, 3, 3, 4).withSketchTopValues(true);
        String ranksOf =
                " top_values { value: 'a' frequency: 4 } top_values { value: 'L' frequency: 3 }"
                        + " rank_histogram { buckets { label: 'a' sample_count: 4 }"
                        + " buckets { low_rank: 1 high_rank: 1 label: 'L' sample_count: 3 } }";
        for (String categorical : new String[] {"", "is_categorical: CATEGORICAL_UNSPECIFIED"}) {
            FeatureNameStatistics fa =
                    stats(
                            "feature { name: 'fa' type: BYTES string_domain { "
                                    + categorical
                                    + " } }",
                            o,
                            "fa",
                            records);
            assertEquals(
                    expected(
                                    "string_stats { unique: 4"
                                            + ranksOf.replace("'L'", "'__LARGE_BYTES__'")
                                            + " }")
                            .getStringStats(),
                    topOnly(fa));
        }
        FeatureNameStatistics yes =
                stats(
                        "feature { name: 'fa' type: BYTES string_domain { is_categorical: CATEGORICAL_YES } }",
                        o,
                        "fa",
                        records);
        assertEquals(
                expected(
                                "string_stats { unique: 4"
                                        + ranksOf.replace("'L'", "'" + large + "'")
                                        + " }")
                        .getStringStats(),
                topOnly(yes));
        // a schema-level domain named by the feature
        FeatureNameStatistics no =
                stats(
                        "string_domain { name: 'd' is_categorical: CATEGORICAL_NO }"
                                + " feature { name: 'fa' type: BYTES domain: 'd' }",
                        o,
                        "fa",
                        records);
        assertEquals(FeatureNameStatistics.Type.STRING, no.getType());
        assertEquals(expected("string_stats { }").getStringStats(), topOnly(no));
        assertEquals(9, no.getStringStats().getCommonStats().getTotNumValues());
    }

    private static org.tensorflow.metadata.v0.StringStatistics topOnly(FeatureNameStatistics f) {
        return f.getStringStats().toBuilder().clearCommonStats().clearAvgLength().build();
    }

    @Test
    void numbersAsPythonAndCPrintThem() {
        assertEquals("0.10000000149011612", NumberText.pythonRepr(0.1f));
        assertEquals("1.0", NumberText.pythonRepr(1));
        assertEquals("-1.0", NumberText.pythonRepr(-1));
        assertEquals("10.0", NumberText.pythonRepr(10));
        assertEquals("1e+16", NumberText.pythonRepr(1e16));
        assertEquals("1.5e+16", NumberText.pythonRepr(1.5e16));
        assertEquals("1234567890123456.0", NumberText.pythonRepr(1234567890123456.0));
        assertEquals("0.0001", NumberText.pythonRepr(0.0001));
        assertEquals("1e-05", NumberText.pythonRepr(1e-5));
        assertEquals("1.5e-07", NumberText.pythonRepr(1.5e-7));
        assertEquals("-0.0", NumberText.pythonRepr(-0.0));
        assertEquals("1.7976931348623157e+308", NumberText.pythonRepr(Double.MAX_VALUE));
        assertEquals("5e-324", NumberText.pythonRepr(Double.MIN_VALUE));
        assertEquals("inf", NumberText.pythonRepr(Double.POSITIVE_INFINITY));

        assertEquals("12", NumberText.sixDigits(12));
        assertEquals("0.1", NumberText.sixDigits(0.1f));
        assertEquals("1.23457e+06", NumberText.sixDigits(1234567));
        assertEquals("100000", NumberText.sixDigits(100000));
        assertEquals("1e+06", NumberText.sixDigits(999999.5));
        assertEquals("1e-05", NumberText.sixDigits(1e-5));
        assertEquals("0.0001", NumberText.sixDigits(1e-4));
        assertEquals("-0", NumberText.sixDigits(-0.0));
        assertEquals("-2.5", NumberText.sixDigits(-2.5));

        assertEquals("0x1.8p+3", NumberText.hex(12));
        assertEquals("0x1p+0", NumberText.hex(1));
        assertEquals("-0x1p+0", NumberText.hex(-1));
        assertEquals("0x1p-1", NumberText.hex(0.5));
        assertEquals("0x0p+0", NumberText.hex(0));
        assertEquals("0x0.0000000000001p-1022", NumberText.hex(Double.MIN_VALUE));
        for (double v : new double[] {12, -0.5, 0.1f, Double.MIN_VALUE, 1e300, 0}) {
            assertEquals(v, NumberText.fromHex(NumberText.hex(v)));
        }
    }
}
