package io.tfstream.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.model.BatchKeySelector;
import io.tfstream.api.model.DeadLetterGuard;
import io.tfstream.api.model.EventTimeSettings;
import io.tfstream.api.model.LateRecords;
import io.tfstream.api.model.SchemaCompatibility;
import io.tfstream.api.model.WindowSettings;
import io.tfstream.convert.InputFormat;
import io.tfstream.operators.parse.BatchTriggers;
import io.tfstream.operators.parse.SchemaUpdates;
import io.tfstream.parse.ParseLimits;
import io.tfstream.sample.SeedDataset;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.testing.Seed001Corpus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link TfstreamParseBuilder}: defaults, the required schema, bad settings named at build. */
class TfstreamParseBuilderTest {
    private static final byte[] SPEC =
            SpecJsonWriter.write(Seed001Corpus.spec()).getBytes(StandardCharsets.UTF_8);

    private static TfstreamParseBuilder seed() {
        return TfstreamParse.builder().setSchema(SPEC, "spec.json");
    }

    private static String failure(TfstreamParseBuilder b) {
        return assertThrows(IllegalArgumentException.class, b::build).getMessage();
    }

    @Test
    void defaultsAreThoseOfTfstreamRun() throws Exception {
        TfstreamParse p = seed().build();
        assertEquals("batch-and-parse", p.uid());
        assertEquals(BatchTriggers.defaults(), p.settings().triggers());
        assertEquals(EventTimeSettings.kafkaTimestamp(), p.settings().eventTime());
        assertFalse(p.settings().guard().enabled());
        assertEquals(ParseLimits.defaults(), p.settings().limits());
        assertFalse(p.settings().tensorBatches());
        assertNull(p.settings().validation());
        assertEquals(Seed001Corpus.spec(), p.settings().spec());
    }

    @Test
    void windowBatchesDefaultToTheWindowUid() {
        TfstreamParse p =
                seed().setEventTimeWindows(
                                WindowSettings.builder(java.time.Duration.ofMillis(60_000))
                                        .setAllowedLateness(java.time.Duration.ofMillis(0))
                                        .setLateRecords(LateRecords.DEAD_LETTER)
                                        .setMaxBufferedBytes(1 << 20)
                                        .build(),
                                BatchKeySelector.sourcePartition())
                        .build();
        assertEquals("window-batch-and-parse", p.uid());
    }

    @Test
    void settingsReachTheOperator(@TempDir Path dir) throws Exception {
        Path file = Files.write(dir.resolve("spec.json"), SPEC);
        TfstreamParse p =
                TfstreamParse.builder()
                        .setSchemaFile(file)
                        .setMaxRecords(7)
                        .setMaxBytes(4096)
                        .setMaxDelay(Duration.ofSeconds(3))
                        .setDeadLetterGuard(
                                DeadLetterGuard.builder()
                                        .setMaxFraction(0.5)
                                        .setWindow(Duration.ofMinutes(2))
                                        .setMinRecords(10)
                                        .build())
                        .setTensorBatches("fp", 4096)
                        .setUid("my-parse")
                        .build();
        assertEquals(new BatchTriggers(7, 4096, Duration.ofSeconds(3)), p.settings().triggers());
        assertTrue(p.settings().guard().enabled());
        assertEquals("fp", p.settings().tensorBatchFingerprint());
        assertEquals(4096, p.settings().maxPayloadBytes());
        assertEquals("my-parse", p.uid());
    }

    @Test
    void theSchemaIsRequired() {
        assertTrue(failure(TfstreamParse.builder()).startsWith("schema is required"));
    }

    @Test
    void anUnusableSchemaFailsAtBuild() {
        String m =
                failure(
                        TfstreamParse.builder()
                                .setSchema(
                                        "{not json".getBytes(StandardCharsets.UTF_8), "spec.json"));
        assertTrue(m.startsWith("schema spec.json is not usable"), m);
    }

    @Test
    void badSettingsAreNamed() {
        BuilderErrors.assertNamed(failure(seed().setMaxRecords(0)), "maxRecords");
        BuilderErrors.assertNamed(failure(seed().setMaxBytes(0)), "maxBytes");
        BuilderErrors.assertNamed(failure(seed().setMaxDelay(Duration.ZERO)), "maxDelay");
        BuilderErrors.assertNamed(failure(seed().setTensorBatches("fp", 10)), "tensorBatches");
        BuilderErrors.assertNamed(failure(seed().setLimits(null)), "limits");
        BuilderErrors.assertNamed(failure(seed().setDeadLetterGuard(null)), "deadLetterGuard");
        BuilderErrors.assertNamed(failure(seed().setUid("")), "uid");
        BuilderErrors.assertNamed(
                failure(
                        seed().setEventTime(
                                        EventTimeSettings.feature(
                                                "ts", EventTimeSettings.Unit.MILLIS))
                                .setEventTimeWindows(
                                        WindowSettings.builder(java.time.Duration.ofMillis(60_000))
                                                .setAllowedLateness(java.time.Duration.ofMillis(0))
                                                .setLateRecords(LateRecords.DEAD_LETTER)
                                                .setMaxBufferedBytes(1 << 20)
                                                .build(),
                                        BatchKeySelector.sourcePartition())),
                "eventTimeWindows");
    }

    @Test
    void schemaUpdatesAreCheckedAndCombineWithValidation() {
        TfstreamParse p =
                seed().setSchemaUpdates(
                                "file:///etc/tfstream/spec.json",
                                Duration.ofSeconds(5),
                                SchemaCompatibility.BACKWARD)
                        .build();
        assertEquals(
                new SchemaUpdates(
                        "file:///etc/tfstream/spec.json", 5000, SchemaCompatibility.BACKWARD),
                p.settings().schemaUpdates());
        assertNull(seed().build().settings().schemaUpdates());
        IllegalArgumentException zero =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                seed().setSchemaUpdates(
                                                "spec.json",
                                                Duration.ZERO,
                                                SchemaCompatibility.ANY));
        assertTrue(zero.getMessage().contains("interval"), zero.getMessage());
        TfstreamParse both =
                seed().setSchemaUpdates("spec.json", Duration.ofSeconds(1), SchemaCompatibility.ANY)
                        .setValidation(
                                TfstreamValidation.builder()
                                        .setSchema(SeedDataset.schemaPbtxt(), "schema.pbtxt")
                                        .setJobName("job")
                                        .build())
                        .build();
        // Validation follows the schema in force: both are on.
        assertNotNull(both.settings().schemaUpdates());
        assertNotNull(both.settings().validation());
    }

    @Test
    void conversionInTheParseNeedsCountBatches() {
        TfstreamConvert json =
                TfstreamConvert.builder()
                        .setSchema(SPEC, "spec.json")
                        .setFormat(InputFormat.JSON)
                        .build();
        TfstreamParse live =
                seed().setSchemaUpdates("spec.json", Duration.ofSeconds(1), SchemaCompatibility.ANY)
                        .setConversion(json)
                        .build();
        assertEquals(json.settings(), live.settings().conversion());
        assertTrue(live.settings().acceptedExamples());
        TfstreamParse fixed = seed().setConversion(json).setAcceptedExamples(false).build();
        assertEquals(json.settings(), fixed.settings().conversion());
        assertFalse(fixed.settings().acceptedExamples());
        String windowed =
                failure(
                        seed().setConversion(json)
                                .setEventTimeWindows(
                                        WindowSettings.builder(java.time.Duration.ofMillis(60_000))
                                                .setAllowedLateness(java.time.Duration.ofMillis(0))
                                                .setLateRecords(LateRecords.DEAD_LETTER)
                                                .setMaxBufferedBytes(1 << 20)
                                                .build(),
                                        BatchKeySelector.sourcePartition()));
        assertTrue(
                windowed.startsWith("conversion inside the parse needs count batches"), windowed);
    }
}
