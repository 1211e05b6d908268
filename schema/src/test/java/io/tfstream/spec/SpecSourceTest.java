package io.tfstream.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.spec.schema.FixedLenDefaults;
import io.tfstream.spec.schema.SchemaLoader;
import io.tfstream.spec.schema.SchemaRejectedException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link SpecSource} takes a text or binary schema, or SPEC.json / SEQSPEC.json. */
class SpecSourceTest {
    private static final String SCHEMA =
            "feature { name: 'x' type: INT shape { dim { size: 2 } } presence { min_fraction: 1 }"
                    + " }\nfeature { name: 'y' type: BYTES }\n";
    private static final FeatureSpecs EXPECTED =
            FeatureSpecs.of(
                    Map.of(
                            "x",
                            FixedLenFeature.required(List.of(2L), DType.INT64),
                            "y",
                            new VarLenFeature(DType.STRING)));

    @TempDir Path tmp;

    @Test
    void textBinaryAndJsonGiveTheSameSpec() throws Exception {
        Path text = write("schema.pbtxt", SCHEMA.getBytes(StandardCharsets.UTF_8));
        Path binary = write("schema.pb", SchemaLoader.parseText(SCHEMA).toByteArray());
        Path binaryNoSuffix = write("schema", SchemaLoader.parseText(SCHEMA).toByteArray());
        Path textNoSuffix = write("schema_txt", SCHEMA.getBytes(StandardCharsets.UTF_8));
        Path json = write("spec", SpecJsonWriter.write(EXPECTED).getBytes(StandardCharsets.UTF_8));
        for (Path p : List.of(text, binary, binaryNoSuffix, textNoSuffix, json)) {
            assertEquals(EXPECTED, SpecSource.load(p), p.toString());
            assertEquals(EXPECTED, SpecSource.loadExampleSpecs(p), p.toString());
        }
    }

    @Test
    void legacyDefaultsApplyToSchemasOnly() throws Exception {
        Path text = write("schema.pbtxt", SCHEMA.getBytes(StandardCharsets.UTF_8));
        FeatureSpecs legacy = SpecSource.loadExampleSpecs(text, FixedLenDefaults.LEGACY);
        assertEquals(
                FixedLenFeature.withDefault(List.of(2L), DType.INT64, DefaultValue.ofInt64(-1, -1)),
                legacy.get("x"));
    }

    @Test
    void sequenceAndExampleAreNotMixedUp() throws Exception {
        Path seq =
                write(
                        "seq.json",
                        ("{\"context\": {}, \"feature_lists\": {\"s\": {\"type\": \"var_len\","
                                        + " \"dtype\": \"int64\"}}}")
                                .getBytes(StandardCharsets.UTF_8));
        assertEquals(1, SpecSource.loadSequenceSpecs(seq).featureLists().size());
        SpecRejectedException e =
                assertThrows(SpecRejectedException.class, () -> SpecSource.loadExampleSpecs(seq));
        assertTrue(e.getMessage().contains("SequenceExample"), e.getMessage());
        Path text = write("schema.pbtxt", SCHEMA.getBytes(StandardCharsets.UTF_8));
        assertThrows(SpecRejectedException.class, () -> SpecSource.loadSequenceSpecs(text));
    }

    @Test
    void errorsSayWhichFileAndWhy() throws Exception {
        Path bad = write("bad.pbtxt", "feature { nam: 'x' }".getBytes(StandardCharsets.UTF_8));
        MalformedSpecFileException e =
                assertThrows(MalformedSpecFileException.class, () -> SpecSource.load(bad));
        assertTrue(
                e.getMessage().startsWith("bad.pbtxt: not a text-format Schema: 1:11:"),
                e.getMessage());
        Path garbage = write("garbage", new byte[] {(byte) 0xff, 0x01, 0x02});
        MalformedSpecFileException g =
                assertThrows(MalformedSpecFileException.class, () -> SpecSource.load(garbage));
        assertTrue(g.getMessage().startsWith("garbage: not a binary Schema proto"), g.getMessage());
        Path rejected = write("r.pbtxt", "feature { name: 'x' }".getBytes(StandardCharsets.UTF_8));
        SchemaRejectedException r =
                assertThrows(SchemaRejectedException.class, () -> SpecSource.load(rejected));
        assertEquals("The feature_type: 0 is not supported. (feature 'x')", r.getMessage());
        assertThrows(NoSuchFileException.class, () -> SpecSource.load(tmp.resolve("absent")));
    }

    private Path write(String name, byte[] content) throws Exception {
        Path p = tmp.resolve(name);
        Files.write(p, content);
        return p;
    }
}
