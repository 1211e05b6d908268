package io.tfstream.spec.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.spec.MalformedSpecFileException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.metadata.v0.Schema;

/** Text and binary schemas, detected by name or content. */
class SchemaLoaderTest {
    private static final String TEXT =
            "# written by tfdv.write_schema_text\n"
                    + "feature {\n  name: \"x\"  # the label\n  type: INT\n}\n"
                    + "string_domain { name: \"d\" value: \"é\" }\n";

    @TempDir Path tmp;

    @Test
    void textWithCommentsAndUnicode() throws Exception {
        Schema s = SchemaLoader.load(write("schema.pbtxt", TEXT.getBytes(StandardCharsets.UTF_8)));
        assertEquals("x", s.getFeature(0).getName());
        assertEquals("é", s.getStringDomain(0).getValue(0));
    }

    @Test
    void binaryByNameOrByContent() throws Exception {
        byte[] binary = SchemaLoader.parseText(TEXT).toByteArray();
        Schema expected = SchemaLoader.parseText(TEXT);
        assertEquals(expected, SchemaLoader.load(write("schema.pb", binary)));
        assertEquals(expected, SchemaLoader.load(write("schema.bin", binary)));
        assertEquals(expected, SchemaLoader.parse(binary, "in memory"));
    }

    @Test
    void suffixForcesTheFormat() throws Exception {
        byte[] binary = SchemaLoader.parseText(TEXT).toByteArray();
        MalformedSpecFileException asText =
                assertThrows(
                        MalformedSpecFileException.class,
                        () -> SchemaLoader.load(write("binary.pbtxt", binary)));
        assertTrue(asText.getMessage().contains("binary.pbtxt: not a text-format Schema"));
        MalformedSpecFileException asBinary =
                assertThrows(
                        MalformedSpecFileException.class,
                        () ->
                                SchemaLoader.load(
                                        write("text.pb", TEXT.getBytes(StandardCharsets.UTF_8))));
        assertTrue(asBinary.getMessage().contains("text.pb: not a binary Schema proto"));
    }

    @Test
    void unknownTextFieldsAreRejectedWithTheirPosition() throws Exception {
        Path p =
                write(
                        "legacy.pbtxt",
                        "generate_legacy_feature_spec: false\n".getBytes(StandardCharsets.UTF_8));
        MalformedSpecFileException e =
                assertThrows(MalformedSpecFileException.class, () -> SchemaLoader.load(p));
        assertTrue(e.getMessage().contains("1:1"), e.getMessage());
        assertTrue(e.getMessage().contains("generate_legacy_feature_spec"), e.getMessage());
    }

    private Path write(String name, byte[] content) throws Exception {
        Path p = tmp.resolve(name);
        Files.write(p, content);
        return p;
    }
}
