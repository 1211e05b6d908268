package io.tfstream.operators.parse;

import static io.tfstream.operators.parse.LiveSchemaTesting.barriersUntil;
import static io.tfstream.operators.parse.LiveSchemaTesting.deadLetters;
import static io.tfstream.operators.parse.LiveSchemaTesting.fingerprint;
import static io.tfstream.operators.parse.LiveSchemaTesting.harness;
import static io.tfstream.operators.parse.LiveSchemaTesting.inForce;
import static io.tfstream.operators.parse.LiveSchemaTesting.int64Example;
import static io.tfstream.operators.parse.LiveSchemaTesting.polling;
import static io.tfstream.operators.parse.LiveSchemaTesting.specJson;
import static io.tfstream.operators.parse.LiveSchemaTesting.specSettings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.DeadLetterGuard;
import io.tfstream.api.model.DeadLetterReason;
import io.tfstream.api.model.EventTimeSettings;
import io.tfstream.api.model.SchemaCompatibility;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.api.model.ValidationOutput;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.RecordBatch;
import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.payload.EncodedTensorBatch;
import io.tfstream.payload.TensorBatchCodec;
import io.tfstream.proto.v1.TensorBatch;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.spec.VarLenFeature;
import io.tfstream.spec.json.SpecJsonWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live schema: the switch in the count-batch operator between batches, its checkpointed schema,
 * refusals with a SCHEMA alert once per content, and the poller and state pieces alone.
 */
@SuppressWarnings("try") // the harness's close() may throw InterruptedException
class LiveSchemaTest {
    @TempDir Path dir;

    /** x required; y optional. */
    private static final FeatureSpecs V1 =
            FeatureSpecs.of(
                    Map.<String, FeatureSpec>of(
                            "x",
                            FixedLenFeature.required(List.of(), DType.INT64),
                            "y",
                            new VarLenFeature(DType.INT64)));

    /** x and z required: refuses records without z (not backward compatible with V1). */
    private static final FeatureSpecs V2 =
            FeatureSpecs.of(
                    Map.<String, FeatureSpec>of(
                            "x",
                            FixedLenFeature.required(List.of(), DType.INT64),
                            "z",
                            FixedLenFeature.required(List.of(), DType.INT64)));

    /** V1 plus an optional feature: backward compatible. */
    private static final FeatureSpecs V1_PLUS =
            FeatureSpecs.of(
                    Map.<String, FeatureSpec>of(
                            "x",
                            FixedLenFeature.required(List.of(), DType.INT64),
                            "y",
                            new VarLenFeature(DType.INT64),
                            "w",
                            new VarLenFeature(DType.FLOAT32)));

    private static final byte[] ONLY_X = int64Example(Map.of("x", 1L));
    private static final byte[] X_AND_Z = int64Example(Map.of("x", 2L, "z", 3L));

    private ParseSettings settings(Path file, SchemaCompatibility c) throws Exception {
        return specSettings(Files.readAllBytes(file))
                .withTensorBatches(fingerprint(V1), Integer.MAX_VALUE)
                .withSchemaUpdates(polling(file, c));
    }

    /** Checkpoints (barrier only) until the operator's schema is {@code expected}. */
    private static long checkpointUntil(
            OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h,
            String expected,
            long checkpoint)
            throws Exception {
        return barriersUntil(h, () -> expected.equals(inForce(h)), checkpoint);
    }

    private static List<TensorBatch> payloads(
            OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h) {
        List<TensorBatch> out = new ArrayList<>();
        var q = h.getSideOutput(BatchParseOperator.TENSOR_BATCHES);
        if (q != null) {
            for (StreamRecord<EncodedTensorBatch> r : q) {
                out.add(r.getValue().toMessage());
            }
            q.clear();
        }
        return out;
    }

    private static List<JsonNode> alerts(
            OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        var q = h.getSideOutput(LiveSchema.ALERTS);
        if (q != null) {
            for (StreamRecord<ValidationOutput> r : q) {
                out.add(new ObjectMapper().readTree(r.getValue().value()));
            }
        }
        return out;
    }

    private static void feed(
            OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h, long firstOffset)
            throws Exception {
        h.processElement(new StreamRecord<>(SourceRecord.of(ONLY_X, "in", 0, firstOffset, 5)));
        h.processElement(new StreamRecord<>(SourceRecord.of(X_AND_Z, "in", 0, firstOffset + 1, 5)));
    }

    @Test
    void aChangedSchemaIsTakenUpAtABarrierAndEveryOutputCarriesItsFingerprint() throws Exception {
        Path file = dir.resolve("spec.json");
        Files.write(file, specJson(V1));
        OperatorSubtaskState state;
        try (var h = harness(settings(file, SchemaCompatibility.ANY))) {
            h.open();
            feed(h, 0);
            h.prepareSnapshotPreBarrier(1);
            List<TensorBatch> first = payloads(h);
            assertEquals(1, first.size());
            assertEquals(fingerprint(V1), first.get(0).getSchemaFingerprint());
            assertEquals(2, first.get(0).getRows());
            assertEquals(List.of(), deadLetters(h));

            LiveSchemaTesting.replace(file, specJson(V2));
            long cp = checkpointUntil(h, fingerprint(V2), 1);
            feed(h, 2);
            h.prepareSnapshotPreBarrier(cp + 1);
            List<TensorBatch> second = payloads(h);
            assertEquals(1, second.size());
            TensorBatch b = second.get(0);
            assertEquals(fingerprint(V2), b.getSchemaFingerprint());
            // Exactly the parse of its one row under V2.
            assertEquals(
                    ExampleBatchParser.create(V2)
                            .parse(RecordBatch.of(List.of(X_AND_Z)))
                            .features(),
                    TensorBatchCodec.decode(b, ""));
            List<DeadLetter> dead = deadLetters(h);
            assertEquals(1, dead.size());
            assertEquals(2, dead.get(0).source().offset());
            assertEquals(DeadLetterReason.PARSE_ERROR, dead.get(0).reason());
            assertEquals(fingerprint(V2), dead.get(0).schemaFingerprint());
            assertEquals(List.of(), alerts(h));
            state = h.snapshot(cp + 1, 5_000);
        }
        // The file goes back to V1, yet a restore parses with the checkpoint's V2 until the
        // poller's change is taken up at a barrier.
        Files.write(file, specJson(V1));
        try (var h = harness(settings(file, SchemaCompatibility.ANY))) {
            h.initializeState(state);
            h.open();
            assertEquals(fingerprint(V2), inForce(h));
            feed(h, 4);
            h.prepareSnapshotPreBarrier(100);
            assertEquals(1, deadLetters(h).size());
            checkpointUntil(h, fingerprint(V1), 100);
        }
    }

    @Test
    void aRefusedSchemaGivesOneAlertAndChangesNothing() throws Exception {
        Path file = dir.resolve("spec.json");
        Files.write(file, specJson(V1));
        try (var h = harness(settings(file, SchemaCompatibility.BACKWARD))) {
            h.open();
            LiveSchemaTesting.replace(file, "{ not json".getBytes(StandardCharsets.UTF_8));
            long cp = 0;
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (alerts(h).isEmpty()) {
                assertTrue(System.nanoTime() < deadline, "no alert");
                Thread.sleep(10);
                h.prepareSnapshotPreBarrier(++cp);
            }
            // Polled again and again, the same content is not alerted again.
            for (int i = 0; i < 5; i++) {
                Thread.sleep(20);
                h.prepareSnapshotPreBarrier(++cp);
            }
            List<JsonNode> a = alerts(h);
            assertEquals(1, a.size());
            assertEquals("SCHEMA", a.get(0).get("scope").asText());
            assertEquals("SCHEMA_UPDATE_REJECTED", a.get(0).get("anomaly_type").asText());
            assertEquals(fingerprint(V1), a.get(0).get("schema_fingerprint").asText());
            assertTrue(
                    a.get(0).get("description").asText().contains("does not convert"),
                    a.get(0).toString());
            assertEquals(fingerprint(V1), inForce(h));

            // Not backward compatible: refused, naming the feature.
            LiveSchemaTesting.replace(file, specJson(V2));
            while (alerts(h).size() < 2) {
                assertTrue(System.nanoTime() < deadline, "no second alert");
                Thread.sleep(10);
                h.prepareSnapshotPreBarrier(++cp);
            }
            String why = alerts(h).get(1).get("description").asText();
            assertTrue(why.contains("backward") && why.contains("'z'"), why);
            feed(h, 0);
            h.prepareSnapshotPreBarrier(++cp);
            assertEquals(List.of(), deadLetters(h));
            assertEquals(fingerprint(V1), payloads(h).get(0).getSchemaFingerprint());

            // A compatible change is taken up.
            LiveSchemaTesting.replace(file, specJson(V1_PLUS));
            checkpointUntil(h, fingerprint(V1_PLUS), cp);
        }
    }

    @Test
    void eachSchemaInForceIsCopiedBesideTheShardsByItsFingerprint() throws Exception {
        byte[] v1 = "feature { name: 'x' type: INT }".getBytes(StandardCharsets.UTF_8);
        byte[] v2 =
                "feature { name: 'x' type: INT }\nfeature { name: 'z' type: FLOAT }"
                        .getBytes(StandardCharsets.UTF_8);
        Path file = dir.resolve("schema.pbtxt");
        Files.write(file, v1);
        Path shards = dir.resolve("shards");
        ParseSettings s =
                new ParseSettings(
                                v1,
                                "schema.pbtxt",
                                false,
                                ParseLimits.defaults(),
                                BatchTriggers.defaults(),
                                EventTimeSettings.kafkaTimestamp(),
                                DeadLetterGuard.off())
                        .withSchemaUpdates(
                                new SchemaUpdates(file.toString(), 1000, SchemaCompatibility.ANY))
                        .withSchemaCopies(shards.toUri().toString());
        LiveSchema live = new LiveSchema(s, "job");
        String f1 = live.fingerprint();
        Path copy1 = shards.resolve(io.tfstream.shards.ShardLayout.schemaPath(f1));
        assertTrue(Files.exists(copy1), "the configured schema, when the operator starts");
        assertTrue(live.consider(v2, SchemaPoller.sha256(v2), a -> {}, 7));
        String f2 = live.fingerprint();
        assertNotEquals(f1, f2);
        Path copy2 = shards.resolve(io.tfstream.shards.ShardLayout.schemaPath(f2));
        assertEquals(
                f2,
                io.tfstream.spec.SchemaFingerprint.of(Files.readAllBytes(copy2), "schema.pbtxt"),
                "the schema taken up, copied before any record is parsed with it");
    }

    @Test
    void refusalsOfAnotherKindOrWithoutTheEventTimeFeature() throws Exception {
        Path file = dir.resolve("spec.json");
        Files.write(file, specJson(V1));
        ParseSettings s =
                new ParseSettings(
                                specJson(V1),
                                "spec.json",
                                false,
                                ParseLimits.defaults(),
                                BatchTriggers.defaults(),
                                EventTimeSettings.feature("y", EventTimeSettings.Unit.MILLIS),
                                DeadLetterGuard.off())
                        .withSchemaUpdates(
                                new SchemaUpdates(file.toString(), 1000, SchemaCompatibility.ANY));
        List<ValidationOutput> alerts = new ArrayList<>();
        LiveSchema live = new LiveSchema(s, "job");
        byte[] v2 = specJson(V2);
        assertFalse(live.consider(v2, SchemaPoller.sha256(v2), alerts::add, 7));
        assertEquals(1, alerts.size());
        String text = new String(alerts.get(0).value(), StandardCharsets.UTF_8);
        assertTrue(text.contains("event-time feature 'y'"), text);
        // The same content again: no second alert.
        assertFalse(live.consider(v2, SchemaPoller.sha256(v2), alerts::add, 8));
        assertEquals(1, alerts.size());

        byte[] seq =
                SpecJsonWriter.write(
                                new SequenceFeatureSpecs(
                                        V1, FeatureSpecs.of(Map.<String, FeatureSpec>of())))
                        .getBytes(StandardCharsets.UTF_8);
        assertFalse(live.consider(seq, SchemaPoller.sha256(seq), alerts::add, 9));
        assertEquals(2, alerts.size());
        String t = new String(alerts.get(1).value(), StandardCharsets.UTF_8);
        assertTrue(t.contains("SequenceExample"), t);
        byte[] plus = specJson(V1_PLUS);
        assertTrue(live.consider(plus, SchemaPoller.sha256(plus), alerts::add, 10));
        assertEquals(fingerprint(V1_PLUS), live.fingerprint());
        assertNotEquals(fingerprint(V1), live.fingerprint());
    }

    @Test
    void thePollerHandsOnlyChangedContent() throws Exception {
        Path file = dir.resolve("spec.json");
        Files.write(file, specJson(V1));
        try (SchemaPoller p = new SchemaPoller(file.toString(), specJson(V1))) {
            p.pollOnce();
            assertNull(p.take());
            LiveSchemaTesting.replace(file, specJson(V2));
            p.pollOnce();
            p.pollOnce(); // the same content again replaces nothing
            SchemaPoller.Candidate c = p.take();
            assertEquals(SchemaPoller.sha256(specJson(V2)), c.sha256());
            assertEquals(new String(specJson(V2), StandardCharsets.UTF_8), new String(c.content()));
            assertNull(p.take());
            Files.delete(file);
            p.pollOnce(); // unreadable: logged, nothing handed
            assertNull(p.take());
        }
    }

    @Test
    void theStateEntryRoundTripsAndARestorePicksItsOwnOrTheNewest() throws Exception {
        SchemaInForceState.Entry e =
                new SchemaInForceState.Entry(3, 42, "schema.pbtxt", new byte[] {1, 2, 3});
        SchemaInForceState.Entry back = SchemaInForceState.decode(SchemaInForceState.encode(e));
        assertEquals(3, back.subtask());
        assertEquals(42, back.switchedAt());
        assertEquals("schema.pbtxt", back.fileName());
        assertEquals(List.of((byte) 1, (byte) 2, (byte) 3), bytes(back.content()));

        SchemaInForceState.Entry old = new SchemaInForceState.Entry(0, 7, "s", new byte[0]);
        SchemaInForceState.Entry newer = new SchemaInForceState.Entry(1, 9, "s", new byte[0]);
        assertEquals(old, SchemaInForceState.better(newer, old, 0)); // its own
        assertEquals(newer, SchemaInForceState.better(old, newer, 5)); // no own: the newest
    }

    private static List<Byte> bytes(byte[] b) {
        List<Byte> out = new ArrayList<>();
        for (byte x : b) {
            out.add(x);
        }
        return out;
    }
}
