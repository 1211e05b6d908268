package io.tfstream.e2e.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tfstream.job.InputCorpus;
import io.tfstream.parse.ParseLimits;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testkit.TestFiles;
import io.tfstream.testkit.Waits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The job on a real multi-process cluster, started with {@code deploy/local/} as a user would:
 * {@code up} (broker, S3Proxy, a JobManager and two TaskManagers, each its own JVM), {@code topics
 * create}, {@code submit} of the thin job jar at parallelism 2 with shards on S3, tensor payloads
 * and dead letters; then 2 000 seed-001 Examples with 1% broken ones. Every good record is a row of
 * exactly one committed payload and in exactly one finished shard on S3, every broken one in the
 * dead-letter topic once with its offset, checkpoints are on S3 at the interval of the cluster's
 * configuration (the job sets none), every process serves its metrics for Prometheus and the
 * TaskManagers' count every record; a TaskManager killed with {@code kill -9} leaves its working
 * directory only until the next process starts; {@code status --json} reports the cluster, {@code
 * down} leaves no process behind. The state directory stays in {@code target/} for its logs.
 */
class LocalClusterSmokeITCase {
    private static final int RECORDS = 2_000;
    private static final Duration OUTPUT_TIMEOUT = Duration.ofMinutes(2);

    @Test
    void runsTheJobOnALocalClusterExactlyOnce() throws Exception {
        Path state =
                Files.createTempDirectory(Path.of("target").toAbsolutePath(), "local-cluster-");
        try (LocalCluster cluster = LocalCluster.create(state)) {
            // The cluster's checkpoint interval; the job sets none and keeps it.
            cluster.flinkConfig(
                    Files.writeString(
                            state.resolve("flink-extra.yaml"),
                            "execution.checkpointing.interval: 1 s\n"));
            cluster.up(2);
            JsonNode status = cluster.status();
            assertTrue(status.get("up").asBoolean(), status.toString());
            long brokerPid = status.get("broker").get("pid").asLong();
            cluster.up(2); // idempotent: nothing is started twice
            status = cluster.status();
            assertEquals(brokerPid, status.get("broker").get("pid").asLong());
            assertEquals(2, registeredTaskManagers(status), status.toString());

            cluster.createTopics("in:2", "dlq", "batches:2");
            String jobId = cluster.submit(jobConfig(cluster, state), 2);
            assertEquals("RUNNING", jobState(cluster.status(), jobId));
            assertEquals(
                    1000,
                    cluster.rest("/jobs/" + jobId + "/checkpoints/config").get("interval").asLong(),
                    "the cluster's checkpoint interval");

            List<InputCorpus.Input> inputs =
                    InputCorpus.examples(RECORDS, 11, Seed001Corpus.spec(), ParseLimits.defaults());
            OutputAudit audit = new OutputAudit(cluster.bootstrapServers(), "in");
            audit.produced(inputs, InputProducer.produce(cluster.bootstrapServers(), "in", inputs));
            assertTrue(audit.bad() >= RECORDS / 100 / 2, "broken records: " + audit.bad());

            Path shards = cluster.objects("tfstream").resolve("shards");
            Waits.waitFor(
                    () ->
                            OutputAudit.payloadRows(cluster.bootstrapServers(), "batches")
                                            >= audit.good()
                                    && CommittedRecords.read(cluster.bootstrapServers(), "dlq")
                                                    .size()
                                            >= audit.bad()
                                    && OutputAudit.shardRecordsSoFar(shards) >= audit.good(),
                    OUTPUT_TIMEOUT,
                    "every record in the payloads, the dead letters and the shards");
            Thread.sleep(3_000); // a few more checkpoints: anything committed twice would show

            for (OutputAudit.Counts c :
                    List.of(
                            audit.payloads("batches"),
                            audit.deadLetters("dlq"),
                            audit.shards(shards))) {
                assertTrue(c.exact(), c.toString());
            }
            assertEquals("RUNNING", jobState(cluster.status(), jobId));
            assertMetricsScraped(cluster, audit.good() + audit.bad());
            // JobManager HA's ZooKeeper: its client port on loopback, its AdminServer off
            assertEquals(
                    java.util.Set.of("127.0.0.1"),
                    io.tfstream.metrics.ListeningSockets.addressesOf(cluster.zookeeperPort()),
                    "ZooKeeper on loopback only");
            assertTrue(cluster.status().get("zookeeper").get("running").asBoolean());
            Path checkpoints = cluster.objects("tfstream").resolve("flink/checkpoints/" + jobId);
            assertTrue(
                    TestFiles.regularFiles(checkpoints).stream()
                            .anyMatch(f -> f.getFileName().toString().equals("_metadata")),
                    "checkpoints on S3 under " + checkpoints);

            // A process killed with kill -9 leaves its working directory (temporary files, the
            // BLOB cache with the job's jar); the next start of a Flink process removes it.
            Path work = state.resolve("flink").resolve("work");
            assertTrue(Files.isDirectory(work.resolve("taskmanager-1").resolve("blobs")));
            cluster.killTaskManager(1);
            assertTrue(Files.isDirectory(work.resolve("taskmanager-1")), "left by the kill");
            int next = cluster.startTaskManager();
            assertFalse(Files.exists(work.resolve("taskmanager-1")), "removed at the next start");
            assertTrue(Files.isDirectory(work.resolve("taskmanager-" + next).resolve("tmp")));

            cluster.down();
            JsonNode after = cluster.status();
            assertFalse(after.get("up").asBoolean());
            for (String process : List.of("broker", "s3proxy", "zookeeper", "jobmanager")) {
                assertFalse(after.get(process).get("running").asBoolean(), process);
            }
            for (JsonNode tm : after.get("taskmanagers")) {
                assertFalse(tm.get("running").asBoolean(), tm.toString());
            }
        }
    }

    private static Path jobConfig(LocalCluster cluster, Path state) throws Exception {
        Path spec = state.resolve("spec.json");
        Files.writeString(spec, SpecJsonWriter.write(Seed001Corpus.spec()));
        Path yaml = state.resolve("job.yaml");
        Files.writeString(
                yaml,
                String.join(
                        "\n",
                        "job.name: e2e-local-cluster",
                        "parallelism: 2",
                        "source:",
                        "  bootstrap-servers: " + cluster.bootstrapServers(),
                        "  topics: [in]",
                        "  starting-offsets: earliest",
                        "spec.path: " + spec,
                        "batch.max-delay: 100 ms",
                        "dlq.topic: dlq",
                        "output.batches.topic: batches",
                        "output.transaction-timeout: 1 min",
                        // the cluster's own configuration holds the S3 endpoint and keys
                        "shards.path: s3://tfstream/shards",
                        "shards.max-age: 2 s",
                        ""));
        return yaml;
    }

    /**
     * The Prometheus reporter runs as a plugin in every process, listening on loopback only: the
     * JobManager's endpoint has the job's checkpoint metrics, the TaskManagers' the job's records,
     * all of them counted.
     */
    private static void assertMetricsScraped(LocalCluster cluster, long records)
            throws java.io.IOException {
        var listeners = cluster.metricsListeners();
        assertEquals(3, listeners.size(), "three metrics endpoints: " + listeners);
        for (var at : listeners.values()) {
            assertEquals(java.util.Set.of("127.0.0.1"), at, "loopback only: " + listeners);
        }
        List<String> scrapes = cluster.scrapeMetrics();
        assertEquals(3, scrapes.size(), "a JobManager and two TaskManagers");
        // Each process takes the first free port of the range, so which one is the JobManager's
        // depends on start-up order: one endpoint, any of them, has its checkpoint metrics.
        assertEquals(
                1,
                scrapes.stream()
                        .filter(
                                s ->
                                        s.contains(
                                                "flink_jobmanager_job_numberOfCompletedCheckpoints{"))
                        .count(),
                "one endpoint is the JobManager's, with the job's checkpoint metrics");
        double recordsIn = 0;
        for (String scrape : scrapes) {
            for (String line : scrape.split("\n")) {
                if (line.startsWith("flink_taskmanager_job_task_operator_tfstream_recordsIn{")) {
                    recordsIn += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                }
            }
        }
        assertEquals(records, (long) recordsIn, "recordsIn over every TaskManager's endpoint");
    }

    private static int registeredTaskManagers(JsonNode status) {
        int n = 0;
        for (JsonNode tm : status.get("taskmanagers")) {
            if (tm.get("running").asBoolean() && tm.get("registered").asBoolean()) {
                n++;
            }
        }
        return n;
    }

    private static String jobState(JsonNode status, String jobId) {
        for (JsonNode job : status.get("jobs")) {
            if (job.get("id").asText().equals(jobId)) {
                return job.get("state").asText();
            }
        }
        throw new AssertionError("job " + jobId + " not in " + status);
    }
}
