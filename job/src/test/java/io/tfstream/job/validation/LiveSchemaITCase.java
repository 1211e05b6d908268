package io.tfstream.job.validation;

import static io.tfstream.job.validation.LiveSchemaTestSupport.cancelUnlessEnded;
import static io.tfstream.job.validation.LiveSchemaTestSupport.fingerprint;
import static io.tfstream.job.validation.LiveSchemaTestSupport.header;
import static io.tfstream.job.validation.LiveSchemaTestSupport.payloadFingerprints;
import static io.tfstream.job.validation.LiveSchemaTestSupport.pollEvery100Ms;
import static io.tfstream.job.validation.LiveSchemaTestSupport.produceOver2s;
import static io.tfstream.job.validation.LiveSchemaTestSupport.replace;
import static io.tfstream.job.validation.LiveSchemaTestSupport.specJson;
import static io.tfstream.job.validation.LiveSchemaTestSupport.stopAfterRestart;
import static io.tfstream.testkit.MiniClusters.completedCheckpoints;
import static io.tfstream.testkit.ProtoFeatures.int64s;
import static io.tfstream.testkit.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tfstream.job.JobTestSupport;
import io.tfstream.job.shards.ShardRunChecks;
import io.tfstream.operators.deadletter.DeadLetterHeaders;
import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.LenientBatchParser;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.RecordBatch;
import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.payload.TensorBatchCodec;
import io.tfstream.proto.v1.TensorBatch;
import io.tfstream.shards.ShardManifest;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.VarLenFeature;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.Tensor;
import io.tfstream.testkit.KafkaTestBase;
import io.tfstream.testkit.MiniClusters;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.Example;
import org.tensorflow.example.Features;

/**
 * {@code schema.update: poll} end to end on a MiniCluster and a real KRaft broker: while records
 * flow the spec file changes twice (V1 → V2, which refuses half of the records, → V3), an invalid
 * file in between gives a SCHEMA alert and changes nothing, and the TaskManager is killed between
 * the two changes. Then: every record exactly once in the shards or the dead letters; every shard
 * and payload carries one fingerprint and holds exactly the parse of its rows under that schema;
 * every dead letter is refused under the schema its header names.
 */
class LiveSchemaITCase extends KafkaTestBase {
    private static final int PARALLELISM = 2;

    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(PARALLELISM);

    @TempDir static Path dir;

    /** x required; y optional: every well-formed record is accepted. */
    private static final FeatureSpecs V1 =
            FeatureSpecs.of(
                    Map.<String, FeatureSpec>of(
                            "x",
                            FixedLenFeature.required(List.of(), DType.INT64),
                            "y",
                            new VarLenFeature(DType.INT64)));

    /** x and z required: records without z (odd ids) are refused. */
    private static final FeatureSpecs V2 =
            FeatureSpecs.of(
                    Map.<String, FeatureSpec>of(
                            "x",
                            FixedLenFeature.required(List.of(), DType.INT64),
                            "z",
                            FixedLenFeature.required(List.of(), DType.INT64)));

    /** x required, z and w optional: every well-formed record is accepted again. */
    private static final FeatureSpecs V3 =
            FeatureSpecs.of(
                    Map.<String, FeatureSpec>of(
                            "x",
                            FixedLenFeature.required(List.of(), DType.INT64),
                            "z",
                            new VarLenFeature(DType.INT64),
                            "w",
                            new VarLenFeature(DType.FLOAT32)));

    /** One record in this many is not an Example at all (refused under every schema). */
    private static final int BROKEN_EVERY = 37;

    private static final byte[] BROKEN = {0x0a, 0x7f, 0x01};

    private final Map<String, FeatureSpecs> specs = new HashMap<>();

    @Test
    void twoChangesAnInvalidFileAndAKilledTaskManager(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        String in = "live-in";
        String dlq = "live-dlq";
        String batches = "live-batches";
        String alerts = "live-alerts";
        kafka.createTopic(in, 3);
        kafka.createTopic(dlq, 2);
        kafka.createTopic(batches, 2);
        kafka.createTopic(alerts, 1);
        Path specFile = dir.resolve("spec.json");
        Path shards = dir.resolve("shards");
        for (FeatureSpecs s : List.of(V1, V2, V3)) {
            specs.put(fingerprint(s), s);
        }
        replace(specFile, specJson(V1));

        Map<String, Object> settings =
                JobTestSupport.failureTestSettings(
                        "live", kafka.bootstrapServers(), in, specFile, dlq);
        pollEvery100Ms(settings, batches);
        settings.put("validation.alerts-topic", alerts);
        settings.put("shards.path", shards.toUri().toString());
        settings.put("shards.max-age", "1 h");
        settings.put("shards.target-size", "1 gb");
        JobClient client = JobTestSupport.startPipeline(settings, "live");
        JobID id = client.getJobID();
        int total;
        try {
            int next = produce(in, 0, 1500);
            waitFor(
                    () ->
                            completedCheckpoints(cluster, id) >= 2
                                    && payloadFingerprints(kafka, batches)
                                            .contains(fingerprint(V1)),
                    Duration.ofMinutes(2),
                    "two checkpoints and a payload under the first schema");

            replace(specFile, specJson(V2));
            CompletableFuture<Integer> phase2 = produceAsync(in, next, 1500);
            waitFor(
                    () -> payloadFingerprints(kafka, batches).contains(fingerprint(V2)),
                    Duration.ofMinutes(2),
                    "a payload parsed with V2");
            next = phase2.get(2, TimeUnit.MINUTES);

            byte[] invalid = "{ \"x\": ".getBytes(StandardCharsets.UTF_8);
            replace(specFile, invalid);
            next = produce(in, next, 500);
            waitFor(() -> !kafka.readCommitted(alerts).isEmpty(), Duration.ofMinutes(2), "alert");

            long before = completedCheckpoints(cluster, id);
            cluster.terminateTaskManager(0).get(60, TimeUnit.SECONDS);
            cluster.startTaskManager();
            next = produce(in, next, 1000);
            waitFor(
                    () -> completedCheckpoints(cluster, id) >= before + 2,
                    Duration.ofMinutes(2),
                    "two checkpoints after the restart");

            replace(specFile, specJson(V3));
            CompletableFuture<Integer> phase5 = produceAsync(in, next, 1500);
            waitFor(
                    () -> payloadFingerprints(kafka, batches).contains(fingerprint(V3)),
                    Duration.ofMinutes(2),
                    "a payload parsed with V3");
            total = phase5.get(2, TimeUnit.MINUTES);
            JobTestSupport.waitForConsumed(
                    kafka.bootstrapServers(), "tfstream", in, Duration.ofMinutes(3));
            stopAfterRestart(cluster, id, client, dir);
        } finally {
            cancelUnlessEnded(client);
        }

        checkAlerts(kafka.readCommitted(alerts), invalid());
        Map<Integer, Integer> seen = new HashMap<>();
        Set<Integer> inShards = checkShards(shards, seen);
        checkDeadLetters(kafka.readCommitted(dlq), seen);
        checkPayloads(kafka.readCommitted(batches), inShards);
        for (int i = 0; i < total; i++) {
            assertEquals(1, seen.getOrDefault(i, 0), "record " + i + " exactly once");
        }
        assertEquals(total, seen.size(), "no other records");
        assertTrue(
                payloadFingerprints(kafka, batches).containsAll(specs.keySet()),
                "payloads under every schema: " + payloadFingerprints(kafka, batches));
    }

    private static byte[] invalid() {
        return "{ \"x\": ".getBytes(StandardCharsets.UTF_8);
    }

    /** One alert (by id), refusing the invalid content, with V2 still in force. */
    private static void checkAlerts(List<ConsumerRecord<byte[], byte[]>> records, byte[] invalid)
            throws Exception {
        Set<String> ids = new HashSet<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            JsonNode a = new ObjectMapper().readTree(r.value());
            ids.add(a.get("alert_id").asText());
            assertEquals("SCHEMA", a.get("scope").asText());
            assertEquals("SCHEMA_UPDATE_REJECTED", a.get("anomaly_type").asText());
            assertEquals(fingerprint(V2), a.get("schema_fingerprint").asText());
            assertEquals(
                    io.tfstream.operators.parse.SchemaPoller.sha256(invalid),
                    a.get("observed").get("content_sha256").asText());
            assertTrue(
                    a.get("description").asText().contains("does not convert"),
                    a.get("description").asText());
        }
        assertEquals(1, ids.size(), "the same refusal has one id: " + ids);
    }

    /**
     * Every shard's records are accepted under the schema its manifest names; returns the ids in
     * shards, counting them in {@code seen}.
     */
    private Set<Integer> checkShards(Path base, Map<Integer, Integer> seen) throws Exception {
        Set<Integer> ids = new HashSet<>();
        Set<String> fingerprints = new HashSet<>();
        for (Path shard : JobTestSupport.finishedShards(base)) {
            Path manifest = ShardRunChecks.manifestOf(shard);
            ShardManifest m = ShardManifest.fromJson(Files.readString(manifest));
            assertNull(m.schema(), "a feature spec is no schema: no copy to name");
            FeatureSpecs spec = specs.get(m.schemaFingerprint());
            assertNotNull(spec, "the manifest of " + shard + " names a schema of the run");
            fingerprints.add(m.schemaFingerprint());
            List<byte[]> values = new ArrayList<>();
            try (TfRecordReader r =
                    TfRecordFiles.openReader(shard, TfRecordReadOptions.defaults())) {
                while (r.next()) {
                    values.add(r.copy());
                }
            }
            assertEquals(List.of(), refused(spec, values), shard + ": refused under its schema");
            for (byte[] v : values) {
                int x =
                        (int)
                                Example.parseFrom(v)
                                        .getFeatures()
                                        .getFeatureMap()
                                        .get("x")
                                        .getInt64List()
                                        .getValue(0);
                ids.add(x);
                seen.merge(x, 1, Integer::sum);
            }
        }
        assertTrue(fingerprints.size() >= 2, "shards of several schemas: " + fingerprints);
        return ids;
    }

    /** Every dead letter is refused under the schema its header names. */
    private void checkDeadLetters(
            List<ConsumerRecord<byte[], byte[]>> dead, Map<Integer, Integer> seen) {
        int underV2 = 0;
        for (ConsumerRecord<byte[], byte[]> r : dead) {
            String fp = header(r, DeadLetterHeaders.SCHEMA_FINGERPRINT);
            FeatureSpecs spec = specs.get(fp);
            assertNotNull(spec, "a dead letter names a schema of the run: " + fp);
            assertEquals(List.of(0), refused(spec, List.of(r.value())), "refused under " + fp);
            if (fp.equals(fingerprint(V2)) && r.value().length != BROKEN.length) {
                underV2++;
            }
            int id = Integer.parseInt(new String(r.key(), StandardCharsets.UTF_8));
            seen.merge(id, 1, Integer::sum);
        }
        assertTrue(underV2 > 0, "records without z refused under V2");
    }

    /**
     * Every payload equals the parse of its rows (told by their x) under the schema it names, and
     * every record in shards is a row of exactly one payload.
     */
    private void checkPayloads(List<ConsumerRecord<byte[], byte[]>> payloads, Set<Integer> inShards)
            throws Exception {
        Map<Integer, Integer> rows = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : payloads) {
            TensorBatch b = TensorBatch.parseFrom(r.value());
            FeatureSpecs spec = specs.get(b.getSchemaFingerprint());
            assertNotNull(spec, "a payload names a schema of the run");
            Map<String, Tensor> tensors = TensorBatchCodec.decode(b, "");
            DenseTensor x = (DenseTensor) tensors.get("x");
            List<byte[]> values = new ArrayList<>();
            for (int row = 0; row < b.getRows(); row++) {
                int id = (int) x.values().int64(row);
                rows.merge(id, 1, Integer::sum);
                values.add(value(id));
            }
            assertEquals(
                    ExampleBatchParser.create(spec).parse(RecordBatch.of(values)).features(),
                    tensors,
                    "payload " + b.getBatchId() + " is the parse of its rows");
        }
        for (int id : inShards) {
            assertEquals(1, rows.getOrDefault(id, 0), "record " + id + " in one payload");
        }
        assertEquals(inShards.size(), rows.size(), "payload rows are the records in shards");
    }

    /** Indexes of {@code values} that {@code spec} refuses. */
    private static List<Integer> refused(FeatureSpecs spec, List<byte[]> values) {
        List<Integer> out = new ArrayList<>();
        LenientBatchParser.create(spec, ParseLimits.defaults())
                .parse(
                        RecordBatch.of(values),
                        (ExampleParseException e) -> out.add(e.recordIndex()));
        return out;
    }

    /** Record {@code id}: x = id, z when the id is even; every 37th is not an Example. */
    private static byte[] value(int id) {
        if (id % BROKEN_EVERY == BROKEN_EVERY - 1) {
            return BROKEN.clone();
        }
        Features.Builder f = Features.newBuilder().putFeature("x", int64s(id));
        if (id % 2 == 0) {
            f.putFeature("z", int64s(id * 10L));
        }
        return Example.newBuilder().setFeatures(f).build().toByteArray();
    }

    private static CompletableFuture<Integer> produceAsync(String topic, int from, int n) {
        return CompletableFuture.supplyAsync(() -> produce(topic, from, n));
    }

    /**
     * Produces records {@code from} .. {@code from + n - 1} over about 2 s; returns the next id.
     */
    private static int produce(String topic, int from, int n) {
        return produceOver2s(
                kafka,
                from,
                n,
                i ->
                        new ProducerRecord<>(
                                topic,
                                i % 3,
                                Integer.toString(i).getBytes(StandardCharsets.UTF_8),
                                value(i)));
    }
}
