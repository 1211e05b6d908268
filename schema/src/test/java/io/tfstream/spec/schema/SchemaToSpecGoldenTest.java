package io.tfstream.spec.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.google.protobuf.Message;
import com.google.protobuf.TextFormat;
import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.TestResources;
import io.tfstream.spec.json.SpecJsonReader;
import io.tfstream.spec.json.SpecJsonWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.tensorflow.metadata.v0.FloatDomain;
import org.tensorflow.metadata.v0.IntDomain;
import org.tensorflow.metadata.v0.Schema;
import org.tensorflow.metadata.v0.StringDomain;

/**
 * The schema → feature spec golden cases (tensorflow_transform {@code schema_utils_test_cases},
 * tfx-bsl {@code tensor_representation_util_test}) as files: {@code NAME.pbtxt} with either {@code
 * NAME.spec.json} (the SPEC.json / SEQSPEC.json {@code tfstream spec} prints, every field written)
 * or {@code NAME.error.txt} (upstream's message); {@code NAME.tft.json} is TFT's merged dict for
 * SequenceExample schemas and {@code NAME.domains.txt} the expected domains.
 */
class SchemaToSpecGoldenTest {
    private static final Path DIR = TestResources.dir("golden/schema-to-spec");
    private static final ObjectMapper JSON =
            JsonMapper.builder()
                    .enable(
                            com.fasterxml.jackson.databind.DeserializationFeature
                                    .USE_BIG_DECIMAL_FOR_FLOATS)
                    .build();

    @TestFactory
    Stream<DynamicTest> goldenCases() {
        List<Path> schemas = TestResources.files(DIR, ".pbtxt");
        return schemas.stream()
                .map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () -> check(p)));
    }

    @Test
    void everyGoldenCaseIsPresent() {
        List<Path> schemas = TestResources.files(DIR, ".pbtxt");
        for (int s = 1; s <= 44; s++) {
            if (s == 38) {
                continue; // a TensorRepresentation-level case: TensorRepresentationsTest
            }
            String prefix = String.format("S%02d", s);
            assertTrue(
                    schemas.stream().anyMatch(p -> p.getFileName().toString().startsWith(prefix)),
                    "no golden file for " + prefix);
        }
    }

    private static void check(Path pbtxt) throws Exception {
        Schema schema = SchemaLoader.load(pbtxt);
        Path error = TestResources.sibling(pbtxt, ".pbtxt", ".error.txt");
        if (Files.exists(error)) {
            SchemaRejectedException e =
                    assertThrows(
                            SchemaRejectedException.class,
                            () -> FeatureSpecFromSchema.derive(schema));
            assertEquals(TestResources.read(error).strip(), e.reason());
            assertTrue(
                    e.getMessage().contains(e.feature()),
                    "message names the feature: " + e.getMessage());
            return;
        }
        SchemaSpec derived = FeatureSpecFromSchema.derive(schema);
        String expectedJson =
                TestResources.read(TestResources.sibling(pbtxt, ".pbtxt", ".spec.json"));
        ParseSpec expected = SpecJsonReader.read(expectedJson, "expected");
        assertEquals(expected, derived.spec());

        String written = SpecJsonWriter.write(derived.spec());
        assertFalse(written.contains("\n"), "one line");
        assertEquals(JSON.readTree(expectedJson), JSON.readTree(written), "SPEC.json text");
        assertEquals(derived.spec(), SpecJsonReader.read(written, "written"));

        Path tft = TestResources.sibling(pbtxt, ".pbtxt", ".tft.json");
        if (Files.exists(tft)) {
            assertTrue(derived.spec().isSequence());
            assertEquals(
                    SpecJsonReader.read(TestResources.read(tft), "tft"), derived.tftFeatureSpec());
        } else {
            assertEquals(derived.spec(), derived.tftFeatureSpec());
        }

        Path domains = TestResources.sibling(pbtxt, ".pbtxt", ".domains.txt");
        Map<String, Message> expectedDomains = new LinkedHashMap<>();
        if (Files.exists(domains)) {
            for (String line : TestResources.read(domains).strip().split("\n")) {
                String[] parts = line.split("\t", 3);
                expectedDomains.put(parts[0], domain(parts[1], parts[2]));
            }
        }
        assertEquals(expectedDomains, derived.domains());
    }

    private static Message domain(String type, String text) throws TextFormat.ParseException {
        Message.Builder b;
        switch (type) {
            case "IntDomain":
                b = IntDomain.newBuilder();
                break;
            case "FloatDomain":
                b = FloatDomain.newBuilder();
                break;
            case "StringDomain":
                b = StringDomain.newBuilder();
                break;
            default:
                throw new IllegalArgumentException("unknown domain type " + type);
        }
        TextFormat.merge(text, b);
        return b.build();
    }
}
