package io.tfstream.job;

import static io.tfstream.job.JobTestSupport.waitFor;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.local.S3ProxyProcess;
import io.tfstream.operators.shards.store.S3ShardStoreFactory;
import io.tfstream.parse.ParseLimits;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.testing.Seed001Corpus;
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
class ShardsLostUploadITCase extends KafkaJobTestBase {
    @RegisterExtension static final MiniClusterExtension FLINK = JobTestSupport.oneTaskManager(1);

    @TempDir static Path dir;

    @Test
    void anUploadAbortedUnderARunningJobFailsItNamingTheShard(
            @org.apache.flink.test.junit5.InjectMiniCluster
                    org.apache.flink.runtime.minicluster.MiniCluster cluster)
            throws Exception {
        String name = "lost-upload";
        kafka.createTopic(name + "-in", 1);
        kafka.createTopic(name + "-dlq", 1);
        Path spec = dir.resolve(name + ".json");
        Files.writeString(spec, SpecJsonWriter.write(Seed001Corpus.spec()));
        List<InputCorpus.Input> inputs =
                InputCorpus.examples(
                        120_000,
                        5,
                        Seed001Corpus.spec(),
                        ParseLimits.defaults().withMaxRecordBytes(256));
        long start =
                Instant.now()
                        .truncatedTo(ChronoUnit.HOURS)
                        .minus(3, ChronoUnit.HOURS)
                        .toEpochMilli();
        try (S3ProxyProcess s3 = S3ProxyProcess.start(dir.resolve("s3proxy"))) {
            s3.createBucket("tfstream");
            Path credentials = S3ProxyProcess.writeCredentials(dir.resolve("s3.properties"));
            Map<String, Object> settings =
                    JobTestSupport.failureTestSettings(
                            name, kafka.bootstrapServers(), name + "-in", spec, name + "-dlq");
            settings.put("parallelism", 1);
            settings.put("parse.max-record-bytes", "256 b");
            settings.put("shards.path", "s3://tfstream/shards");
            settings.put("shards.compression", "none");
            settings.put("shards.target-size", "1 gb");
            settings.put("shards.max-age", "1 h");
            settings.put("s3.endpoint", s3.endpoint());
            settings.put("s3.path-style-access", "true");
            settings.put("s3.credentials-file", credentials.toString());
            settings.put(
                    "flink.execution.checkpointing.dir",
                    dir.resolve("checkpoints").toUri().toString());
            settings.put("flink.restart-strategy.type", "none");
            JobClient job = JobTestSupport.startPipeline(settings, name);
            S3ShardStoreFactory store =
                    ShardRunChecks.s3ProxyStore("s3://tfstream/shards", s3.endpoint(), credentials);
            try (S3Client client = store.newClient()) {
                produce(name + "-in", inputs.subList(0, 60_000), start);
                waitFor(
                        () ->
                                !client.listMultipartUploads(b -> b.bucket("tfstream"))
                                        .uploads()
                                        .isEmpty(),
                        Duration.ofMinutes(2),
                        "a shard's upload");
                String aborted =
                        ShardRunChecks.uploads(
                                "s3://tfstream/shards", s3.endpoint(), credentials, "--abort");
                assertTrue(aborted.contains(" aborted"), aborted);
                produce(name + "-in", inputs.subList(60_000, inputs.size()), start);
                JobTestSupport.waitForConsumed(
                        kafka.bootstrapServers(), "tfstream", name + "-in", Duration.ofMinutes(2));
                // S3Proxy takes parts for an aborted upload; the drain's commit meets it gone.
                assertThrows(
                        ExecutionException.class,
                        () ->
                                job.stopWithSavepoint(
                                                true,
                                                dir.resolve("sp").toUri().toString(),
                                                org.apache.flink.core.execution.SavepointFormatType
                                                        .CANONICAL)
                                        .get(3, TimeUnit.MINUTES));
                waitFor(
                        () -> job.getJobStatus().get().isGloballyTerminalState(),
                        Duration.ofMinutes(2),
                        "the job to end");
                // the task's failure (the job's own result names only the failed stop)
                StringBuilder failures = new StringBuilder();
                for (var v :
                        cluster.getExecutionGraph(job.getJobID()).get().getAllExecutionVertices()) {
                    v.getFailureInfo()
                            .ifPresent(e -> failures.append(e.getExceptionAsString()).append('\n'));
                }
                String text = failures.toString();
                assertTrue(text.contains("is lost"), text);
                assertTrue(text.contains("no longer exists"), text);
                assertTrue(text.contains("records from [" + name + "-in"), text);
                assertTrue(text.contains("shards.on-lost-shard: drop"), text);
            }
        }
    }

    private static void produce(String topic, List<InputCorpus.Input> inputs, long start) {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < inputs.size(); i++) {
                producer.send(
                        new ProducerRecord<>(
                                topic, 0, start + i, inputs.get(i).key(), inputs.get(i).value()));
            }
            producer.flush();
        }
    }
}
