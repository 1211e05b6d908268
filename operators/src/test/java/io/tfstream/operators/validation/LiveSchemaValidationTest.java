package io.tfstream.operators.validation;

import static io.tfstream.operators.parse.LiveSchemaTesting.barriersUntil;
import static io.tfstream.operators.parse.LiveSchemaTesting.polling;
import static io.tfstream.operators.validation.ValidationFixtures.SCHEMA;
import static io.tfstream.operators.validation.ValidationFixtures.record;
import static io.tfstream.operators.validation.ValidationFixtures.settings;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.model.SchemaCompatibility;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.api.model.ValidationActions;
import io.tfstream.operators.parse.BatchParseOperator;
import io.tfstream.operators.parse.LiveSchema;
import io.tfstream.operators.parse.LiveSchemaTesting;
import io.tfstream.operators.parse.ParseSettings;
import io.tfstream.validation.ValidationSchema;
import io.tfstream.validation.WindowAccumulatorSerializer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Validation in the batch-and-parse operator across a schema change ({@code schema.update: poll}):
 * records are checked against the schema in force, the window deltas carry its fingerprint (its
 * schema bytes only with the first delta of each fingerprint and split), and a new schema that
 * validation cannot use is refused with an alert.
 */
@SuppressWarnings("try") // the harness's close() may throw InterruptedException
class LiveSchemaValidationTest {
    private static final String WIDER = SCHEMA.replace("max: 120", "max: 1000");

    @TempDir Path dir;

    private OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> harness(Path file)
            throws Exception {
        return harness(file, settings(2, List.of("INT_TYPE_BIG_INT=mark")));
    }

    private OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> harness(
            Path file, ValidationSettings v) throws Exception {
        ParseSettings s =
                ValidationFixtures.parse(
                                v, new String(v.schemaBytes(), StandardCharsets.UTF_8), 100, false)
                        .withSchemaUpdates(polling(file, SchemaCompatibility.ANY));
        var h = LiveSchemaTesting.harness(s);
        h.open();
        return h;
    }

    private static List<WindowPartial> partials(
            OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h) {
        List<WindowPartial> out = new ArrayList<>();
        var q = h.getSideOutput(BatchValidation.PARTIALS);
        if (q != null) {
            q.forEach(r -> out.add(r.getValue()));
            q.clear();
        }
        return out;
    }

    private static List<SourceRecord> accepted(
            OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h) {
        List<SourceRecord> out = new ArrayList<>(h.extractOutputValues());
        h.getOutput().clear();
        return out;
    }

    @Test
    void recordsAreValidatedUnderTheSchemaInForceAndDeltasCarryItsFingerprint() throws Exception {
        Path file = dir.resolve("schema.pbtxt");
        Files.write(file, SCHEMA.getBytes(StandardCharsets.UTF_8));
        ValidationSchema first = settings(1, List.of()).buildSchema();
        ValidationSchema second = settings(WIDER, 1, List.of()).buildSchema();
        try (var h = harness(file)) {
            h.processElement(new StreamRecord<>(record(1, 500, "US"), 1000));
            h.prepareSnapshotPreBarrier(1);
            List<SourceRecord> out = accepted(h);
            assertArrayEquals(
                    "INT_TYPE_BIG_INT".getBytes(StandardCharsets.UTF_8),
                    out.get(0).lastHeader(BatchValidation.ANOMALIES_HEADER));
            List<WindowPartial> p1 = partials(h);
            assertEquals(2, p1.size()); // one per split
            for (WindowPartial p : p1) {
                assertEquals(first.fingerprint(), p.fingerprint());
                assertArrayEquals(SCHEMA.getBytes(StandardCharsets.UTF_8), p.schema());
            }

            LiveSchemaTesting.replace(file, WIDER.getBytes(StandardCharsets.UTF_8));
            var op = (BatchParseOperator) h.getOneInputOperator();
            long cp =
                    barriersUntil(h, () -> op.schemaFingerprint().equals(second.fingerprint()), 1);
            assertEquals(List.of(), partials(h)); // barriers without records: no deltas
            for (int batch = 0; batch < 2; batch++) {
                h.processElement(new StreamRecord<>(record(2 + batch, 500, "US"), 2000));
                h.prepareSnapshotPreBarrier(++cp);
                // 500 is in the new schema's domain: not marked.
                List<SourceRecord> after = accepted(h);
                assertEquals(1, after.size());
                assertNull(after.get(0).lastHeader(BatchValidation.ANOMALIES_HEADER));
                List<WindowPartial> p2 = partials(h);
                assertEquals(2, p2.size());
                for (WindowPartial p : p2) {
                    assertEquals(second.fingerprint(), p.fingerprint());
                    // The schema bytes travel with the first delta of the fingerprint only.
                    assertEquals(
                            batch == 0 ? WIDER.length() : 0, p.schema().length, "batch " + batch);
                    // The delta is the statistics of the new schema (readable with it).
                    assertEquals(
                            1,
                            new WindowAccumulatorSerializer(second)
                                    .deserialize(p.version(), p.accumulator())
                                    .numExamples());
                }
            }
        }
    }

    @Test
    void aSchemaValidationCannotUseIsRefusedWithAnAlert() throws Exception {
        // Validation runs in environment TRAINING: a schema without it is fatal for validation
        // (TFDV refuses an unknown environment) though it converts to a spec.
        String withEnvironment = SCHEMA + "default_environment: \"TRAINING\"\n";
        Path file = dir.resolve("schema.pbtxt");
        Files.write(file, withEnvironment.getBytes(StandardCharsets.UTF_8));
        ValidationSettings v =
                new ValidationSettings(
                        withEnvironment.getBytes(StandardCharsets.UTF_8),
                        "schema.pbtxt",
                        false,
                        "TRAINING",
                        ValidationFixtures.WINDOW,
                        1,
                        5,
                        ValidationActions.parse(List.of("INT_TYPE_BIG_INT=mark")),
                        "test-job",
                        io.tfstream.parse.ParseLimits.defaults());
        String broken = SCHEMA;
        try (var h = harness(file, v)) {
            LiveSchemaTesting.replace(file, broken.getBytes(StandardCharsets.UTF_8));
            barriersUntil(
                    h,
                    () -> {
                        var q = h.getSideOutput(LiveSchema.ALERTS);
                        return q != null && !q.isEmpty();
                    },
                    0);
            String alert =
                    new String(
                            h.getSideOutput(LiveSchema.ALERTS).peek().getValue().value(),
                            StandardCharsets.UTF_8);
            assertTrue(alert.contains("validation cannot use it"), alert);
            // The schema in force stays: 500 is still out of the domain.
            h.processElement(new StreamRecord<>(record(1, 500, "US"), 1000));
            h.prepareSnapshotPreBarrier(1000);
            assertArrayEquals(
                    "INT_TYPE_BIG_INT".getBytes(StandardCharsets.UTF_8),
                    accepted(h).get(0).lastHeader(BatchValidation.ANOMALIES_HEADER));
        }
    }
}
