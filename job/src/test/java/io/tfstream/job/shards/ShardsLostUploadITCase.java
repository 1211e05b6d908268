package io.tfstream.job.shards;

import static io.tfstream.testkit.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.embedded.S3ProxyProcess;
import io.tfstream.job.InputCorpus;
import io.tfstream.job.JobTestSupport;
import io.tfstream.operators.shards.store.S3ShardStoreFactory;
import io.tfstream.parse.ParseLimits;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testkit.KafkaTestBase;
import io.tfstream.testkit.MiniClusters;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * An open shard's multipart upload aborted behind a running job's back ({@code tfstream shards
 * uploads --abort} run too early, a lifecycle rule): the job's next part (on S3) or its commit (S3
 * and S3Proxy) meets a lost shard and, with the default {@code shards.on-lost-shard: fail}, the job
 * fails with a message naming the shard, the source ranges it held and what to do.
 */
class ShardsLostUploadITCase extends KafkaTestBase {
    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(2);

    @TempDir static Path dir;

    private static S3ProxyProcess s3;
    private static Path credentials;

    @org.junit.jupiter.api.BeforeAll
    static void startS3Proxy() throws Exception {
        s3 = S3ProxyProcess.start(dir.resolve("s3proxy"));
        s3.createBucket("tfstream");
        credentials = s3.writeCredentials(dir.resolve("s3.properties"));
    }

    @org.junit.jupiter.api.AfterAll
    static void stopS3Proxy() throws Exception {
        s3.close();
    }

    @Test
    void anUploadAbortedUnderARunningJobFailsItNamingTheShard(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        String name = "lost-upload";
        List<InputCorpus.Input> inputs = inputs(name, 1);
        Map<String, Object> settings = settings(name);
        settings.put("flink.restart-strategy.type", "none");
        JobClient job = JobTestSupport.startPipeline(settings, name);
        long start = start();
        try (S3Client client = store(name).newClient()) {
            produceUntilAnUpload(client, name, inputs, start, 1);
            String aborted =
                    ShardRunChecks.uploads(
                            path(name),
                            s3.endpoint(),
                            credentials,
                            "--older-than",
                            "0s",
                            "--abort");
            assertTrue(aborted.contains(" aborted"), aborted);
            produce(name + "-in", inputs.subList(60_000, inputs.size()), start, 1);
            JobTestSupport.waitForConsumed(
                    kafka.bootstrapServers(), "tfstream", name + "-in", Duration.ofMinutes(2));
            // S3Proxy takes parts for an aborted upload; the drain's commit meets it gone.
            String text = failedDrain(cluster, job);
            assertTrue(text.contains("is lost"), text);
            assertTrue(text.contains("no longer exists"), text);
            assertTrue(text.contains("records from [" + name + "-in"), text);
            assertTrue(text.contains("shards.on-lost-shard: drop"), text);
        }
    }

    /**
     * Blue/green on S3: a savepoint taken while the first job runs, restored into a second job on
     * the same path with {@code output.adopt-transactions: false} (so {@code shards.adopt-uploads}
     * false), with a shard whose upload has parts at the savepoint. Uploaded parts cannot be read
     * back, and whichever job completed that upload first would take the shard from the other: the
     * second job always leaves it to the first. With {@code shards.on-lost-shard: fail} its restore
     * fails naming the shard and the rule; with {@code drop} it goes on without that shard's
     * records and drains. The first job drains FINISHED with every good record once, its shard
     * untouched by either. Before the rule the second job completed the shared upload and the first
     * job met a lost shard.
     */
    @Test
    void aSecondJobBesideARunningOneLeavesItsUploadsToIt(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        String name = "blue-green-s3";
        List<InputCorpus.Input> inputs = inputs(name, 2);
        long start = start();
        Map<String, Object> blue = settings(name);
        blue.put("flink.restart-strategy.type", "none");
        JobClient first = JobTestSupport.startPipeline(blue, name);
        String savepoint;
        try (S3Client client = store(name).newClient()) {
            produceUntilAnUpload(client, name, inputs, start, 2);
            long seenAt = MiniClusters.completedCheckpoints(cluster, first.getJobID());
            waitFor(
                    () ->
                            MiniClusters.completedCheckpoints(cluster, first.getJobID())
                                    >= seenAt + 2,
                    Duration.ofMinutes(2),
                    "two checkpoints with a part uploaded");
            savepoint =
                    first.triggerSavepoint(
                                    dir.resolve("bg-sp").toUri().toString(),
                                    org.apache.flink.core.execution.SavepointFormatType.CANONICAL)
                            .get(2, TimeUnit.MINUTES);
        }
        produce(name + "-in", inputs.subList(60_000, inputs.size()), start, 2);

        Map<String, Object> green = new java.util.HashMap<>(blue);
        green.put("job.name", name + "-green");
        green.put("source.group-id", name + "-green");
        green.put("output.adopt-transactions", "false");
        green.put("flink.execution.state-recovery.path", savepoint);
        JobClient refused = JobTestSupport.startPipeline(green, name + "-green");
        Throwable failure =
                org.junit.jupiter.api.Assertions.assertThrows(
                        ExecutionException.class,
                        () -> refused.getJobExecutionResult().get(2, TimeUnit.MINUTES));
        String text = org.apache.flink.util.ExceptionUtils.stringifyException(failure);
        assertTrue(text.contains("is lost"), text);
        assertTrue(text.contains("shards.adopt-uploads is false"), text);
        assertTrue(text.contains("-" + first.getJobID().toHexString() + "-"), text);

        Map<String, Object> dropping = new java.util.HashMap<>(green);
        dropping.put("job.name", name + "-drop");
        dropping.put("source.group-id", name + "-drop");
        dropping.put("shards.on-lost-shard", "drop");
        JobClient second = JobTestSupport.startPipeline(dropping, name + "-drop");
        JobTestSupport.waitForConsumed(
                kafka.bootstrapServers(), name + "-drop", name + "-in", Duration.ofMinutes(3));
        assertEquals(null, drain(cluster, second), "the second job drains");

        JobTestSupport.waitForConsumed(
                kafka.bootstrapServers(), "tfstream", name + "-in", Duration.ofMinutes(3));
        assertEquals(null, drain(cluster, first), "the first job drains: it lost no shard");
        assertEquals(
                org.apache.flink.api.common.JobStatus.FINISHED,
                first.getJobStatus().get(1, TimeUnit.MINUTES));
        String blueJob = "-" + first.getJobID().toHexString() + "-";
        Map<String, Integer> blueRecords = new java.util.HashMap<>();
        Map<String, Integer> greenRecords = new java.util.HashMap<>();
        for (Path shard : JobTestSupport.finishedShards(s3.bucketDir("tfstream").resolve(name))) {
            ShardRunChecks.readAndCheck(
                    shard,
                    shard.getFileName().toString().contains(blueJob) ? blueRecords : greenRecords);
        }
        Map<String, Integer> expected = new java.util.HashMap<>();
        for (InputCorpus.Input in : inputs) {
            if (in.reason() == null) {
                expected.merge(java.util.HexFormat.of().formatHex(in.value()), 1, Integer::sum);
            }
        }
        assertEquals(expected, blueRecords, "the first job's shards: each good record once");
        assertTrue(!greenRecords.isEmpty(), "the second job wrote shards of its own");
        for (Map.Entry<String, Integer> e : greenRecords.entrySet()) {
            assertTrue(
                    e.getValue() <= expected.getOrDefault(e.getKey(), 0),
                    "the second job wrote a record more often than it was produced");
        }
        assertTrue(
                greenRecords.size() < expected.size(),
                "the second job holds less: the shard left to the first job is not in it");
    }

    /** Produces the first 60 000 records: a shard's first part (5 MiB) fills and is uploaded. */
    private static void produceUntilAnUpload(
            S3Client client,
            String name,
            List<InputCorpus.Input> inputs,
            long start,
            int partitions)
            throws Exception {
        produce(name + "-in", inputs.subList(0, 60_000), start, partitions);
        waitFor(
                () ->
                        !client.listMultipartUploads(b -> b.bucket("tfstream").prefix(name + "/"))
                                .uploads()
                                .isEmpty(),
                Duration.ofMinutes(2),
                "a shard's upload");
    }

    /** Stops {@code job} with drain, which must fail; the failures of its tasks. */
    private static String failedDrain(MiniCluster cluster, JobClient job) throws Exception {
        String failure = drain(cluster, job);
        assertTrue(failure != null, "the drain of " + job.getJobID() + " went through");
        return failure;
    }

    /** Stops {@code job} with drain: null when it went through, else the failures of its tasks. */
    private static String drain(MiniCluster cluster, JobClient job) throws Exception {
        try {
            job.stopWithSavepoint(
                            true,
                            dir.resolve(job.getJobID() + "-end").toUri().toString(),
                            org.apache.flink.core.execution.SavepointFormatType.CANONICAL)
                    .get(3, TimeUnit.MINUTES);
            return null;
        } catch (ExecutionException e) {
            // the tasks' failures below: the job's own result names only the failed stop
        }

        waitFor(
                () -> job.getJobStatus().get().isGloballyTerminalState(),
                Duration.ofMinutes(2),
                "the job to end");
        StringBuilder failures = new StringBuilder();
        for (var v : cluster.getExecutionGraph(job.getJobID()).get().getAllExecutionVertices()) {
            v.getFailureInfo()
                    .ifPresent(e -> failures.append(e.getExceptionAsString()).append('\n'));
        }
        return failures.toString();
    }

    /** Topics of {@code name} and 120 000 records (some broken) for them. */
    private static List<InputCorpus.Input> inputs(String name, int partitions) throws Exception {
        kafka.createTopic(name + "-in", partitions);
        kafka.createTopic(name + "-dlq", 1);
        Path spec = dir.resolve(name + ".json");
        Files.writeString(spec, SpecJsonWriter.write(Seed001Corpus.spec()));
        return InputCorpus.examples(
                120_000, 5, Seed001Corpus.spec(), ParseLimits.defaults().withMaxRecordBytes(256));
    }

    /** Event times three hours back: one bucket, closed long ago, shards kept open by size. */
    private static long start() {
        return Instant.now()
                .truncatedTo(ChronoUnit.HOURS)
                .minus(3, ChronoUnit.HOURS)
                .toEpochMilli();
    }

    /** Where the shards of test {@code name} go. */
    private static String path(String name) {
        return "s3://tfstream/" + name;
    }

    private static S3ShardStoreFactory store(String name) {
        return ShardRunChecks.s3ProxyStore(path(name), s3.endpoint(), credentials);
    }

    /** One subtask's shards on S3Proxy's bucket {@code tfstream}, open for an hour. */
    private static Map<String, Object> settings(String name) {
        Map<String, Object> settings =
                JobTestSupport.failureTestSettings(
                        name,
                        kafka.bootstrapServers(),
                        name + "-in",
                        dir.resolve(name + ".json"),
                        name + "-dlq");
        settings.put("parallelism", 1);
        settings.put("parse.max-record-bytes", "256 b");
        settings.put("shards.path", path(name));
        settings.put("shards.compression", "none");
        settings.put("shards.target-size", "1 gb");
        settings.put("shards.max-age", "1 h");
        settings.put("s3.endpoint", s3.endpoint());
        settings.put("s3.path-style-access", "true");
        settings.put("s3.credentials-file", credentials.toString());
        settings.put(
                "flink.execution.checkpointing.dir",
                dir.resolve(name + "-checkpoints").toUri().toString());
        return settings;
    }

    /** Records to the partitions of {@code topic} in turn. */
    private static void produce(
            String topic, List<InputCorpus.Input> inputs, long start, int partitions) {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < inputs.size(); i++) {
                producer.send(
                        new ProducerRecord<>(
                                topic,
                                i % partitions,
                                start + i,
                                inputs.get(i).key(),
                                inputs.get(i).value()));
            }
            producer.flush();
        }
    }
}
