package io.tfstream.e2e.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tfstream.job.InputCorpus;
import io.tfstream.job.JobTestSupport;
import io.tfstream.operators.deadletter.DeadLetterHeaders;
import io.tfstream.parse.ParseLimits;
import io.tfstream.proto.v1.SourceRange;
import io.tfstream.proto.v1.TensorBatch;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * The job on a real multi-process cluster, started with {@code deploy/local/} as a user would:
 * {@code up} (broker, S3Proxy, a JobManager and two TaskManagers, each its own JVM), {@code topics
 * create}, {@code submit} of the thin job jar at parallelism 2 with shards on S3, tensor payloads
 * and dead letters; then 2 000 seed-001 Examples with 1% broken ones. Every good record is a row of
 * exactly one committed payload and in exactly one finished shard on S3, every broken one in the
 * dead-letter topic once with its offset, checkpoints are on S3; {@code status --json} reports the
 * cluster, {@code down} leaves no process behind. The state directory stays in {@code target/} for
 * its logs.
 */
class LocalClusterSmokeITCase {
    private static final int RECORDS = 2_000;
    private static final Duration OUTPUT_TIMEOUT = Duration.ofMinutes(2);

    @Test
    void runsTheJobOnALocalClusterExactlyOnce() throws Exception {
        Path state =
                Files.createTempDirectory(Path.of("target").toAbsolutePath(), "local-cluster-");
        try (LocalCluster cluster = LocalCluster.create(state)) {
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

            List<InputCorpus.Input> inputs =
                    InputCorpus.examples(RECORDS, 11, Seed001Corpus.spec(), ParseLimits.defaults());
            Map<String, RecordMetadata> offsets = produce(cluster.bootstrapServers(), inputs);
            long good = inputs.stream().filter(i -> i.reason() == null).count();
            long bad = inputs.size() - good;
            assertTrue(bad >= RECORDS / 100 / 2, "broken records: " + bad);

            Path shards = cluster.objects("tfstream").resolve("shards");
            JobTestSupport.waitFor(
                    () ->
                            payloadRows(cluster) >= good
                                    && CommittedRecords.read(cluster.bootstrapServers(), "dlq")
                                                    .size()
                                            >= bad
                                    && shardRecordsSoFar(shards) >= good,
                    OUTPUT_TIMEOUT,
                    "every record in the payloads, the dead letters and the shards");
            Thread.sleep(3_000); // a few more checkpoints: anything committed twice would show

            checkPayloads(cluster, inputs, offsets, good);
            checkDeadLetters(cluster, inputs, offsets, bad);
            checkShards(shards, inputs);
            assertEquals("RUNNING", jobState(cluster.status(), jobId));
            Path checkpoints = cluster.objects("tfstream").resolve("flink/checkpoints/" + jobId);
            assertTrue(
                    JobTestSupport.regularFiles(checkpoints).stream()
                            .anyMatch(f -> f.getFileName().toString().equals("_metadata")),
                    "checkpoints on S3 under " + checkpoints);

            cluster.down();
            JsonNode after = cluster.status();
            assertFalse(after.get("up").asBoolean());
            for (String process : List.of("broker", "s3proxy", "jobmanager")) {
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
                        "checkpoint.interval: 1 s",
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

    private static Map<String, RecordMetadata> produce(
            String bootstrap, List<InputCorpus.Input> inputs) throws Exception {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.setProperty(ProducerConfig.ACKS_CONFIG, "all");
        Map<String, Future<RecordMetadata>> sent = new HashMap<>();
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (InputCorpus.Input i : inputs) {
                sent.put(
                        key(i.key()),
                        producer.send(new ProducerRecord<>("in", i.key(), i.value())));
            }
            producer.flush();
        }
        Map<String, RecordMetadata> offsets = new HashMap<>();
        for (Map.Entry<String, Future<RecordMetadata>> e : sent.entrySet()) {
            offsets.put(e.getKey(), e.getValue().get());
        }
        return offsets;
    }

    private static long payloadRows(LocalCluster cluster) throws Exception {
        long rows = 0;
        for (ConsumerRecord<byte[], byte[]> r :
                CommittedRecords.read(cluster.bootstrapServers(), "batches")) {
            rows += TensorBatch.parseFrom(r.value()).getRows();
        }
        return rows;
    }

    /**
     * Every good record is a row of exactly one committed payload: the payloads' source ranges,
     * narrowed to good records, are disjoint, cover them all and hold as many as the rows.
     */
    private static void checkPayloads(
            LocalCluster cluster,
            List<InputCorpus.Input> inputs,
            Map<String, RecordMetadata> offsets,
            long good)
            throws Exception {
        Map<Integer, java.util.TreeSet<Long>> goodAt = new HashMap<>();
        for (InputCorpus.Input i : inputs) {
            if (i.reason() == null) {
                RecordMetadata m = offsets.get(key(i.key()));
                goodAt.computeIfAbsent(m.partition(), k -> new java.util.TreeSet<>())
                        .add(m.offset());
            }
        }
        Set<String> covered = new HashSet<>();
        long rows = 0;
        for (ConsumerRecord<byte[], byte[]> r :
                CommittedRecords.read(cluster.bootstrapServers(), "batches")) {
            TensorBatch b = TensorBatch.parseFrom(r.value());
            long inRanges = 0;
            for (SourceRange range : b.getSourcesList()) {
                assertEquals("in", range.getTopic());
                for (long offset :
                        goodAt.get(range.getPartition())
                                .subSet(
                                        range.getFirstOffset(),
                                        true,
                                        range.getLastOffset(),
                                        true)) {
                    assertTrue(
                            covered.add(range.getPartition() + "@" + offset),
                            "partition " + range.getPartition() + " offset " + offset + " twice");
                    inRanges++;
                }
            }
            assertEquals(b.getRows(), inRanges, "rows of payload " + b.getBatchId());
            rows += b.getRows();
        }
        assertEquals(good, rows, "payload rows = good records");
        assertEquals(good, covered.size(), "every good record in a payload");
    }

    /** Every broken record once in the dead-letter topic, byte for byte, with its offset. */
    private static void checkDeadLetters(
            LocalCluster cluster,
            List<InputCorpus.Input> inputs,
            Map<String, RecordMetadata> offsets,
            long bad) {
        Map<String, InputCorpus.Input> byKey = new HashMap<>();
        inputs.forEach(i -> byKey.put(key(i.key()), i));
        Set<String> seen = new HashSet<>();
        for (ConsumerRecord<byte[], byte[]> r :
                CommittedRecords.read(cluster.bootstrapServers(), "dlq")) {
            String key = key(r.key());
            InputCorpus.Input input = byKey.get(key);
            assertNotNull(input, key);
            assertNotNull(input.reason(), key + " is good but dead-lettered");
            assertTrue(java.util.Arrays.equals(input.value(), r.value()), key);
            assertEquals(input.reason().code(), header(r, DeadLetterHeaders.REASON), key);
            RecordMetadata m = offsets.get(key);
            assertEquals(
                    Integer.toString(m.partition()), header(r, DeadLetterHeaders.SOURCE_PARTITION));
            assertEquals(Long.toString(m.offset()), header(r, DeadLetterHeaders.SOURCE_OFFSET));
            assertTrue(seen.add(key), key + " dead-lettered twice");
        }
        assertEquals(bad, seen.size(), "every broken record dead-lettered");
    }

    /** The finished shards on S3 hold exactly the good records, each once, each with a manifest. */
    private static void checkShards(Path shards, List<InputCorpus.Input> inputs) throws Exception {
        Map<String, Integer> expected = new HashMap<>();
        for (InputCorpus.Input i : inputs) {
            if (i.reason() == null) {
                expected.merge(Base64.getEncoder().encodeToString(i.value()), 1, Integer::sum);
            }
        }
        Map<String, Integer> seen = new HashMap<>();
        for (byte[] record : shardRecords(shards)) {
            seen.merge(Base64.getEncoder().encodeToString(record), 1, Integer::sum);
        }
        assertEquals(expected, seen, "each good record once in the finished shards");
        for (Path shard : JobTestSupport.finishedShards(shards)) {
            Path manifest = shard.resolveSibling(shard.getFileName() + ".manifest.json");
            assertTrue(Files.isRegularFile(manifest), "manifest of " + shard);
        }
    }

    /** Records in the finished shards so far; 0 while S3Proxy still writes one of them. */
    private static int shardRecordsSoFar(Path shards) throws Exception {
        try {
            return shardRecords(shards).size();
        } catch (java.io.IOException stillBeingWritten) {
            return 0;
        }
    }

    /**
     * The records of the finished shards under {@code shards} (S3Proxy's files): visible {@code
     * part-*.tfrecord} objects, read with the project's TFRecord reader, which checks every CRC.
     */
    private static List<byte[]> shardRecords(Path shards) throws Exception {
        List<byte[]> records = new ArrayList<>();
        for (Path p : JobTestSupport.regularFiles(shards)) {
            String name = p.getFileName().toString();
            if (name.startsWith("part-") && name.endsWith(".tfrecord")) {
                try (TfRecordReader r =
                        TfRecordFiles.openReader(p, TfRecordReadOptions.defaults())) {
                    while (r.next()) {
                        records.add(r.copy());
                    }
                }
            }
        }
        return records;
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

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    private static String key(byte[] key) {
        return new String(key, StandardCharsets.UTF_8);
    }
}
