package io.tfstream.job.validation;

import static io.tfstream.job.validation.LiveSchemaTestSupport.cancelUnlessEnded;
import static io.tfstream.job.validation.LiveSchemaTestSupport.fingerprint;
import static io.tfstream.job.validation.LiveSchemaTestSupport.payloadFingerprints;
import static io.tfstream.job.validation.LiveSchemaTestSupport.pollEvery100Ms;
import static io.tfstream.job.validation.LiveSchemaTestSupport.produceOver2s;
import static io.tfstream.job.validation.LiveSchemaTestSupport.replace;
import static io.tfstream.job.validation.LiveSchemaTestSupport.stopAfterRestart;
import static io.tfstream.testkit.MiniClusters.completedCheckpoints;
import static io.tfstream.testkit.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tfstream.job.JobConfig;
import io.tfstream.job.JobLauncher;
import io.tfstream.job.JobTestSupport;
import io.tfstream.job.TfstreamPipeline;
import io.tfstream.payload.TensorBatchCodec;
import io.tfstream.proto.v1.TensorBatch;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.testkit.KafkaTestBase;
import io.tfstream.testkit.MiniClusters;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.example.Int64List;

/**
 * {@code schema.update: poll} with validation on, on a MiniCluster and a real KRaft broker: the
 * TFMD schema changes (A → B, another domain of x) while records of one validation window flow, and
 * the TaskManager is killed after the change. Every record is out of both domains, so every
 * non-empty (window, schema) reports {@code INT_TYPE_BIG_INT}: the window spanning the change
 * reports once per fingerprint, and each report counts exactly the records of that window parsed
 * under its schema (told by the tensor payloads, which name their schema), nothing lost or counted
 * twice across the restart.
 */
class LiveSchemaValidationITCase extends KafkaTestBase {
    private static final int PARALLELISM = 2;

    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(PARALLELISM);

    @TempDir static Path dir;

    private static final String A =
            "feature { name: \"x\" type: INT int_domain { min: 0 max: 5 }"
                    + " presence { min_fraction: 1.0 min_count: 1 } shape { dim { size: 1 } } }\n";

    private static final String B = A.replace("max: 5", "max: 7");

    /** A window-aligned base time, validation windows of 10 s. */
    private static final long BASE = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

    private static final long WINDOW = 10_000;

    @Test
    void aWindowSpanningAChangeReportsPerFingerprintAcrossAKilledTaskManager(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        String in = "lsv-in";
        String dlq = "lsv-dlq";
        String batches = "lsv-batches";
        String alerts = "lsv-alerts";
        kafka.createTopic(in, 3);
        kafka.createTopic(dlq, 1);
        kafka.createTopic(batches, 2);
        kafka.createTopic(alerts, 1);
        Path schema = dir.resolve("schema.pbtxt");
        replace(schema, A.getBytes(StandardCharsets.UTF_8));
        String fpA = fingerprint(A.getBytes(StandardCharsets.UTF_8), "schema.pbtxt");
        String fpB = fingerprint(B.getBytes(StandardCharsets.UTF_8), "schema.pbtxt");

        Map<String, Object> settings =
                JobTestSupport.failureTestSettings(
                        "live-validation", kafka.bootstrapServers(), in, schema, dlq);
        settings.remove("spec.path");
        settings.put("schema.path", schema.toString());
        pollEvery100Ms(settings, batches);
        settings.put("event-time.max-out-of-orderness", "0 ms");
        settings.put("validation.enabled", "true");
        settings.put("validation.window", "10 s");
        settings.put("validation.alerts-topic", alerts);
        JobLauncher.Prepared job = JobLauncher.prepare(JobConfig.of(settings));
        org.apache.flink.configuration.Configuration flink =
                JobLauncher.flinkConfiguration(job.config());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
        TfstreamPipeline.build(env, job.config(), job.schema());
        JobClient client = env.executeAsync("live-validation");
        JobID id = client.getJobID();
        int total;
        try {
            // Window 0 under A, then B taken up while window 0's records still flow.
            int next = produce(in, 0, 300);
            waitFor(
                    () ->
                            completedCheckpoints(cluster, id) >= 2
                                    && payloadFingerprints(kafka, batches).contains(fpA),
                    Duration.ofMinutes(2),
                    "two checkpoints and a payload under the first schema");
            replace(schema, B.getBytes(StandardCharsets.UTF_8));
            CompletableFuture<Integer> more = produceAsync(in, next, 300);
            waitFor(
                    () -> payloadFingerprints(kafka, batches).contains(fpB),
                    Duration.ofMinutes(2),
                    "a payload parsed with B");
            next = more.get(2, TimeUnit.MINUTES);

            long before = completedCheckpoints(cluster, id);
            cluster.terminateTaskManager(0).get(60, TimeUnit.SECONDS);
            cluster.startTaskManager();
            // Window 1 after the restart (B restored from the checkpoint).
            total = produce(in, next, 300);
            waitFor(
                    () -> completedCheckpoints(cluster, id) >= before + 2,
                    Duration.ofMinutes(2),
                    "two checkpoints after the restart");
            JobTestSupport.waitForConsumed(
                    kafka.bootstrapServers(), "tfstream", in, Duration.ofMinutes(3));
            stopAfterRestart(cluster, id, client, dir);
        } finally {
            cancelUnlessEnded(client);
        }

        // Expected: records per (window, fingerprint) from the payloads, each record once.
        Map<String, Long> expected = new HashMap<>();
        Set<Integer> seen = new HashSet<>();
        for (ConsumerRecord<byte[], byte[]> r : kafka.readCommitted(batches)) {
            TensorBatch b = TensorBatch.parseFrom(r.value());
            DenseTensor x = (DenseTensor) TensorBatchCodec.decode(b, "").get("x");
            for (int row = 0; row < b.getRows(); row++) {
                int rid = (int) x.values().int64(row) - 100;
                assertTrue(seen.add(rid), "record " + rid + " in one payload");
                long start = time(rid) - Math.floorMod(time(rid), WINDOW);
                expected.merge(start + "/" + b.getSchemaFingerprint(), 1L, Long::sum);
            }
        }
        assertEquals(total, seen.size(), "every record in a payload");
        assertTrue(expected.containsKey(BASE + "/" + fpA), expected.toString());
        assertTrue(expected.containsKey(BASE + "/" + fpB), "window 0 spans the change");

        Map<String, Long> reported = new HashMap<>();
        Set<String> ids = new HashSet<>();
        for (ConsumerRecord<byte[], byte[]> r : kafka.readCommitted(alerts)) {
            JsonNode a = new ObjectMapper().readTree(r.value());
            String fp = a.get("schema_fingerprint").asText();
            assertTrue(fp.equals(fpA) || fp.equals(fpB), "an alert of a schema of the run: " + a);
            assertTrue(ids.add(a.get("alert_id").asText()), "alert once: " + a);
            if (a.get("anomaly_type").asText().equals("INT_TYPE_BIG_INT")) {
                assertEquals(
                        a.get("num_examples").asLong(),
                        a.get("num_affected_examples").asLong(),
                        "every record out of both domains: " + a);
                assertEquals(0, a.get("late_count").asLong(), a.toString());
                reported.put(
                        a.get("window_start").asLong() + "/" + fp, a.get("num_examples").asLong());
            }
        }
        assertEquals(expected, reported, "one report per window and schema, with its own counts");
    }

    /** Record {@code id}'s Kafka timestamp: ids below 600 in window 0, the rest in window 1. */
    private static long time(int id) {
        return id < 600 ? BASE + id * 10L : BASE + WINDOW + (id - 600) * 10L;
    }

    private static CompletableFuture<Integer> produceAsync(String topic, int from, int n) {
        return CompletableFuture.supplyAsync(() -> produce(topic, from, n));
    }

    /** Produces records {@code from} .. {@code from + n - 1} (x = id + 100) over about 2 s. */
    private static int produce(String topic, int from, int n) {
        return produceOver2s(
                kafka,
                from,
                n,
                i ->
                        new ProducerRecord<>(
                                topic,
                                i % 3,
                                time(i),
                                Integer.toString(i).getBytes(StandardCharsets.UTF_8),
                                value(i)));
    }

    /** Record {@code id}: x = id + 100. */
    private static byte[] value(int i) {
        return Example.newBuilder()
                .setFeatures(
                        Features.newBuilder()
                                .putFeature(
                                        "x",
                                        Feature.newBuilder()
                                                .setInt64List(
                                                        Int64List.newBuilder().addValue(i + 100))
                                                .build()))
                .build()
                .toByteArray();
    }
}
