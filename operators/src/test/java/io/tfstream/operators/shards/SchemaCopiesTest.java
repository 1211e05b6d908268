package io.tfstream.operators.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.shards.ShardLayout;
import io.tfstream.spec.SchemaFingerprint;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The schema copy beside the shards: TFMD text named by fingerprint, written once. */
class SchemaCopiesTest {
    @TempDir Path base;

    @Test
    void aSchemaIsCopiedAsTextUnderItsFingerprintOnce() throws Exception {
        byte[] schema =
                "# a comment\nfeature { name: 'x'  type: INT }\nfeature { name: \"y\" type: BYTES }\n"
                        .getBytes(StandardCharsets.UTF_8);
        String fingerprint = SchemaFingerprint.of(schema, "schema.pbtxt");
        assertTrue(
                SchemaCopies.write(base.toUri().toString(), fingerprint, schema, "schema.pbtxt"));
        Path copy = base.resolve(ShardLayout.schemaPath(fingerprint));
        String text = Files.readString(copy);
        assertEquals(
                "feature {\n  name: \"x\"\n  type: INT\n}\nfeature {\n  name: \"y\"\n  type: BYTES\n}\n",
                text,
                "protobuf's text format, comments and spacing of the file gone");
        assertEquals(
                fingerprint,
                SchemaFingerprint.of(text.getBytes(StandardCharsets.UTF_8), "schema.pbtxt"),
                "the copy has the fingerprint it is named by");
        long written = Files.getLastModifiedTime(copy).toMillis();
        Files.setLastModifiedTime(
                copy, java.nio.file.attribute.FileTime.fromMillis(written - 60_000));
        assertTrue(
                SchemaCopies.write(base.toUri().toString(), fingerprint, schema, "schema.pbtxt"));
        assertEquals(written - 60_000, Files.getLastModifiedTime(copy).toMillis(), "not rewritten");
    }

    @Test
    void aFeatureSpecIsNoSchemaAndGetsNoCopy() throws Exception {
        byte[] spec =
                "{\"x\": {\"type\": \"VarLenFeature\", \"dtype\": \"int64\"}}"
                        .getBytes(StandardCharsets.UTF_8);
        assertFalse(SchemaCopies.write(base.toUri().toString(), "f", spec, "spec.json"));
        assertFalse(Files.exists(base.resolve(ShardLayout.METADATA_DIR)));
    }

    /**
     * A copy planted under a fingerprint that is not its own is not trusted: readers see it as
     * unverified, and the next write replaces it with the schema of that fingerprint.
     */
    @Test
    void aCopyThatIsNotItsFingerprintsSchemaIsRefusedAndReplaced() throws Exception {
        byte[] schema = "feature { name: 'x' type: INT }\n".getBytes(StandardCharsets.UTF_8);
        String fingerprint = SchemaFingerprint.of(schema, "schema.pbtxt");
        String uri = base.toUri().toString();
        Path copy = base.resolve(ShardLayout.schemaPath(fingerprint));
        Files.createDirectories(copy.getParent());
        Files.writeString(copy, "feature { name: 'planted' type: BYTES }\n");
        assertFalse(SchemaCopies.verified(uri, fingerprint), "a planted schema");
        Files.writeString(copy, "feature { name: ");
        assertFalse(SchemaCopies.verified(uri, fingerprint), "a copy cut short");
        assertTrue(SchemaCopies.write(uri, fingerprint, schema, "schema.pbtxt"));
        assertTrue(SchemaCopies.verified(uri, fingerprint), "replaced by the real schema");
        assertEquals(
                fingerprint,
                SchemaFingerprint.of(Files.readAllBytes(copy), "schema.pbtxt"),
                "the copy now has its name's fingerprint");
        assertFalse(SchemaCopies.verified(uri, "0".repeat(64)), "no copy at all");
    }
}
