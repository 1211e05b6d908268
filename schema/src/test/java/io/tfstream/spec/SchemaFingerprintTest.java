package io.tfstream.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.tfstream.spec.json.SpecJsonWriter;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tensorflow.metadata.v0.Feature;
import org.tensorflow.metadata.v0.FeatureType;
import org.tensorflow.metadata.v0.Schema;

/** The fingerprint depends on the schema's content, not on how the file is written. */
class SchemaFingerprintTest {
    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void textFormattingAndCommentsDoNotChangeIt() throws Exception {
        String a = SchemaFingerprint.of(utf8("feature { name: \"x\" type: INT }"), "s.pbtxt");
        String b =
                SchemaFingerprint.of(
                        utf8("# the schema\nfeature {\n  name: 'x'\n  type: INT\n}\n"), "s.pbtxt");
        assertEquals(a, b);
        assertEquals(64, a.length());
        assertEquals(a.toLowerCase(), a);
        assertNotEquals(
                a, SchemaFingerprint.of(utf8("feature { name: \"y\" type: INT }"), "s.pbtxt"));
    }

    @Test
    void aSchemaIsHashedAsItsDeterministicSerialization() throws Exception {
        Schema s =
                Schema.newBuilder()
                        .addFeature(Feature.newBuilder().setName("x").setType(FeatureType.INT))
                        .build();
        String expected =
                HexFormat.of()
                        .formatHex(MessageDigest.getInstance("SHA-256").digest(s.toByteArray()));
        assertEquals(expected, SchemaFingerprint.of(s));
        assertEquals(expected, SchemaFingerprint.of(s.toByteArray(), "schema.pb"));
    }

    @Test
    void aSpecIsHashedAsItsCanonicalJson() throws Exception {
        FeatureSpecs spec =
                FeatureSpecs.of(
                        Map.<String, FeatureSpec>of(
                                "b",
                                new VarLenFeature(DType.STRING),
                                "a",
                                FixedLenFeature.required(List.of(), DType.INT64)));
        String canonical = SpecJsonWriter.write(spec);
        String spaced = "  " + canonical.replace(",", " ,\n ") + "\n";
        assertEquals(
                SchemaFingerprint.of(utf8(canonical), "spec.json"),
                SchemaFingerprint.of(utf8(spaced), "spec.json"));
        String expected =
                HexFormat.of()
                        .formatHex(MessageDigest.getInstance("SHA-256").digest(utf8(canonical)));
        assertEquals(expected, SchemaFingerprint.of(utf8(canonical), "spec.json"));
    }
}
