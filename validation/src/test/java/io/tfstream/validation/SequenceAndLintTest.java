package io.tfstream.validation;

import static io.tfstream.testkit.ProtoFeatures.floats;
import static io.tfstream.testkit.ProtoFeatures.int64s;
import static io.tfstream.testkit.ProtoFeatures.strings;
import static io.tfstream.validation.Fixtures.compiled;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.tensorflow.metadata.v0.AnomalyInfo.Type.*;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.FeatureList;
import org.tensorflow.example.FeatureLists;
import org.tensorflow.example.Features;
import org.tensorflow.example.SequenceExample;

/**
 * SequenceExample validation (docs/validation.md#sequenceexamples: feature lists under {@code
 * ##SEQUENCE##} at nest level 2), malformed records, and schema lint (tier S,
 * docs/validation.md#validation-tiers).
 */
class SequenceAndLintTest {
    private static final String SEQ =
            "feature { name: \"ctx\" type: BYTES value_count { min: 1 max: 1 } }\n"
                    + "feature { name: \"##SEQUENCE##\" type: STRUCT struct_domain {\n"
                    + "  feature { name: \"clicks\" type: INT value_counts { value_count { min: 1 max: 3 }"
                    + " value_count { min: 1 max: 1 } } int_domain { min: 0 } }\n"
                    + "  feature { name: \"flat\" type: FLOAT value_count { min: 1 } }\n"
                    + "} }\n";

    private static List<Finding> validate(ValidationSchema s, SequenceExample e) {
        byte[] b = e.toByteArray();
        RecordResult r =
                new RecordValidator(s).validateSequenceExample(b, 0, b.length, new RecordResult());
        assertEquals(RecordResult.Status.OK, r.status());
        return r.findings(s);
    }

    private static SequenceExample seq(
            String ctx, FeatureList clicks, FeatureList other, String otherName) {
        FeatureLists.Builder lists = FeatureLists.newBuilder().putFeatureList("clicks", clicks);
        if (other != null) {
            lists.putFeatureList(otherName, other);
        }
        return SequenceExample.newBuilder()
                .setContext(Features.newBuilder().putFeature("ctx", strings(ctx.split(","))))
                .setFeatureLists(lists)
                .build();
    }

    @Test
    void featureListsAreCheckedPerNestLevel() {
        ValidationSchema s = compiled(SEQ);
        FeatureList ok =
                FeatureList.newBuilder().addFeature(int64s(1)).addFeature(int64s(2)).build();
        FeatureList flat = FeatureList.newBuilder().addFeature(floats(1f)).build();
        assertEquals(List.of(), validate(s, seq("a", ok, null, null)));
        FeatureList tooLong =
                FeatureList.newBuilder()
                        .addFeature(int64s(1, 2))
                        .addFeature(int64s(-1))
                        .addFeature(int64s(1))
                        .addFeature(int64s(1))
                        .build();
        List<Finding> f = validate(s, seq("a,b", tooLong, flat, "flat"));
        assertEquals(
                List.of(
                        FEATURE_TYPE_HIGH_NUMBER_VALUES,
                        FEATURE_TYPE_HIGH_NUMBER_VALUES,
                        FEATURE_TYPE_HIGH_NUMBER_VALUES,
                        INT_TYPE_SMALL_INT,
                        VALUE_NESTEDNESS_MISMATCH),
                Fixtures.types(f));
        assertEquals("ctx", f.get(0).path().serialized());
        assertEquals("##SEQUENCE##.clicks", f.get(1).path().serialized());
        assertEquals(
                "Some examples have more values than expected at nestedness level 0.",
                f.get(1).description());
        assertEquals(
                "Some examples have more values than expected at nestedness level 1.",
                f.get(2).description());
        assertEquals("##SEQUENCE##.flat", f.get(4).path().serialized());
    }

    @Test
    void unknownFeatureListIsANewColumn() {
        ValidationSchema s = compiled(SEQ);
        FeatureList ok = FeatureList.newBuilder().addFeature(int64s(1)).build();
        List<Finding> f = validate(s, seq("a", ok, ok, "mystery"));
        assertEquals(List.of(SCHEMA_NEW_COLUMN), Fixtures.types(f));
        assertEquals("##SEQUENCE##.mystery", f.get(0).path().serialized());
        ValidationSchema noLists = compiled("feature { name: \"ctx\" type: BYTES }");
        List<Finding> g = validate(noLists, seq("a", ok, ok, "mystery"));
        assertEquals(List.of(SCHEMA_NEW_COLUMN), Fixtures.types(g));
        assertEquals("##SEQUENCE##", g.get(0).path().serialized());
    }

    @Test
    void malformedRecordIsReportedNotThrown() {
        ValidationSchema s = compiled("feature { name: \"x\" type: INT }");
        byte[] bad = {0x0a, 0x05, 0x0a, 0x03, 0x0a, 0x01};
        RecordResult r =
                new RecordValidator(s).validateExample(bad, 0, bad.length, new RecordResult());
        assertEquals(RecordResult.Status.MALFORMED, r.status());
        assertEquals(0, r.count());
    }

    @Test
    void lintFindsSchemaProblems() {
        ValidationSchema s =
                compiled(
                        "feature { name: \"a\" type: INT string_domain { value: \"x\" value: \"x\" } }\n"
                                + "feature { name: \"b\" }\n"
                                + "feature { name: \"c\" type: BYTES domain: \"nope\" }\n"
                                + "feature { name: \"d\" type: FLOAT unique_constraints { min: 1 max: 2 } }\n"
                                + "feature { name: \"sp\" type: INT }\n"
                                + "sparse_feature { name: \"sp\" value_feature { name: \"a\" } }\n");
        List<String> got =
                s.lintFindings().stream()
                        .map(f -> f.path() + ":" + f.type() + ":" + f.description())
                        .toList();
        assertEquals(
                List.of(
                        "a:DOMAIN_INVALID_FOR_TYPE:The domain \"string_domain\" does not match the type: INT",
                        "a:INVALID_DOMAIN_SPECIFICATION:Repeated values in StringDomain:x",
                        "b:FEATURE_MISSING_TYPE:unspecified type: determine the type and set it,"
                                + " rather than deprecating.",
                        "c:INVALID_SCHEMA_SPECIFICATION:missing domain: nope",
                        "d:FEATURE_TYPE_NO_UNIQUE:UniqueConstraints specified for the feature, but"
                                + " unique values were not counted (i.e., feature is not string or"
                                + " categorical).",
                        "sp:SPARSE_FEATURE_NAME_COLLISION:Sparse feature name collision."),
                got);
    }

    @Test
    void duplicateFeatureNamesAreFatal() {
        SchemaLintException e =
                assertThrows(
                        SchemaLintException.class,
                        () ->
                                compiled(
                                        "feature { name: \"x\" type: INT } feature { name: \"x\" type: FLOAT }"));
        assertEquals(
                "feature 'x' is declared twice; every feature name must be unique", e.getMessage());
    }
}
