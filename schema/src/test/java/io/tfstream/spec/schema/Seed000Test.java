package io.tfstream.spec.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tfstream.spec.DType;
import io.tfstream.spec.DefaultValue;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.Partition;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.TestResources;
import io.tfstream.spec.VarLenFeature;
import io.tfstream.spec.json.SpecJsonReader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.tensorflow.metadata.v0.Schema;

/**
 * The schema / spec pairs of tfx-bsl's "schema interpretation" document: {@code N_*.pbtxt} next to
 * the produced spec exactly as the document prints it ({@code N_*.expected.txt}, Python text) and
 * as SPEC.json; plus the document's rules for features without explicit representations.
 */
class Seed000Test {
    private static final Path DIR = TestResources.dir("golden/seed000");

    @TestFactory
    Stream<DynamicTest> printedPairs() {
        List<Path> schemas = TestResources.files(DIR, ".pbtxt");
        assertEquals(4, schemas.size());
        return schemas.stream()
                .map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () -> check(p)));
    }

    private static void check(Path pbtxt) throws Exception {
        SchemaSpec derived = FeatureSpecFromSchema.derive(SchemaLoader.load(pbtxt));
        FeatureSpecs printed =
                PythonSpecText.parse(
                        TestResources.read(
                                TestResources.sibling(pbtxt, ".pbtxt", ".expected.txt")));
        assertEquals(printed, derived.tftFeatureSpec());
        assertEquals(
                SpecJsonReader.read(
                        TestResources.read(TestResources.sibling(pbtxt, ".pbtxt", ".spec.json")),
                        "expected"),
                derived.spec());
    }

    @Test
    void sequenceFeaturesAreFeatureListsNotContext() throws Exception {
        SchemaSpec derived =
                FeatureSpecFromSchema.derive(
                        SchemaLoader.load(DIR.resolve("4_sequence_example.pbtxt")));
        assertEquals(0, derived.sequenceSpecs().context().size());
        assertEquals(2, derived.sequenceSpecs().featureLists().size());
    }

    @Test
    void fixedShapeAlwaysPresentIsFixedLenWithoutDefault() throws Exception {
        assertEquals(
                FeatureSpecs.of(
                        Map.of(
                                "b", FixedLenFeature.required(List.of(2L, 3L), DType.STRING),
                                "i", FixedLenFeature.required(List.of(), DType.INT64),
                                "f", FixedLenFeature.required(List.of(1L), DType.FLOAT32))),
                derive(
                        "feature { name: 'b' type: BYTES shape { dim { size: 2 } dim { size: 3 } }"
                                + " presence { min_fraction: 1 } }"
                                + "feature { name: 'i' type: INT shape { } presence {"
                                + " min_fraction: 1.0 } }"
                                + "feature { name: 'f' type: FLOAT shape { dim { size: 1 } }"
                                + " presence { min_fraction: 1 min_count: 5 } }",
                        FixedLenDefaults.NONE));
    }

    @Test
    void typeAndDefaultTableIsTheLegacyOption() throws Exception {
        String schema =
                "feature { name: 'b' type: BYTES shape { dim { size: 2 } } presence {"
                        + " min_fraction: 1 } }"
                        + "feature { name: 'i' type: INT shape { } presence { min_fraction: 1 } }"
                        + "feature { name: 'f' type: FLOAT shape { dim { size: 3 } } presence {"
                        + " min_fraction: 1 } }"
                        + "feature { name: 'v' type: FLOAT }";
        assertEquals(
                FeatureSpecs.of(
                        Map.of(
                                "b",
                                FixedLenFeature.withDefault(
                                        List.of(2L),
                                        DType.STRING,
                                        DefaultValue.ofBytes(new byte[0], new byte[0])),
                                "i",
                                FixedLenFeature.withDefault(
                                        List.of(), DType.INT64, DefaultValue.ofInt64(-1)),
                                "f",
                                FixedLenFeature.withDefault(
                                        List.of(3L),
                                        DType.FLOAT32,
                                        DefaultValue.ofFloat32(-1f, -1f, -1f)),
                                "v",
                                new VarLenFeature(DType.FLOAT32))),
                derive(schema, FixedLenDefaults.LEGACY));
    }

    @Test
    void noFixedShapeIsVarLenOrRaggedWithTheFlag() throws Exception {
        String features =
                "feature { name: 'a' type: INT value_count { min: 1 max: 1 } presence {"
                        + " min_fraction: 1 } }";
        assertEquals(
                FeatureSpecs.of(Map.of("a", new VarLenFeature(DType.INT64))),
                derive(features, FixedLenDefaults.NONE));
        assertEquals(
                FeatureSpecs.of(
                        Map.of(
                                "a",
                                new RaggedFeature(
                                        DType.INT64,
                                        "a",
                                        List.<Partition>of(),
                                        RowSplitsDType.INT64))),
                derive(
                        features + " represent_variable_length_as_ragged: true",
                        FixedLenDefaults.LEGACY));
    }

    @Test
    void fixedShapeNotAlwaysPresentIsRejectedEvenWithLegacyDefaults() {
        SchemaRejectedException e =
                assertThrows(
                        SchemaRejectedException.class,
                        () ->
                                derive(
                                        "feature { name: 'x' type: INT shape { dim { size: 2 } }"
                                                + " presence { min_fraction: 0.5 } }",
                                        FixedLenDefaults.LEGACY));
        assertEquals(
                "Feature x had shape dim {\n  size: 2\n}\n set but min_fraction 0.5 != 1.  Use"
                        + " value_count not shape field when min_fraction != 1.",
                e.getMessage());
    }

    private static FeatureSpecs derive(String text, FixedLenDefaults defaults) throws Exception {
        Schema schema = SchemaLoader.parseText(text);
        return FeatureSpecFromSchema.derive(schema, defaults).exampleSpecs();
    }
}
