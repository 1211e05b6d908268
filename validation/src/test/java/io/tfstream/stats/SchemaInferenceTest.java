package io.tfstream.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.TextFormat;
import org.junit.jupiter.api.Test;
import org.tensorflow.metadata.v0.DatasetFeatureStatistics;
import org.tensorflow.metadata.v0.Schema;

/**
 * Schema inference against TFDV's own expected schemas: the statistics and schemas of
 * tensorflow/data-validation's {@code api/validation_api_test.py} ({@code
 * test_infer_schema_with_string_domain}, {@code test_infer_schema_without_string_domain}, {@code
 * test_infer_schema_with_infer_shape}, {@code test_infer_schema_composite_feature_stats}) and of
 * its C++ tests ({@code anomalies/schema_test.cc} {@code InferFeatureShape}, {@code
 * feature_statistics_validator_test.cc} {@code UpdateEmptySchema}), plus the domain rules of {@code
 * bool_domain_util.cc} and {@code int_domain_util.cc}.
 */
class SchemaInferenceTest {
    private static DatasetFeatureStatistics stats(String text) throws Exception {
        return TextFormat.parse(text, DatasetFeatureStatistics.class);
    }

    private static Schema schema(String text) throws Exception {
        return TextFormat.parse(text, Schema.class);
    }

    private static final String STRING_DOMAIN_STATS =
            """
            num_examples: 6
            features {
              path { step: 'feature1' } type: STRING
              string_stats {
                common_stats { num_missing: 3 num_non_missing: 3 min_num_values: 1 max_num_values: 1 }
                unique: 2
                rank_histogram {
                  buckets { low_rank: 0 high_rank: 0 label: "a" sample_count: 2.0 }
                  buckets { low_rank: 1 high_rank: 1 label: "b" sample_count: 1.0 } } } }
            """;

    @Test
    void aStringDomainUpToItsSize() throws Exception {
        assertEquals(
                schema(
                        """
                        feature { name: "feature1" value_count { min: 1 max: 1 }
                          presence { min_count: 1 } type: BYTES domain: "feature1" }
                        string_domain { name: "feature1" value: "a" value: "b" }
                        """),
                SchemaInference.infer(stats(STRING_DOMAIN_STATS), true, 100));
        assertEquals(
                schema(
                        """
                        feature { name: "feature1" value_count { min: 1 max: 1 }
                          presence { min_count: 1 } type: BYTES }
                        """),
                SchemaInference.infer(stats(STRING_DOMAIN_STATS), true, 1));
    }

    @Test
    void shapesWhereAlwaysPresentWithOneCount() throws Exception {
        String nested =
                """
                presence_and_valency_stats { num_missing: %1$d num_non_missing: %2$d
                  min_num_values: %3$d max_num_values: 1 }
                presence_and_valency_stats { num_missing: %1$d num_non_missing: %2$d
                  min_num_values: %3$d max_num_values: 1 }
                """;
        String feature =
                """
                features { path { step: '%s' } type: STRING
                  string_stats { common_stats { num_missing: %d num_non_missing: %d
                    min_num_values: %d max_num_values: 1 %s } unique: 3 } }
                """;
        String text =
                "num_examples: 7\n"
                        + feature.formatted("feature1", 0, 7, 1, "")
                        + feature.formatted("feature2", 2, 5, 1, "")
                        + feature.formatted("feature3", 0, 7, 0, "")
                        + feature.formatted("nested_feature1", 0, 7, 1, nested.formatted(0, 7, 1))
                        + feature.formatted("nested_feature2", 2, 5, 1, nested.formatted(2, 5, 1))
                        + feature.formatted("nested_feature3", 0, 7, 0, nested.formatted(0, 7, 0));
        assertEquals(
                schema(
                        """
                        feature { name: "feature1" shape { dim { size: 1 } }
                          presence { min_fraction: 1.0 min_count: 1 } type: BYTES }
                        feature { name: "feature2" value_count { min: 1 max: 1 }
                          presence { min_count: 1 } type: BYTES }
                        feature { name: "feature3" presence { min_fraction: 1.0 min_count: 1 }
                          type: BYTES }
                        feature { name: "nested_feature1" shape { dim { size: 1 } dim { size: 1 } }
                          presence { min_fraction: 1.0 min_count: 1 } type: BYTES }
                        feature { name: "nested_feature2"
                          value_counts { value_count { min: 1 max: 1 } value_count { min: 1 max: 1 } }
                          presence { min_count: 1 } type: BYTES }
                        feature { name: "nested_feature3" value_counts { value_count { } value_count { } }
                          presence { min_fraction: 1.0 min_count: 1 } type: BYTES }
                        """),
                SchemaInference.infer(stats(text), true, 100));
    }

    @Test
    void withoutShapeInferenceValueCountsAndTheOrderOfTheStatistics() throws Exception {
        assertEquals(
                schema(
                        """
                        feature { name: "value" value_count { min: 1 max: 1 }
                          presence { min_count: 1 } type: BYTES }
                        feature { name: "weight" value_count { min: 1 max: 1 }
                          presence { min_fraction: 1 min_count: 1 } type: FLOAT }
                        feature { name: "index" value_count { min: 1 max: 1 }
                          presence { min_fraction: 1 min_count: 1 } type: INT }
                        """),
                SchemaInference.infer(
                        stats(
                                """
                                num_examples: 4
                                features { path { step: 'value' } type: STRING
                                  string_stats { common_stats { num_non_missing: 2 num_missing: 2
                                    min_num_values: 1 max_num_values: 1 } } }
                                features { path { step: 'weight' } type: FLOAT
                                  num_stats { common_stats { num_non_missing: 4 min_num_values: 1
                                    max_num_values: 1 } } }
                                features { path { step: 'index' } type: INT
                                  num_stats { common_stats { num_non_missing: 4 min_num_values: 1
                                    max_num_values: 1 } } }
                                features { path { step: 'sparse_feature' }
                                  custom_stats { name: 'missing_value' num: 2 } }
                                """),
                        false,
                        100));
        assertEquals(
                schema(
                        """
                        feature { name: "x" type: INT shape { dim { size: 1 } }
                          presence { min_fraction: 1 min_count: 1 } }
                        """),
                SchemaInference.infer(
                        stats(
                                """
                                features { path { step: 'x' } type: INT
                                  num_stats { common_stats { num_missing: 0 num_non_missing: 10
                                    min_num_values: 1 max_num_values: 1 } min: 3 max: 9 } }
                                """),
                        true,
                        100));
    }

    @Test
    void domainsInTfdvsOrderOfChecks() throws Exception {
        Schema s =
                SchemaInference.infer(
                        stats(
                                """
                                num_examples: 2
                                features { path { step: 'annotated_enum' } type: STRING
                                  string_stats { common_stats { num_non_missing: 2 num_missing: 3
                                    min_num_values: 1 max_num_values: 1 }
                                    rank_histogram { buckets { label: "D" sample_count: 1 } } } }
                                features { path { step: 'flag' } type: INT
                                  num_stats { common_stats { num_non_missing: 2 min_num_values: 1
                                    max_num_values: 1 } min: 0 max: 1 } }
                                features { path { step: 'yes_no' } type: STRING
                                  string_stats { common_stats { num_non_missing: 2 min_num_values: 1
                                    max_num_values: 1 }
                                    rank_histogram { buckets { label: "1" } buckets { label: "0" } } } }
                                features { path { step: 'codes' } type: STRING
                                  string_stats { common_stats { num_non_missing: 2 min_num_values: 1
                                    max_num_values: 1 }
                                    rank_histogram { buckets { label: " 12" } buckets { label: "-3" } } } }
                                features { path { step: 'raw' } type: STRING
                                  string_stats { common_stats { num_non_missing: 2 min_num_values: 1
                                    max_num_values: 1 } invalid_utf8_count: 1
                                    rank_histogram { buckets { label: "a" } } } }
                                features { path { step: 'never' } type: STRING
                                  string_stats { common_stats { num_missing: 2 } } }
                                """),
                        false,
                        100);
        assertEquals(
                schema(
                        """
                        feature { name: "annotated_enum" value_count { min: 1 max: 1 } type: BYTES
                          domain: "annotated_enum" presence { min_count: 1 } }
                        feature { name: "flag" value_count { min: 1 max: 1 } type: INT
                          bool_domain { } presence { min_fraction: 1 min_count: 1 } }
                        feature { name: "yes_no" value_count { min: 1 max: 1 } type: BYTES
                          bool_domain { true_value: "1" false_value: "0" }
                          presence { min_fraction: 1 min_count: 1 } }
                        feature { name: "codes" value_count { min: 1 max: 1 } type: BYTES
                          int_domain { } presence { min_fraction: 1 min_count: 1 } }
                        feature { name: "raw" value_count { min: 1 max: 1 } type: BYTES
                          presence { min_fraction: 1 min_count: 1 } }
                        feature { name: "never" type: BYTES presence { min_count: 0 } }
                        string_domain { name: "annotated_enum" value: "D" }
                        """),
                s);
    }

    @Test
    void aSequenceExamplesFeatureListsGoIntoTheStructsDomain() throws Exception {
        // TFDV's integration_tests/sequence_example_e2e_test.py _BASIC_GOLDEN_INFERRED_SCHEMA
        assertEquals(
                schema(
                        """
                        feature { name: "context_bytes_feature" type: BYTES
                          bool_domain { true_value: "1" false_value: "0" }
                          presence { min_fraction: 1.0 min_count: 1 } shape { dim { size: 1 } } }
                        feature { name: "context_int64_feature" type: INT presence { min_count: 1 } }
                        feature { name: "example_weight" type: FLOAT
                          presence { min_fraction: 1.0 min_count: 1 } shape { dim { size: 1 } } }
                        feature { name: "label" type: FLOAT
                          presence { min_fraction: 1.0 min_count: 1 } shape { dim { size: 1 } } }
                        feature { name: "##SEQUENCE##" type: STRUCT
                          presence { min_fraction: 1.0 min_count: 1 } value_count { min: 1 max: 1 }
                          struct_domain {
                            feature { name: "sequence_float_feature"
                              value_counts { value_count { min: 1 max: 1 } value_count { min: 2 max: 2 } }
                              type: FLOAT presence { min_count: 1 } }
                            feature { name: "sequence_int64_feature"
                              value_counts { value_count { min: 1 } value_count { } }
                              type: INT presence { min_fraction: 1.0 min_count: 1 } } } }
                        """),
                SchemaInference.infer(SequenceStatisticsTest.golden(), true, 100));
    }

    @Test
    void featuresNestedDeeperThanOneStructAreRefused() throws Exception {
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                SchemaInference.infer(
                                        stats(
                                                """
                                                features { path { step: 'a' step: 'b' step: 'c' }
                                                  type: INT
                                                  num_stats { common_stats { num_non_missing: 1 } } }
                                                """),
                                        true,
                                        100));
        assertEquals(
                "feature a.b.c: features nested deeper than one STRUCT are not inferred",
                e.getMessage());
    }
}
