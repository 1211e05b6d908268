package io.tfstream.operators.parse;

import static io.tfstream.operators.parse.LiveSchemaTesting.barriersUntil;
import static io.tfstream.operators.parse.LiveSchemaTesting.deadLetters;
import static io.tfstream.operators.parse.LiveSchemaTesting.harness;
import static io.tfstream.operators.parse.LiveSchemaTesting.inForce;
import static io.tfstream.operators.parse.LiveSchemaTesting.polling;
import static io.tfstream.operators.parse.LiveSchemaTesting.specJson;
import static io.tfstream.operators.parse.LiveSchemaTesting.specSettings;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.DeadLetterGuard;
import io.tfstream.api.model.DeadLetterReason;
import io.tfstream.api.model.SchemaCompatibility;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.api.model.ValidationOutput;
import io.tfstream.convert.ConvertFeatures;
import io.tfstream.convert.ConvertOptions;
import io.tfstream.convert.InputFormat;
import io.tfstream.operators.convert.ConvertSettings;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.SchemaFingerprint;
import io.tfstream.spec.VarLenFeature;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.Example;

/**
 * JSON and Avro input with schema updates: records are converted in the count-batch operator with
 * the schema that parses them, the converter is rebuilt at the switch, and a schema the input
 * cannot convert to (or one that changes the batch key feature) is refused.
 */
@SuppressWarnings("try") // the harness's close() may throw InterruptedException
class LiveConversionTest {
    @TempDir Path dir;

    /** x required. */
    private static final FeatureSpecs V1 =
            FeatureSpecs.of(
                    Map.<String, FeatureSpec>of(
                            "x", FixedLenFeature.required(List.of(), DType.INT64)));

    /** V1 plus an optional float feature w. */
    private static final FeatureSpecs V1_PLUS_W =
            FeatureSpecs.of(
                    Map.<String, FeatureSpec>of(
                            "x",
                            FixedLenFeature.required(List.of(), DType.INT64),
                            "w",
                            new VarLenFeature(DType.FLOAT32)));

    private static final byte[] JSON_X_W =
            "{\"x\": 7, \"w\": [0.5, 1.5]}".getBytes(StandardCharsets.UTF_8);

    private ParseSettings settings(Path file, ConvertSettings conversion) throws Exception {
        byte[] spec = Files.readAllBytes(file);
        return specSettings(spec)
                .withTensorBatches(SchemaFingerprint.of(spec, "spec.json"), Integer.MAX_VALUE)
                .withSchemaUpdates(polling(file, SchemaCompatibility.ANY))
                .withConversion(conversion, true);
    }

    private static ConvertSettings conversion(InputFormat format, String avsc) {
        return new ConvertSettings(
                format,
                ConvertFeatures.of(V1),
                ConvertOptions.defaults(),
                avsc,
                DeadLetterGuard.off());
    }

    private static OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> opened(
            ParseSettings s) throws Exception {
        var h = harness(s);
        h.open();
        return h;
    }

    /** Checkpoints until the schema in force is no longer {@code old}. */
    private static long switchFrom(
            OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h,
            String old,
            long checkpoint)
            throws Exception {
        return barriersUntil(h, () -> !old.equals(inForce(h)), checkpoint);
    }

    private static List<Example> accepted(
            OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h) throws Exception {
        List<Example> out = new ArrayList<>();
        for (Object o : h.getOutput()) {
            if (o instanceof StreamRecord<?> r && r.getValue() instanceof SourceRecord s) {
                out.add(Example.parseFrom(s.value()));
            }
        }
        h.getOutput().clear();
        return out;
    }

    private static int alerts(OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h) {
        var q = h.getSideOutput(LiveSchema.ALERTS);
        return q == null ? 0 : q.size();
    }

    @Test
    void aJsonRecordIsConvertedWithTheSchemaThatParsesIt() throws Exception {
        Path file = dir.resolve("spec.json");
        Files.write(file, specJson(V1));
        try (var h = opened(settings(file, conversion(InputFormat.JSON, null)))) {
            String v1 = inForce(h);
            h.processElement(new StreamRecord<>(SourceRecord.of(JSON_X_W, "in", 0, 0, 5)));
            h.prepareSnapshotPreBarrier(1);
            Example before = accepted(h).get(0);
            assertEquals(7, before.getFeatures().getFeatureOrThrow("x").getInt64List().getValue(0));
            assertFalse(before.getFeatures().containsFeature("w"), "w is no feature of V1");

            LiveSchemaTesting.replace(file, specJson(V1_PLUS_W));
            long cp = switchFrom(h, v1, 1);
            h.processElement(new StreamRecord<>(SourceRecord.of(JSON_X_W, "in", 0, 1, 5)));
            // Not a number: a conversion_error dead letter with its original bytes, under
            // V1_PLUS_W.
            byte[] bad = "{\"x\": \"seven\"}".getBytes(StandardCharsets.UTF_8);
            h.processElement(new StreamRecord<>(SourceRecord.of(bad, "in", 0, 2, 5)));
            h.prepareSnapshotPreBarrier(cp + 1);
            List<Example> after = accepted(h);
            assertEquals(1, after.size());
            assertEquals(
                    List.of(0.5f, 1.5f),
                    after.get(0)
                            .getFeatures()
                            .getFeatureOrThrow("w")
                            .getFloatList()
                            .getValueList());
            List<DeadLetter> dead = deadLetters(h);
            assertEquals(1, dead.size());
            assertEquals(DeadLetterReason.CONVERSION_ERROR, dead.get(0).reason());
            assertArrayEquals(bad, dead.get(0).source().value());
            assertEquals(inForce(h), dead.get(0).schemaFingerprint());
            assertEquals(0, alerts(h));
        }
    }

    @Test
    void aSchemaTheAvroWriterSchemaCannotConvertToIsRefused() throws Exception {
        Path file = dir.resolve("spec.json");
        Files.write(file, specJson(V1));
        String avsc =
                "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"x\",\"type\":\"long\"},"
                        + "{\"name\":\"w\",\"type\":\"boolean\"}]}";
        try (var h = opened(settings(file, conversion(InputFormat.AVRO, avsc)))) {
            String v1 = inForce(h);
            LiveSchemaTesting.replace(
                    file, specJson(V1_PLUS_W)); // w: float, the writer's w a boolean
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            long cp = 0;
            while (alerts(h) == 0) {
                assertTrue(System.nanoTime() < deadline, "no SCHEMA alert");
                Thread.sleep(10);
                h.prepareSnapshotPreBarrier(++cp);
            }
            assertEquals(v1, inForce(h));
            String alert =
                    new String(
                            h.getSideOutput(LiveSchema.ALERTS).peek().getValue().value(),
                            StandardCharsets.UTF_8);
            assertTrue(alert.contains("source.format avro") && alert.contains("'w'"), alert);
            // x = 3 (zigzag 6), w = true: still converted with V1.
            h.processElement(new StreamRecord<>(SourceRecord.of(new byte[] {6, 1}, "in", 0, 0, 5)));
            h.prepareSnapshotPreBarrier(cp + 1);
            Example e = accepted(h).get(0);
            assertEquals(3, e.getFeatures().getFeatureOrThrow("x").getInt64List().getValue(0));
            assertFalse(e.getFeatures().containsFeature("w"));
        }
    }

    @Test
    void aCandidateThatRemovesOrChangesTheKeyFeatureIsRefused() {
        FeatureSpecs wAsInt =
                FeatureSpecs.of(
                        Map.<String, FeatureSpec>of(
                                "x",
                                FixedLenFeature.required(List.of(), DType.INT64),
                                "w",
                                new VarLenFeature(DType.INT64)));
        String removed = InputChecks.problem(V1_PLUS_W, V1, null, "w");
        assertTrue(removed.contains("batch.key feature:w") && removed.contains("removes"), removed);
        String changed = InputChecks.problem(V1_PLUS_W, wAsInt, null, "w");
        assertTrue(changed.contains("changes that feature"), changed);
        assertNull(InputChecks.problem(V1, V1_PLUS_W, null, "x"));
        assertNull(InputChecks.problem(V1_PLUS_W, V1, null, null));
    }

    @Test
    void theLiveSchemaOfAWindowOperatorRefusesAChangeToItsKeyFeature() throws Exception {
        Path file = dir.resolve("spec.json");
        Files.write(file, specJson(V1_PLUS_W));
        ParseSettings s =
                specSettings(Files.readAllBytes(file))
                        .withSchemaUpdates(polling(file, SchemaCompatibility.ANY));
        List<ValidationOutput> alerts = new ArrayList<>();
        try (LiveSchema live = new LiveSchema(s, "job")) {
            live.keyedBy("w");
            String before = live.fingerprint();
            byte[] withoutW = specJson(V1);
            assertFalse(live.consider(withoutW, SchemaPoller.sha256(withoutW), alerts::add, 0));
            assertEquals(before, live.fingerprint());
            assertEquals(1, alerts.size());
            String alert = new String(alerts.get(0).value(), StandardCharsets.UTF_8);
            assertTrue(alert.contains("batch.key feature:w"), alert);
        }
    }
}
