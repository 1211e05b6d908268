package io.tfstream.cli;

import static io.tfstream.testkit.ProtoFeatures.floats;
import static io.tfstream.testkit.ProtoFeatures.int64s;
import static io.tfstream.testkit.ProtoFeatures.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.MessageLite;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordTestData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.FeatureList;
import org.tensorflow.example.FeatureLists;
import org.tensorflow.example.Features;
import org.tensorflow.example.SequenceExample;

/**
 * {@code tfstream validate}: golden cases (docs/validation.md#golden-cases) through the command
 * line on files written by the TFRecord writer, every exit code, stdout holding only alert JSON
 * lines with the fields of docs/validation.md#alert-format, event-time windows and drift,
 * SequenceExamples, damaged files.
 */
class ValidateCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The fields of the alert record (docs/validation.md#alert-format) that every alert carries.
     */
    private static final Set<String> ALERT_FIELDS =
            Set.of(
                    "alert_id",
                    "scope",
                    "window_start",
                    "window_end",
                    "emitted_at",
                    "watermark",
                    "environment",
                    "schema_fingerprint",
                    "feature_path",
                    "feature_path_steps",
                    "anomaly_type",
                    "anomaly_type_number",
                    "severity",
                    "short_description",
                    "description",
                    "num_examples",
                    "num_present",
                    "num_missing",
                    "num_affected_examples",
                    "affected_fraction",
                    "observed",
                    "expected",
                    "sample_values",
                    "example_refs",
                    "late_count");

    private static final String G1 =
            "string_domain { name: \"MyAloneEnum\" value: \"A\" value: \"B\" value: \"C\" }\n"
                    + "feature { name: \"annotated_enum\" value_count { min: 1 max: 1 }"
                    + " presence { min_count: 1 } type: BYTES domain: \"MyAloneEnum\" }\n"
                    + "feature { name: \"ignore_this\" lifecycle_stage: DEPRECATED"
                    + " value_count { min: 1 } presence { min_count: 1 } type: BYTES }\n";

    private static final String G12 =
            "feature { name: \"user_id\" type: BYTES presence { min_fraction: 0.9 min_count: 3 } }\n"
                    + "feature { name: \"x\" type: INT }\n";

    private static final String PAY =
            "feature { name: \"pay\" type: BYTES string_domain { value: \"cash\" value: \"card\""
                    + " value: \"voucher\" } drift_comparator { infinity_norm { threshold: 0.3 } } }\n"
                    + "feature { name: \"ts\" type: INT }\n";

    @TempDir Path dir;

    private Path schema(String text) throws IOException {
        return Files.writeString(dir.resolve("schema.pbtxt"), text);
    }

    private Path records(String name, MessageLite... records) throws IOException {
        return records(name, Compression.NONE, records);
    }

    private Path records(String name, Compression c, MessageLite... records) throws IOException {
        List<byte[]> bytes = new ArrayList<>();
        for (MessageLite m : records) {
            bytes.add(m.toByteArray());
        }
        return TestRecords.write(dir.resolve(name), bytes, c);
    }

    private static Example example(Object... pairs) {
        Features.Builder f = Features.newBuilder();
        for (int i = 0; i < pairs.length; i += 2) {
            f.putFeature((String) pairs[i], (Feature) pairs[i + 1]);
        }
        return Example.newBuilder().setFeatures(f).build();
    }

    /** The alert lines of a run, each checked to be one JSON object with every alert field. */
    private static List<JsonNode> alerts(CliRun run) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        String[] lines = run.outLines();
        for (int i = 0; i < lines.length; i++) {
            if (i == lines.length - 1 && lines[i].isEmpty()) {
                break;
            }
            JsonNode n = JSON.readTree(lines[i]);
            assertTrue(n.isObject(), lines[i]);
            Set<String> missing = new TreeSet<>(ALERT_FIELDS);
            n.fieldNames().forEachRemaining(missing::remove);
            assertEquals(Set.of(), missing, lines[i]);
            out.add(n);
        }
        return out;
    }

    /** {@code path type description} of each alert. */
    private static List<String> summary(List<JsonNode> alerts) {
        return alerts.stream()
                .map(
                        a ->
                                a.get("feature_path").asText()
                                        + " "
                                        + a.get("anomaly_type").asText()
                                        + " "
                                        + a.get("description").asText())
                .toList();
    }

    @Test
    void g1OutOfDomainStringIsOneWindowAlertWithItsRecord() throws IOException {
        Path s = schema(G1);
        Path f = records("g1.tfrecord", example("annotated_enum", strings("D")));
        CliRun run = CliRun.of("validate", "--schema", s.toString(), f.toString());
        assertEquals(1, run.exitCode(), run.err());
        List<JsonNode> alerts = alerts(run);
        assertEquals(
                List.of(
                        "annotated_enum ENUM_TYPE_UNEXPECTED_STRING_VALUES Examples contain values"
                                + " missing from the schema: D (~100%). "),
                summary(alerts));
        JsonNode a = alerts.get(0);
        assertEquals("RECORD", a.get("scope").asText());
        assertEquals("Unexpected string values", a.get("short_description").asText());
        assertEquals("ERROR", a.get("severity").asText());
        assertEquals(1, a.get("num_examples").asLong());
        assertEquals(1, a.get("num_affected_examples").asLong());
        assertEquals("D", a.get("sample_values").get(0).get("value").asText());
        JsonNode ref = a.get("example_refs").get(0);
        assertEquals(f.toString(), ref.get("topic").asText());
        assertEquals(0, ref.get("partition").asLong());
        assertEquals(0, ref.get("offset").asLong());
        assertEquals("tfstream validate: 1 records in 1 files, 1 alerts\n", run.err());
    }

    @Test
    void severityOverridesLowerAnAlertToAWarning() throws IOException {
        Path s = schema(G1);
        Path f = records("g1w.tfrecord", example("annotated_enum", strings("D")));
        CliRun run =
                CliRun.of(
                        "validate",
                        "--schema",
                        s.toString(),
                        "--severity-override",
                        "enum_type_unexpected_string_values=warning",
                        f.toString());
        assertEquals(1, run.exitCode(), run.err());
        List<JsonNode> alerts = alerts(run);
        assertEquals(1, alerts.size());
        assertEquals("WARNING", alerts.get(0).get("severity").asText());
        CliRun bad =
                CliRun.of(
                        "validate",
                        "--schema",
                        s.toString(),
                        "--severity-override",
                        "ENUM_TYPE_UNEXPECTED_STRING_VALUES=INFO",
                        f.toString());
        assertEquals(2, bad.exitCode());
        assertEquals("", bad.out());
        assertTrue(bad.err().contains("severity must be ERROR or WARNING"), bad.err());
    }

    @Test
    void recordGoldenCasesRollUpOverTheWindow() throws IOException {
        // G2 (new column), G7 (int range), G8 (float range, Inf) in one window; refs by index.
        Path s =
                schema(
                        "feature { name: \"hour\" type: INT int_domain { min: 0 max: 23 } }\n"
                                + "feature { name: \"price\" type: FLOAT float_domain { min: 0"
                                + " max: 1000 disallow_nan: true disallow_inf: true } }\n");
        Path f =
                records(
                        "g.tfrecord",
                        example("hour", int64s(5), "price", floats(1f)),
                        example("hour", int64s(24), "price", floats(Float.POSITIVE_INFINITY)),
                        example("hour", int64s(0), "unknown_feature", strings("A")));
        CliRun run = CliRun.of("validate", "--schema", s.toString(), f.toString());
        assertEquals(1, run.exitCode(), run.err());
        List<JsonNode> alerts = alerts(run);
        assertEquals(
                List.of(
                        "hour INT_TYPE_BIG_INT Unexpectedly large value: 24.",
                        "price FLOAT_TYPE_BIG_FLOAT Unexpectedly high value:"
                                + " inf>1000(upto six significant digits)",
                        "price FLOAT_TYPE_HAS_INF Float feature has Inf values.",
                        "unknown_feature SCHEMA_NEW_COLUMN New column (column in data but not in"
                                + " schema)"),
                summary(alerts));
        assertEquals(1, alerts.get(0).get("example_refs").get(0).get("offset").asLong());
        assertEquals(2, alerts.get(3).get("example_refs").get(0).get("offset").asLong());
        assertEquals(3, alerts.get(3).get("num_examples").asLong());
    }

    @Test
    void g12PresenceIsJudgedOverTheWholeInput() throws IOException {
        Path s = schema(G12);
        Path a =
                records(
                        "a.tfrecord",
                        example("x", int64s(1), "user_id", strings("u1")),
                        example("x", int64s(2)));
        Path b =
                records(
                        "b.tfrecord.gz",
                        Compression.GZIP,
                        example("x", int64s(3), "user_id", strings("u3")),
                        example("x", int64s(4)));
        CliRun run = CliRun.of("validate", "--schema", s.toString(), a.toString(), b.toString());
        assertEquals(1, run.exitCode(), run.err());
        assertEquals(
                List.of(
                        "user_id FEATURE_TYPE_LOW_NUMBER_PRESENT The feature was present in fewer"
                                + " examples than expected: minimum count = 3, actual = 2",
                        "user_id FEATURE_TYPE_LOW_FRACTION_PRESENT The feature was present in"
                                + " fewer examples than expected: minimum fraction = 0.900000,"
                                + " actual = 0.500000"),
                summary(alerts(run)));
        assertTrue(run.err().endsWith("4 records in 2 files, 2 alerts\n"), run.err());
    }

    @Test
    void g14DatasetConstraintIsADatasetAlert() throws IOException {
        Path s =
                schema(
                        "feature { name: \"x\" type: INT } dataset_constraints { min_examples_count: 5 }");
        Path f = records("f.tfrecord", example("x", int64s(1)), example("x", int64s(2)));
        CliRun run = CliRun.of("validate", "--schema", s.toString(), f.toString());
        assertEquals(1, run.exitCode(), run.err());
        List<JsonNode> alerts = alerts(run);
        assertEquals(
                List.of(
                        " DATASET_LOW_NUM_EXAMPLES The dataset has 2 examples, which is fewer than expected."),
                summary(alerts));
        assertEquals("DATASET", alerts.get(0).get("scope").asText());
    }

    @Test
    void cleanInputExits0WithNothingOnStdout() throws IOException {
        Path s = schema(G1);
        Path f =
                records(
                        "ok.tfrecord",
                        example("annotated_enum", strings("A")),
                        example("annotated_enum", strings("B"), "ignore_this", int64s(1, 2, 3)));
        CliRun run = CliRun.of("validate", "--schema", s.toString(), f.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("", run.out());
        assertEquals("tfstream validate: 2 records in 1 files, 0 alerts\n", run.err());
    }

    @Test
    void aDirectoryIsValidatedShardByShard() throws IOException {
        Path s = schema(G1);
        Files.createDirectories(dir.resolve("shards/dt=1"));
        records("shards/dt=1/part-a.tfrecord", example("annotated_enum", strings("A")));
        records("shards/dt=1/part-b.tfrecord", example("annotated_enum", strings("B")));
        Files.writeString(dir.resolve("shards/dt=1/part-a.tfrecord.manifest.json"), "{}");
        Files.writeString(dir.resolve("shards/dt=1/_SUCCESS"), "{}");
        CliRun run =
                CliRun.of("validate", "--schema", s.toString(), dir.resolve("shards").toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("tfstream validate: 2 records in 2 files, 0 alerts\n", run.err());
    }

    @Test
    void g3EnvironmentsChooseTheRequiredFeatures() throws IOException {
        Path s =
                schema(
                        "default_environment: \"TRAINING\"\ndefault_environment: \"SERVING\"\n"
                                + "feature { name: \"label\" not_in_environment: \"SERVING\""
                                + " value_count { min: 1 max: 1 } presence { min_fraction: 1 }"
                                + " type: BYTES }\n"
                                + "feature { name: \"feature\" value_count { min: 1 max: 1 }"
                                + " presence { min_count: 1 } type: BYTES }\n");
        Path f = records("f.tfrecord", example("feature", strings("A")));
        CliRun training =
                CliRun.of(
                        "validate",
                        "--schema",
                        s.toString(),
                        "--environment",
                        "TRAINING",
                        f.toString());
        assertEquals(1, training.exitCode(), training.err());
        List<JsonNode> alerts = alerts(training);
        assertEquals(
                List.of("label SCHEMA_MISSING_COLUMN Column is completely missing"),
                summary(alerts));
        assertEquals("TRAINING", alerts.get(0).get("environment").asText());
        // The window's reason and the roll-up of the per-record one are one alert.
        assertEquals("WINDOW", alerts.get(0).get("scope").asText());
        CliRun serving =
                CliRun.of(
                        "validate",
                        "--schema",
                        s.toString(),
                        "--environment",
                        "SERVING",
                        f.toString());
        assertEquals(0, serving.exitCode(), serving.err());
        assertEquals("", serving.out());
    }

    /** An environment the schema does not declare is a usage error naming the ones it has. */
    @Test
    void anUnknownEnvironmentIsAUsageErrorNamingTheSchemasEnvironments() throws IOException {
        Path f = records("f.tfrecord", example("x", int64s(1)));
        for (String[] c :
                new String[][] {
                    {
                        "default_environment: \"TRAINING\"\ndefault_environment: \"SERVING\"\n"
                                + "feature { name: \"x\" type: INT }",
                        "--environment INVALID: the schema's environments are TRAINING, SERVING"
                    },
                    {
                        "feature { name: \"x\" type: INT }",
                        "--environment INVALID: the schema declares no environments"
                    }
                }) {
            CliRun run =
                    CliRun.of(
                            "validate",
                            "--schema",
                            schema(c[0]).toString(),
                            "--environment",
                            "INVALID",
                            f.toString());
            assertEquals(2, run.exitCode());
            assertEquals("", run.out());
            assertTrue(run.err().startsWith("tfstream validate: " + c[1]), run.err());
        }
    }

    @Test
    void anUnparsableSchemaExits3() throws IOException {
        Path s = schema("feature { name: \"x\" type: NOT_A_TYPE }");
        Path f = records("f.tfrecord", example("x", int64s(1)));
        CliRun run = CliRun.of("validate", "--schema", s.toString(), f.toString());
        assertEquals(3, run.exitCode());
        assertEquals("", run.out());
        assertTrue(run.err().startsWith("tfstream validate: schema rejected: "), run.err());
    }

    @Test
    void aSchemaProblemIsASchemaAlert() throws IOException {
        Path s =
                schema(
                        "feature { name: \"x\" type: INT }\n"
                                + "feature { name: \"tags\" type: BYTES value_count { min: 3 max: 1 } }\n");
        Path f = records("f.tfrecord", example("x", int64s(1)));
        CliRun run = CliRun.of("validate", "--schema", s.toString(), f.toString());
        assertEquals(1, run.exitCode(), run.err());
        List<JsonNode> alerts = alerts(run);
        assertEquals(1, alerts.size(), run.out());
        JsonNode a = alerts.get(0);
        assertEquals("SCHEMA", a.get("scope").asText());
        assertEquals("tags", a.get("feature_path").asText());
        assertEquals("INVALID_SCHEMA_SPECIFICATION", a.get("anomaly_type").asText());
        assertEquals(0, a.get("window_start").asLong());
    }

    @Test
    void usageErrorsExit2() throws IOException {
        Path s = schema(G1);
        Path f = records("f.tfrecord", example("annotated_enum", strings("A")));
        CliRun noFeature =
                CliRun.of("validate", "--schema", s.toString(), "--window", "1h", f.toString());
        assertEquals(2, noFeature.exitCode());
        assertEquals("", noFeature.out());
        assertTrue(noFeature.err().contains("set --event-time-feature"), noFeature.err());
        CliRun badWindow =
                CliRun.of(
                        "validate",
                        "--schema",
                        s.toString(),
                        "--window",
                        "soon",
                        "--event-time-feature",
                        "ts",
                        f.toString());
        assertEquals(2, badWindow.exitCode());
        assertTrue(
                badWindow.err().contains("--window must be 'all' or a duration"), badWindow.err());
        CliRun noSchema = CliRun.of("validate", f.toString());
        assertEquals(2, noSchema.exitCode());
        assertTrue(noSchema.err().contains("--schema"), noSchema.err());
        Path missingSchema = dir.resolve("nope.pbtxt");
        CliRun unreadable =
                CliRun.of("validate", "--schema", missingSchema.toString(), f.toString());
        assertEquals(2, unreadable.exitCode());
        assertEquals("tfstream validate: no such file: " + missingSchema + "\n", unreadable.err());
    }

    @Test
    void aMissingFileExits2AndTheOthersAreStillValidated() throws IOException {
        Path s = schema(G1);
        Path f = records("f.tfrecord", example("annotated_enum", strings("D")));
        Path missing = dir.resolve("missing.tfrecord");
        CliRun run =
                CliRun.of("validate", "--schema", s.toString(), missing.toString(), f.toString());
        assertEquals(2, run.exitCode());
        assertEquals(1, alerts(run).size());
        assertTrue(
                run.err().startsWith("tfstream validate: no such file: " + missing + "\n"),
                run.err());
    }

    @Test
    void aTruncatedFileExits2AfterValidatingTheRecordsBeforeTheDamage() throws IOException {
        List<byte[]> recs =
                List.of(
                        example("annotated_enum", strings("D")).toByteArray(),
                        example("annotated_enum", strings("A")).toByteArray(),
                        example("annotated_enum", strings("E")).toByteArray());
        byte[] full = TfRecordTestData.write(recs, Compression.NONE);
        Path cut = Files.write(dir.resolve("cut.tfrecord"), Arrays.copyOf(full, full.length - 5));
        CliRun run = CliRun.of("validate", "--schema", schema(G1).toString(), cut.toString());
        assertEquals(2, run.exitCode());
        List<JsonNode> alerts = alerts(run);
        assertEquals(1, alerts.size());
        assertEquals(2, alerts.get(0).get("num_examples").asLong());
        assertEquals("D", alerts.get(0).get("sample_values").get(0).get("value").asText());
        assertTrue(
                run.err().startsWith("tfstream validate: " + cut + ": damaged at byte "),
                run.err());
        assertTrue(run.err().contains("(record 2): truncated record"), run.err());
    }

    @Test
    void aRecordThatIsNotAnExampleIsNamedAndExits1() throws IOException {
        byte[] garbage = {(byte) 0x0a, (byte) 0x7f, 1, 2};
        Path f =
                TestRecords.write(
                        dir.resolve("bad.tfrecord"),
                        List.of(example("annotated_enum", strings("A")).toByteArray(), garbage),
                        Compression.NONE);
        CliRun run = CliRun.of("validate", "--schema", schema(G1).toString(), f.toString());
        assertEquals(1, run.exitCode(), run.err());
        assertEquals("", run.out());
        assertTrue(
                run.err().startsWith("tfstream validate: " + f + ": record 1 at byte "), run.err());
        assertTrue(run.err().contains(" is not an Example\n"), run.err());
    }

    private static Example pay(long ts, String pay) {
        return example("ts", int64s(ts), "pay", strings(pay));
    }

    @Test
    void g15DriftBetweenConsecutiveEventTimeWindows() throws IOException {
        Path s = schema(PAY);
        Path f =
                records(
                        "pay.tfrecord",
                        pay(10_000, "cash"),
                        pay(11_000, "card"),
                        pay(70_500, "cash"),
                        pay(12_000, "cash"),
                        pay(61_000, "card"),
                        pay(13_000, "card"),
                        pay(65_000, "voucher"),
                        pay(66_000, "voucher"));
        CliRun run =
                CliRun.of(
                        "validate",
                        "--schema",
                        s.toString(),
                        "--window",
                        "1 min",
                        "--event-time-feature",
                        "ts",
                        "--min-drift-examples",
                        "1",
                        f.toString());
        assertEquals(1, run.exitCode(), run.err());
        List<JsonNode> alerts = alerts(run);
        assertEquals(
                List.of(
                        "pay COMPARATOR_L_INFTY_HIGH The Linfty distance between current and"
                                + " previous is 0.5 (up to six significant digits), above the"
                                + " threshold 0.3. The feature value with maximum difference is:"
                                + " voucher"),
                summary(alerts));
        JsonNode a = alerts.get(0);
        assertEquals("DRIFT", a.get("scope").asText());
        assertEquals(60_000, a.get("window_start").asLong());
        assertEquals(120_000, a.get("window_end").asLong());
        assertEquals(70_500, a.get("watermark").asLong());
        assertEquals(4, a.get("num_examples").asLong());
        JsonNode m = a.get("measurement");
        assertEquals("L_INFTY", m.get("type").asText());
        assertEquals(0.5, m.get("value").asDouble(), 1e-12);
        assertEquals(0.3, m.get("threshold").asDouble(), 1e-12);
        assertEquals("previous_window", m.get("control").asText());
        assertEquals(0, m.get("control_window_start").asLong());

        // Below the default minimum of 100 examples per side drift is not computed.
        CliRun few =
                CliRun.of(
                        "validate",
                        "--schema",
                        s.toString(),
                        "--window",
                        "1m",
                        "--event-time-feature",
                        "ts",
                        f.toString());
        assertEquals(0, few.exitCode(), few.err());
        assertEquals("", few.out());
    }

    @Test
    void windowsHoldTheirOwnRecordsAndEventTimesMayBeSeconds() throws IOException {
        Path s =
                schema(
                        "feature { name: \"x\" type: INT int_domain { max: 10 } }\n"
                                + "feature { name: \"ts\" type: INT }\n"
                                + "dataset_constraints { min_examples_count: 2 }\n");
        Path f =
                records(
                        "x.tfrecord",
                        example("ts", int64s(3_600), "x", int64s(1)),
                        example("ts", int64s(3_601), "x", int64s(50)),
                        example("ts", int64s(7_300), "x", int64s(2)));
        CliRun run =
                CliRun.of(
                        "validate",
                        "--schema",
                        s.toString(),
                        "--window",
                        "1h",
                        "--event-time-feature",
                        "ts",
                        "--event-time-unit",
                        "s",
                        f.toString());
        assertEquals(1, run.exitCode(), run.err());
        List<JsonNode> alerts = alerts(run);
        assertEquals(
                List.of(
                        "x INT_TYPE_BIG_INT Unexpectedly large value: 50.",
                        " DATASET_LOW_NUM_EXAMPLES The dataset has 1 examples, which is fewer"
                                + " than expected."),
                summary(alerts));
        assertEquals(3_600_000, alerts.get(0).get("window_start").asLong());
        assertEquals(3_601_000, alerts.get(0).get("first_seen").asLong());
        assertEquals(
                3_601_000, alerts.get(0).get("example_refs").get(0).get("event_time").asLong());
        assertEquals(7_200_000, alerts.get(1).get("window_start").asLong());
        assertEquals(10_800_000, alerts.get(1).get("window_end").asLong());
    }

    @Test
    void recordsWithoutAnEventTimeAreLeftOutOfWindowsAndExit1() throws IOException {
        Path s = schema(PAY);
        Path f =
                records(
                        "f.tfrecord",
                        pay(1_000, "cash"),
                        example("pay", strings("card")),
                        example("ts", int64s(1, 2), "pay", strings("cash")));
        CliRun run =
                CliRun.of(
                        "validate",
                        "--schema",
                        s.toString(),
                        "--window",
                        "10s",
                        "--event-time-feature",
                        "ts",
                        f.toString());
        assertEquals(1, run.exitCode(), run.err());
        assertEquals("", run.out());
        assertTrue(
                run.err()
                        .startsWith(
                                "tfstream validate: 2 records have no event time (one int64 value"
                                        + " in feature 'ts') and were left out of every window\n"),
                run.err());
    }

    @Test
    void aRecordThatDoesNotParseOpensNoWindow() throws IOException {
        Path s =
                schema(
                        "feature { name: \"x\" type: INT }\n"
                                + "feature { name: \"ts\" type: INT }\n"
                                + "dataset_constraints { min_examples_count: 2 }\n");
        byte[] garbage = {(byte) 0x0a, (byte) 0x7f, 1, 2};
        Path f =
                TestRecords.write(
                        dir.resolve("f.tfrecord"),
                        List.of(
                                example("ts", int64s(61_000), "x", int64s(1)).toByteArray(),
                                garbage,
                                example("ts", int64s(62_000), "x", int64s(2)).toByteArray()),
                        Compression.NONE);
        CliRun run =
                CliRun.of(
                        "validate",
                        "--schema",
                        s.toString(),
                        "--window",
                        "1m",
                        "--event-time-feature",
                        "ts",
                        f.toString());
        assertEquals(1, run.exitCode(), run.err());
        assertEquals("", run.out());
        assertTrue(run.err().contains(": record 1 at byte "), run.err());
    }

    @Test
    void aSequenceExampleTakesItsEventTimeFromTheContext() throws IOException {
        Path s =
                schema(
                        "feature { name: \"ts\" type: INT }\n"
                                + "feature { name: \"##SEQUENCE##\" type: STRUCT struct_domain {\n"
                                + "  feature { name: \"tokens\" type: INT int_domain { max: 2 } }\n"
                                + "} }\n");
        Path f =
                records(
                        "seq.tfrecord",
                        TestRecords.sequence(0, 2).toBuilder()
                                .setContext(Features.newBuilder().putFeature("ts", int64s(5_000)))
                                .build(),
                        TestRecords.sequence(0, 4).toBuilder()
                                .setContext(Features.newBuilder().putFeature("ts", int64s(15_000)))
                                .build());
        CliRun run =
                CliRun.of(
                        "validate",
                        "--schema",
                        s.toString(),
                        "--sequence",
                        "--window",
                        "10s",
                        "--event-time-feature",
                        "ts",
                        f.toString());
        assertEquals(1, run.exitCode(), run.err());
        List<JsonNode> alerts = alerts(run);
        assertEquals(
                List.of("##SEQUENCE##.tokens INT_TYPE_BIG_INT Unexpectedly large value: 3."),
                summary(alerts));
        assertEquals(10_000, alerts.get(0).get("window_start").asLong());
        assertEquals(15_000, alerts.get(0).get("first_seen").asLong());
    }

    @Test
    void sequenceExamplesAreValidatedPerNestLevel() throws IOException {
        Path s =
                schema(
                        "feature { name: \"ctx\" type: BYTES value_count { min: 1 max: 1 } }\n"
                                + "feature { name: \"##SEQUENCE##\" type: STRUCT struct_domain {\n"
                                + "  feature { name: \"clicks\" type: INT value_counts {"
                                + " value_count { min: 1 max: 3 } value_count { min: 1 max: 1 } }"
                                + " int_domain { min: 0 } }\n"
                                + "} }\n");
        SequenceExample ok =
                SequenceExample.newBuilder()
                        .setContext(Features.newBuilder().putFeature("ctx", strings("a")))
                        .setFeatureLists(
                                FeatureLists.newBuilder()
                                        .putFeatureList(
                                                "clicks",
                                                FeatureList.newBuilder()
                                                        .addFeature(int64s(1))
                                                        .addFeature(int64s(2))
                                                        .build()))
                        .build();
        SequenceExample bad =
                ok.toBuilder()
                        .setFeatureLists(
                                FeatureLists.newBuilder()
                                        .putFeatureList(
                                                "clicks",
                                                FeatureList.newBuilder()
                                                        .addFeature(int64s(-1))
                                                        .build()))
                        .build();
        Path f = records("seq.tfrecord", ok, bad, ok);
        CliRun run = CliRun.of("validate", "--schema", s.toString(), "--sequence", f.toString());
        assertEquals(1, run.exitCode(), run.err());
        List<JsonNode> alerts = alerts(run);
        assertEquals(
                List.of("##SEQUENCE##.clicks INT_TYPE_SMALL_INT Unexpectedly small value: -1."),
                summary(alerts));
        assertEquals(
                List.of("##SEQUENCE##", "clicks"),
                JSON.convertValue(alerts.get(0).get("feature_path_steps"), List.class));
        assertEquals(1, alerts.get(0).get("example_refs").get(0).get("offset").asLong());
        // Without --sequence the feature lists are not seen: ctx is the only feature.
        CliRun asExamples = CliRun.of("validate", "--schema", s.toString(), f.toString());
        assertTrue(asExamples.exitCode() <= 1, asExamples.err());
    }

    @Test
    void stdoutHoldsOnlyAlertLines() throws IOException {
        Path s =
                schema(
                        G12
                                + "feature { name: \"h\" type: INT int_domain { max: 1 } }\n"
                                + "feature { name: \"tags\" type: BYTES value_count { min: 3 max: 1 } }\n");
        Path f =
                records(
                        "f.tfrecord",
                        example("x", int64s(1), "h", int64s(5), "new", floats(1f)),
                        example("x", int64s(2), "user_id", strings("u", "v")));
        CliRun run = CliRun.of("validate", "--schema", s.toString(), f.toString());
        assertEquals(1, run.exitCode(), run.err());
        List<JsonNode> alerts = alerts(run);
        assertTrue(alerts.size() >= 4, run.out());
        assertTrue(run.out().endsWith("\n"));
        for (JsonNode a : alerts) {
            assertEquals(32, a.get("alert_id").asText().length());
            assertTrue(a.get("schema_fingerprint").asText().length() > 0);
        }
        assertEquals(
                alerts.size(),
                alerts.stream().map(a -> a.get("alert_id").asText()).distinct().count());
        // Equal input gives equal alert ids.
        CliRun again = CliRun.of("validate", "--schema", s.toString(), f.toString());
        assertEquals(
                alerts.stream().map(a -> a.get("alert_id").asText()).toList(),
                alerts(again).stream().map(a -> a.get("alert_id").asText()).toList());
        assertTrue(
                new String(run.out().getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8)
                        .lines()
                        .allMatch(l -> l.startsWith("{\"alert_id\":")));
    }
}
