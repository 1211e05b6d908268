package io.tfstream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.spec.json.SpecJsonReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tfstream spec --schema S}: stdout, stderr and exit codes. */
class SpecCommandTest {
    @TempDir Path tmp;

    private Path schema(String text) throws Exception {
        Path p = tmp.resolve("schema.pbtxt");
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }

    @Test
    void printsSpecJsonOnOneLine() throws Exception {
        Path s =
                schema(
                        "feature { name: 'x' type: FLOAT shape { dim { size: 2 } } presence {"
                                + " min_fraction: 1 } }\n"
                                + "feature { name: 'v' type: BYTES }\n");
        CliRun r = CliRun.of("spec", "--schema", s.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(
                "{\"v\":{\"type\":\"var_len\",\"dtype\":\"string\"},"
                        + "\"x\":{\"type\":\"fixed_len\",\"dtype\":\"float32\",\"shape\":[2]}}\n",
                r.out());
        assertEquals("", r.err());
        FeatureSpecs read = (FeatureSpecs) SpecJsonReader.read(r.out(), "stdout");
        assertEquals(2, read.size());
    }

    @Test
    void legacyDefaultsOption() throws Exception {
        Path s =
                schema(
                        "feature { name: 'x' type: FLOAT shape { dim { size: 2 } } presence {"
                                + " min_fraction: 1 } }");
        CliRun r = CliRun.of("spec", "--schema", s.toString(), "--legacy-defaults");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(
                "{\"x\":{\"type\":\"fixed_len\",\"dtype\":\"float32\",\"shape\":[2],"
                        + "\"default\":[-1.0,-1.0]}}\n",
                r.out());
    }

    @Test
    void sequenceSchemaPrintsSeqSpec() throws Exception {
        Path s =
                schema(
                        "feature { name: 'c' type: INT }"
                                + "feature { name: '##SEQUENCE##' type: STRUCT struct_domain {"
                                + " feature { name: 's' type: BYTES } } }"
                                + "tensor_representation_group { key: '' value {"
                                + " tensor_representation { key: 'c' value { varlen_sparse_tensor"
                                + " { column_name: 'c' } } }"
                                + " tensor_representation { key: 's' value { ragged_tensor {"
                                + " feature_path { step: '##SEQUENCE##' step: 's' } } } } } }");
        CliRun r = CliRun.of("spec", "--schema", s.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(
                "{\"context\":{\"c\":{\"type\":\"var_len\",\"dtype\":\"int64\"}},"
                        + "\"feature_lists\":{\"s\":{\"type\":\"ragged\",\"dtype\":\"string\","
                        + "\"value_key\":\"s\",\"partitions\":[],\"row_splits_dtype\":\"int64\"}}}\n",
                r.out());
        assertTrue(SpecJsonReader.read(r.out(), "stdout") instanceof SequenceFeatureSpecs);
    }

    @Test
    void rejectedSchemaPrintsTheReasonAndExits3() throws Exception {
        Path s = schema("feature: {name: \"x\" type: INT shape: {}}");
        CliRun r = CliRun.of("spec", "--schema", s.toString());
        assertEquals(ExitCodes.SPEC_REJECTED, r.exitCode());
        assertEquals(
                "{\"stage\":\"spec\",\"error\":\"Feature x had shape  set but min_fraction 0.0 !="
                        + " 1.  Use value_count not shape field when min_fraction != 1.\"}\n",
                r.out());
        assertEquals("", r.err());
    }

    @Test
    void unreadableOrMalformedSchemaExits2() throws Exception {
        CliRun missing = CliRun.of("spec", "--schema", tmp.resolve("absent.pbtxt").toString());
        assertEquals(ExitCodes.USAGE, missing.exitCode());
        assertEquals("", missing.out());
        assertEquals(
                "tfstream spec: no such file: " + tmp.resolve("absent.pbtxt") + "\n",
                missing.err());

        Path bad = schema("feature { name: 'x' typo: INT }");
        CliRun malformed = CliRun.of("spec", "--schema", bad.toString());
        assertEquals(ExitCodes.USAGE, malformed.exitCode());
        assertEquals("", malformed.out());
        assertTrue(malformed.err().contains("not a text-format Schema"), malformed.err());
        assertTrue(malformed.err().contains("typo"), malformed.err());
    }

    @Test
    void missingOptionIsAUsageError() {
        CliRun r = CliRun.of("spec");
        assertEquals(ExitCodes.USAGE, r.exitCode());
        assertTrue(r.err().contains("--schema"), r.err());
        assertEquals("", r.out());
    }
}
