package io.tfstream.validation;

import static io.tfstream.testkit.ProtoFeatures.floats;
import static io.tfstream.testkit.ProtoFeatures.int64s;
import static io.tfstream.testkit.ProtoFeatures.strings;
import static io.tfstream.validation.Fixtures.compiled;
import static io.tfstream.validation.Fixtures.example;
import static io.tfstream.validation.Fixtures.info;
import static io.tfstream.validation.Fixtures.types;
import static io.tfstream.validation.Fixtures.validate;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tensorflow.metadata.v0.AnomalyInfo.Type.*;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.BytesList;
import org.tensorflow.example.Feature;
import org.tensorflow.metadata.v0.AnomalyInfo;

/**
 * Golden cases G1–G11 (docs/validation.md#golden-cases), mode P: one Example validated alone, with
 * TFDV's exact reason types and texts. Where the recommended streaming behaviour differs from
 * TFDV's, both are asserted (the TFDV one with {@code tfdvRecordPresence}).
 */
class RecordGoldenTest {
    private static final String G1 =
            "string_domain { name: \"MyAloneEnum\" value: \"A\" value: \"B\" value: \"C\" }\n"
                    + "feature { name: \"annotated_enum\" value_count { min: 1 max: 1 }"
                    + " presence { min_count: 1 } type: BYTES domain: \"MyAloneEnum\" }\n";
    private static final String IGNORE_THIS =
            "feature { name: \"ignore_this\" lifecycle_stage: DEPRECATED value_count { min: 1 }"
                    + " presence { min_count: 1 } type: BYTES }\n";

    @Test
    void g1OutOfDomainString() {
        List<Finding> f =
                validate(compiled(G1 + IGNORE_THIS), example("annotated_enum", strings("D")));
        assertEquals(List.of(ENUM_TYPE_UNEXPECTED_STRING_VALUES), types(f));
        AnomalyInfo i = info(f, "annotated_enum");
        assertEquals("Unexpected string values", i.getShortDescription());
        assertEquals(
                "Examples contain values missing from the schema: D (~100%). ", i.getDescription());
        assertEquals(AnomalyInfo.Severity.ERROR, i.getSeverity());
    }

    @Test
    void g2UnknownFeature() {
        List<Finding> f =
                validate(
                        compiled(G1),
                        example("annotated_enum", strings("A"), "unknown_feature", strings("A")));
        assertEquals(List.of(SCHEMA_NEW_COLUMN), types(f));
        AnomalyInfo i = info(f, "unknown_feature");
        assertEquals("New column", i.getShortDescription());
        assertEquals("New column (column in data but not in schema)", i.getDescription());
    }

    private static final String G3 =
            "default_environment: \"TRAINING\"\ndefault_environment: \"SERVING\"\n"
                    + "feature { name: \"label\" not_in_environment: \"SERVING\""
                    + " value_count { min: 1 max: 1 } presence { min_count: 1 } type: BYTES }\n"
                    + "feature { name: \"feature\" value_count { min: 1 max: 1 }"
                    + " presence { min_count: 1 } type: BYTES }\n";

    @Test
    void g3EnvironmentsTfdvPresence() {
        ValidationOptions tfdv = ValidationOptions.defaults().withTfdvRecordPresence(true);
        List<Finding> a =
                validate(
                        compiled(G3, tfdv.withEnvironment("TRAINING")),
                        example("feature", strings("A")));
        assertEquals(List.of(SCHEMA_MISSING_COLUMN), types(a));
        assertEquals("Column dropped", info(a, "label").getShortDescription());
        assertEquals("Column is completely missing", info(a, "label").getDescription());
        assertEquals(
                List.of(),
                validate(
                        compiled(G3, tfdv.withEnvironment("SERVING")),
                        example("feature", strings("A"))));
    }

    @Test
    void g3EnvironmentsRecommended() {
        // min_count alone is judged per window, not per record (difference 1 of
        // docs/validation.md#where-tfstream-differs-from-tfdv).
        assertEquals(
                List.of(),
                validate(
                        compiled(G3, ValidationOptions.defaults().withEnvironment("TRAINING")),
                        example("feature", strings("A"))));
        List<Finding> c =
                validate(
                        compiled(G3, ValidationOptions.defaults().withEnvironment("SERVING")),
                        example("feature", strings("A"), "label", strings("yes")));
        assertEquals(List.of(SCHEMA_NEW_COLUMN), types(c));
        assertEquals("Column missing in environment", info(c, "label").getShortDescription());
        assertEquals(
                "New column label found in data but not in the environment SERVING in the schema.",
                info(c, "label").getDescription());
    }

    @Test
    void g3UnknownEnvironmentIsRejected() {
        SchemaLintException e =
                assertThrows(
                        SchemaLintException.class,
                        () ->
                                compiled(
                                        G3,
                                        ValidationOptions.defaults().withEnvironment("INVALID")));
        assertTrue(e.getMessage().startsWith("Environment INVALID not found in the schema."));
    }

    @Test
    void g4DeprecatedFeaturesAreIgnored() {
        ValidationSchema s =
                compiled(
                        G1
                                + IGNORE_THIS
                                + "feature { name: \"future_feat\" lifecycle_stage: PLANNED"
                                + " presence { min_fraction: 1.0 min_count: 1 } type: INT }\n",
                        ValidationOptions.defaults().withTfdvRecordPresence(true));
        assertEquals(List.of(), validate(s, example("annotated_enum", strings("A"))));
        assertEquals(
                List.of(),
                validate(
                        s,
                        example(
                                "annotated_enum", strings("B"),
                                "ignore_this", int64s(1, 2, 3),
                                "future_feat", strings("x"))));
    }

    private static final String G5 =
            "feature { name: \"age\" type: INT int_domain { min: 0 max: 120 } presence { min_count: 1 } }\n"
                    + "feature { name: \"score\" type: FLOAT float_domain { min: 0 max: 1 } }\n";

    @Test
    void g5NumericTypeMismatch() {
        List<Finding> a = validate(compiled(G5), example("age", floats(30.5f)));
        assertEquals(List.of(UNEXPECTED_DATA_TYPE), types(a));
        assertEquals("Unexpected data type", info(a, "age").getShortDescription());
        assertEquals("Expected data of type: INT but got FLOAT", info(a, "age").getDescription());
        List<Finding> b = validate(compiled(G5), example("age", int64s(30), "score", int64s(1)));
        assertEquals(List.of(UNEXPECTED_DATA_TYPE), types(b));
        assertEquals("Expected data of type: FLOAT but got INT", info(b, "score").getDescription());
    }

    @Test
    void g6NonIntStrings() {
        List<Finding> f =
                validate(
                        compiled(
                                "feature { name: \"qty\" type: INT int_domain { min: 1 max: 10 } }"),
                        example("qty", strings("abc")));
        assertEquals(List.of(UNEXPECTED_DATA_TYPE, INT_TYPE_NOT_INT_STRING), types(f));
        assertEquals("Invalid values", f.get(1).shortDescription());
        assertEquals(
                "String values that were not ints were found, such as \"abc\".",
                f.get(1).description());
        AnomalyInfo i = info(f, "qty");
        assertEquals("Multiple errors", i.getShortDescription());
        assertEquals(
                "Expected data of type: INT but got STRING String values that were not ints were"
                        + " found, such as \"abc\".",
                i.getDescription());
    }

    @Test
    void g7IntDomainRange() {
        ValidationSchema s =
                compiled("feature { name: \"hour\" type: INT int_domain { min: 0 max: 23 } }");
        List<Finding> a = validate(s, example("hour", int64s(24)));
        assertEquals(List.of(INT_TYPE_BIG_INT), types(a));
        assertEquals("Out-of-range values", a.get(0).shortDescription());
        assertEquals("Unexpectedly large value: 24.", a.get(0).description());
        List<Finding> b = validate(s, example("hour", int64s(-1)));
        assertEquals("Unexpectedly small value: -1.", b.get(0).description());
        List<Finding> c = validate(s, example("hour", int64s(5, 30, -2)));
        assertEquals(List.of(INT_TYPE_SMALL_INT, INT_TYPE_BIG_INT), types(c));
        assertEquals("Multiple errors", info(c, "hour").getShortDescription());
        assertEquals(
                "Unexpectedly small value: -2. Unexpectedly large value: 30.",
                info(c, "hour").getDescription());
        assertEquals(List.of(), validate(s, example("hour", int64s(0, 23))));
    }

    private static final String G8 =
            "feature { name: \"price\" type: FLOAT float_domain { min: 0 max: 1000"
                    + " disallow_nan: true disallow_inf: true } }";

    @Test
    void g8FloatDomain() {
        ValidationSchema s = compiled(G8);
        List<Finding> a = validate(s, example("price", floats(Float.NaN, 5f)));
        assertEquals(List.of(FLOAT_TYPE_HAS_NAN), types(a));
        assertEquals("Invalid values", a.get(0).shortDescription());
        assertEquals("Float feature has NaN values.", a.get(0).description());
        List<Finding> b = validate(s, example("price", floats(1500f)));
        assertEquals(List.of(FLOAT_TYPE_BIG_FLOAT), types(b));
        assertEquals("Out-of-range values", b.get(0).shortDescription());
        assertEquals(
                "Unexpectedly high value: 1500>1000(upto six significant digits)",
                b.get(0).description());
        List<Finding> c = validate(s, example("price", floats(Float.POSITIVE_INFINITY)));
        assertEquals(List.of(FLOAT_TYPE_BIG_FLOAT, FLOAT_TYPE_HAS_INF), types(c));
        assertEquals(
                "Unexpectedly high value: inf>1000(upto six significant digits)",
                c.get(0).description());
        assertEquals("Float feature has Inf values.", c.get(1).description());
        assertEquals("Multiple errors", info(c, "price").getShortDescription());
        assertEquals(List.of(), validate(s, example("price", floats(0f, 999.5f))));
        ValidationSchema nanAllowed = compiled(G8.replace("disallow_nan: true ", ""));
        assertEquals(List.of(), validate(nanAllowed, example("price", floats(Float.NaN, 5f))));
    }

    private static final String G9 =
            "feature { name: \"tags\" type: BYTES value_count { min: 1 max: 3 } }\n"
                    + "feature { name: \"emb\" type: FLOAT shape { dim { size: 3 } } }\n";

    @Test
    void g9ValueCountsAndShape() {
        ValidationSchema s = compiled(G9);
        Feature emptyList =
                Feature.newBuilder().setBytesList(BytesList.getDefaultInstance()).build();
        List<Finding> a = validate(s, example("tags", emptyList, "emb", floats(1, 2, 3)));
        assertEquals(List.of(FEATURE_TYPE_LOW_NUMBER_VALUES), types(a));
        assertEquals("Missing values", a.get(0).shortDescription());
        assertEquals("Some examples have fewer values than expected.", a.get(0).description());
        List<Finding> b =
                validate(s, example("tags", strings("a", "b", "c", "d"), "emb", floats(1, 2, 3)));
        assertEquals(List.of(FEATURE_TYPE_HIGH_NUMBER_VALUES), types(b));
        assertEquals("Superfluous values", b.get(0).shortDescription());
        assertEquals("Some examples have more values than expected.", b.get(0).description());
        List<Finding> c = validate(s, example("tags", strings("a"), "emb", floats(0.1f, 0.2f)));
        assertEquals(List.of(INVALID_FEATURE_SHAPE), types(c));
        assertEquals("Feature shape dropped", c.get(0).shortDescription());
        assertEquals(
                "The feature has fixed value length 2 but it's not compatible with the specified"
                        + " shape.",
                c.get(0).description());
        assertEquals(
                List.of(),
                validate(s, example("tags", strings("a", "b"), "emb", floats(0.1f, 0.2f, 0.3f))));
    }

    @Test
    void g10BoolDomainOnBytes() {
        ValidationSchema s =
                compiled(
                        "feature { name: \"flag\" type: BYTES"
                                + " bool_domain { true_value: \"yes\" false_value: \"no\" } }");
        List<Finding> a = validate(s, example("flag", strings("maybe")));
        assertEquals(List.of(BOOL_TYPE_UNEXPECTED_STRING), types(a));
        assertEquals("Non-boolean values", a.get(0).shortDescription());
        assertEquals(
                "Saw unexpected value \"maybe\" instead of {\"no\", \"yes\"}.",
                a.get(0).description());
        assertEquals(List.of(), validate(s, example("flag", strings("yes"))));
    }

    @Test
    void g11SparseLengthMismatch() {
        ValidationSchema s =
                compiled(
                        "feature { name: \"idx\" type: INT }\n"
                                + "feature { name: \"val\" type: FLOAT }\n"
                                + "sparse_feature { name: \"sp\" index_feature { name: \"idx\" }"
                                + " value_feature { name: \"val\" } }");
        List<Finding> a = validate(s, example("idx", int64s(0, 3), "val", floats(1.5f)));
        assertEquals(
                List.of(SPARSE_FEATURE_LENGTH_MISMATCH, SPARSE_FEATURE_LENGTH_MISMATCH), types(a));
        assertEquals(
                "Mismatch between index feature: idx and value column, with max_length_diff = 1",
                a.get(0).description());
        assertEquals(
                "Mismatch between index feature: idx and value column, with min_length_diff = 1",
                a.get(1).description());
        assertEquals("Multiple errors", info(a, "sp").getShortDescription());
        assertEquals(
                List.of(), validate(s, example("idx", int64s(0, 3), "val", floats(1.5f, 2.5f))));
    }
}
