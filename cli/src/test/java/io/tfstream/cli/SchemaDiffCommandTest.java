package io.tfstream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tfstream schema diff OLD NEW}: output, JSON and exit codes. */
class SchemaDiffCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PRICE =
            "feature { name: 'price' type: FLOAT shape { dim { size: 1 } } presence {"
                    + " min_fraction: 1 } }\n";

    @TempDir Path tmp;

    private Path file(String name, String text) throws Exception {
        Path p = tmp.resolve(name);
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }

    private JsonNode diffJson(Path oldFile, Path newFile, int expectedExit) throws Exception {
        CliRun r = CliRun.of("schema", "diff", "--json", oldFile.toString(), newFile.toString());
        assertEquals(expectedExit, r.exitCode(), r.out() + r.err());
        assertEquals("", r.err());
        assertEquals(1, r.out().lines().count(), r.out());
        return JSON.readTree(r.out());
    }

    @Test
    void anOptionalFeatureAddedIsCompatibleAndItsRemovalToo() throws Exception {
        Path old = file("old.pbtxt", PRICE);
        Path neu = file("new.pbtxt", PRICE + "feature { name: 'tags' type: BYTES }\n");
        JsonNode j = diffJson(old, neu, 0);
        assertTrue(j.get("compatible").asBoolean());
        assertEquals(64, j.get("old_fingerprint").asText().length());
        assertFalse(j.get("old_fingerprint").equals(j.get("new_fingerprint")));
        JsonNode c = j.get("changes").get(0);
        assertEquals("tags", c.get("feature").asText());
        assertEquals("added", c.get("change").asText());
        assertTrue(c.get("old").isNull());
        assertEquals("var_len", c.get("new").get("type").asText());
        assertFalse(c.get("breaking").asBoolean());

        JsonNode back = diffJson(neu, old, 0);
        assertEquals("removed", back.get("changes").get(0).get("change").asText());
    }

    @Test
    void aDtypeChangeBreaksBothWays() throws Exception {
        Path old = file("old.pbtxt", PRICE);
        Path neu = file("new.pbtxt", PRICE.replace("FLOAT", "INT"));
        for (Path[] pair : new Path[][] {{old, neu}, {neu, old}}) {
            JsonNode j = diffJson(pair[0], pair[1], 1);
            assertFalse(j.get("compatible").asBoolean());
            JsonNode c = j.get("changes").get(0);
            assertEquals("dtype", c.get("change").asText());
            assertTrue(c.get("breaking").asBoolean());
            assertTrue(c.get("reason").asText().contains("refused"), c.toString());
        }
    }

    @Test
    void aFeatureMadeRequiredBreaksAndTheReverseDoesNot() throws Exception {
        Path optional = file("old.pbtxt", "feature { name: 'price' type: FLOAT }\n");
        Path required = file("new.pbtxt", PRICE);
        JsonNode j = diffJson(optional, required, 1);
        JsonNode c = j.get("changes").get(0);
        assertEquals("kind", c.get("change").asText());
        assertEquals("var_len", c.get("old").get("type").asText());
        assertEquals("fixed_len", c.get("new").get("type").asText());
        assertTrue(c.get("breaking").asBoolean());

        assertTrue(diffJson(required, optional, 0).get("compatible").asBoolean());
    }

    @Test
    void aSchemaAgainstASpecFileAndTheTextOutput() throws Exception {
        Path schema = file("schema.pbtxt", PRICE);
        Path spec =
                file(
                        "spec.json",
                        "{\"price\":{\"type\":\"fixed_len\",\"dtype\":\"float32\",\"shape\":[2]}}");
        CliRun r = CliRun.of("schema", "diff", schema.toString(), spec.toString());
        assertEquals(1, r.exitCode(), r.err());
        assertTrue(r.out().startsWith("BREAKING shape price: [1] -> [2] ("), r.out());
        assertTrue(r.out().contains("not compatible: 1 of 1 changes"), r.out());

        CliRun same = CliRun.of("schema", "diff", schema.toString(), schema.toString());
        assertEquals(0, same.exitCode());
        assertEquals("no changes: the two specs are equal\n", same.out());
    }

    @Test
    void aRejectedSchemaExitsThreeAndAMissingFileTwo() throws Exception {
        Path good = file("good.pbtxt", PRICE);
        Path rejected =
                file(
                        "bad.pbtxt",
                        "feature { name: 'x' type: FLOAT shape { dim { size: -3 } } presence {"
                                + " min_fraction: 1 } }\n");
        CliRun r = CliRun.of("schema", "diff", good.toString(), rejected.toString());
        assertEquals(3, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().startsWith("tfstream schema diff: " + rejected), r.err());
        assertEquals("", r.out());

        CliRun missing =
                CliRun.of("schema", "diff", good.toString(), tmp.resolve("nope.pbtxt").toString());
        assertEquals(2, missing.exitCode());
        assertTrue(missing.err().contains("no such file"), missing.err());

        assertEquals(2, CliRun.of("schema").exitCode());
    }
}
