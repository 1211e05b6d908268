package io.tfstream.parse.example;

import static io.tfstream.parse.GoldenCases.fixed;
import static io.tfstream.parse.GoldenCases.specs;
import static io.tfstream.parse.GoldenCases.varLen;
import static io.tfstream.spec.DType.FLOAT32;
import static io.tfstream.spec.DType.INT64;
import static io.tfstream.spec.DType.STRING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tfstream.parse.wire.RawKey;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SparseFeature;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Spec lowering as Python's {@code _ParseOpParams.from_features}, with its ValueError texts. */
class ExampleParsePlanTest {

    private static String rejected(FeatureSpecs s) {
        return assertThrows(IllegalArgumentException.class, () -> ExampleParsePlan.lower(s))
                .getMessage();
    }

    @Test
    void rawKeysInSortedOrderByKind() {
        ExampleParsePlan p =
                ExampleParsePlan.lower(
                        specs(
                                "z", fixed(INT64),
                                "sp",
                                        new SparseFeature(
                                                List.of("j", "i"),
                                                "val",
                                                STRING,
                                                List.of(3L, 4L),
                                                false),
                                "a", fixed(FLOAT32),
                                "r",
                                        new RaggedFeature(
                                                INT64, "rv", List.of(), RowSplitsDType.INT64),
                                "i", varLen(INT64)));
        assertEquals(List.of("a", "z"), names(p.dense));
        assertEquals(List.of("i", "j", "val"), names(p.sparse));
        assertEquals(List.of("rv"), names(p.ragged));
    }

    private static List<String> names(List<RawKey> keys) {
        return keys.stream().map(k -> k.name).toList();
    }

    @Test
    void emptySpec() {
        assertEquals("Missing: features was {}.", rejected(FeatureSpecs.empty()));
    }

    @Test
    void sharedSparseKeyMustAgreeOnType() {
        assertEquals(
                "Conflicting type <dtype: 'float32'> vs <dtype: 'int64'> for feature idx.",
                rejected(
                        specs(
                                "idx",
                                varLen(FLOAT32),
                                "sp",
                                new SparseFeature(
                                        List.of("idx"), "val", STRING, List.of(5L), false))));
    }

    @Test
    void keyKindsMustNotIntersect() {
        assertEquals(
                "Dense and sparse keys must not intersect; intersection: {'x'}",
                rejected(
                        specs(
                                "x",
                                fixed(INT64),
                                "sp",
                                new SparseFeature(List.of("i"), "x", INT64, List.of(5L), false))));
        assertEquals(
                "Dense and ragged keys must not intersect; intersection: {'x'}",
                rejected(
                        specs(
                                "x",
                                fixed(INT64),
                                "r",
                                new RaggedFeature(INT64, "x", List.of(), RowSplitsDType.INT32))));
    }
}
