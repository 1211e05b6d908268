package io.tfstream.job.runs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.job.InputCorpus;
import io.tfstream.job.JobTestSupport;
import io.tfstream.job.shards.ShardRunChecks;
import io.tfstream.operators.shards.store.Leftovers;
import io.tfstream.parse.ParseLimits;
import io.tfstream.proto.v1.TensorBatch;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testkit.KafkaTestBase;
import io.tfstream.testkit.KafkaTestCluster;
import io.tfstream.testkit.MiniClusters;
import io.tfstream.testkit.TestFiles;
import java.io.InputStream;
import java.io.Reader;
import java.io.Writer;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A savepoint of an earlier build of the job, committed under {@value #FIXTURES}, restores into
 * today's job: the guard for refactorings that move classes, rename uids or change serializers.
 *
 * <p>The captured job has every stateful stage: the Kafka source, event-time window batches, the
 * records, batches, dead-letter, alerts and anomalies topics (exactly once), validation windows and
 * TFRecord shards, stopped with a savepoint while its shards and windows were open. The test
 * replays the same first half of the input into a fresh broker (so the offsets in the savepoint
 * mean the same records), puts the open shards back at the absolute path the savepoint names,
 * restores, reads the second half and drains. Every good record is then in the shards exactly once,
 * the records topic holds each good record once across the capture and the restore, and so on for
 * every output.
 *
 * <p>A new fixture (after a deliberate, documented break of savepoint compatibility) is captured by
 * running this class with {@code -Dtfstream.savepoint.capture=DIR}: the capture test writes the
 * savepoint, the open shards and what the outputs held at the savepoint into DIR, to be committed
 * as the fixture.
 */
class SavepointCompatibilityITCase extends KafkaTestBase {
    /** The committed savepoints: resources of this module, one directory each. */
    static final String FIXTURES = "/io/tfstream/job/savepoints/";

    /**
     * Where a capture writes its shards, {@code %s} the fixture's name: file-system savepoints hold
     * absolute paths of the files they resume, so each fixture names its own in {@code shards}.
     */
    private static final String SHARDS_OF = "/tmp/tfstream-savepoint-fixture-%s/shards";

    private static final String NAME = "compat";
    private static final int PARTITIONS = 3;
    private static final int N = 3000;
    private static final long SEED = 17;

    /**
     * The skew guard's setting for the fixture's job: wide enough that a fixture's event times stay
     * within it for a century after their capture.
     */
    static final String FIXTURE_SKEW = "36500 d";

    private static final List<String> TOPICS =
            List.of("in", "dlq", "records", "batches", "alerts", "anomalies");

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(4);

    @TempDir static Path dir;

    /**
     * {@code every-stage-v1}: captured on Flink 2.2 (2026-11-27). {@code every-stage-flink-1.20}:
     * the same job captured on the Flink 1.20 line (1.20.3, connector 3.4.0-1.20, 2026-12-02).
     * {@code every-stage-v2}: the same job on Flink 2.2 (2026-12-06), with the shard sink's state
     * of histories (marker coordinator state 4, committables 7) and the savepoint's note. The 2.2
     * line restores all three; the 1.20 line its own only ({@link
     * #aSavepointOfFlink22DoesNotRestoreOnFlink120}).
     */
    static List<String> restorable() {
        return MiniClusters.onFlink120()
                ? List.of("every-stage-flink-1.20")
                : List.of("every-stage-v1", "every-stage-flink-1.20", "every-stage-v2");
    }

    @ParameterizedTest
    @MethodSource("restorable")
    void theCommittedSavepointRestoresIntoTodaysJob(String name) throws Exception {
        if (System.getProperty("tfstream.savepoint.capture") != null) {
            return;
        }
        Restore r = restore(name);
        Properties captured = r.captured();
        Path fixture = r.fixture();
        Path shardsDir = r.shardsDir();
        List<InputCorpus.Input> inputs = r.inputs();
        JobClient job = r.job();
        JobTestSupport.waitForConsumed(
                kafka.bootstrapServers(), "tfstream", topic("in"), Duration.ofMinutes(3));
        job.stopWithSavepoint(
                        true,
                        r.work().resolve("end").toUri().toString(),
                        SavepointFormatType.CANONICAL)
                .get(2, TimeUnit.MINUTES);

        Map<String, Integer> good = new HashMap<>();
        Set<String> goodKeys = new TreeSet<>();
        Set<String> badKeys = new TreeSet<>();
        for (InputCorpus.Input in : inputs) {
            if (in.reason() == null) {
                good.merge(HexFormat.of().formatHex(in.value()), 1, Integer::sum);
                goodKeys.add(new String(in.key(), StandardCharsets.UTF_8));
            } else {
                badKeys.add(new String(in.key(), StandardCharsets.UTF_8));
            }
        }
        Map<String, Integer> inShards = new HashMap<>();
        List<Path> shards = JobTestSupport.finishedShards(shardsDir);
        for (Path shard : shards) {
            ShardRunChecks.readAndCheck(shard, inShards);
        }
        // the counts first: a short message when a whole part of the input is missing
        assertEquals(
                good.values().stream().mapToInt(Integer::intValue).sum(),
                inShards.values().stream().mapToInt(Integer::intValue).sum(),
                "good records in the shards");
        assertEquals(good, inShards, "every good record in exactly one shard");
        assertTrue(
                shards.stream()
                        .anyMatch(
                                s ->
                                        s.getFileName()
                                                .toString()
                                                .contains(
                                                        "-" + job.getJobID().toHexString() + "-")),
                "the restored job continued the open shards");
        assertEquals(
                goodKeys,
                keysAcross(fixture.resolve("records.txt"), topic("records")),
                "each good record once in the records topic, before or after the savepoint");
        assertEquals(
                badKeys,
                keysAcross(fixture.resolve("dlq.txt"), topic("dlq")),
                "each bad record once in the dead-letter topic");
        assertEquals(
                goodKeys.size(),
                Long.parseLong(captured.getProperty("batch-rows"))
                        + rows(kafka.readCommitted(topic("batches"))),
                "each good record a row of one payload");
        keysAcross(fixture.resolve("alerts.txt"), topic("alerts"));
        List<String> anomalies = new ArrayList<>(lines(fixture.resolve("anomalies.txt")));
        List<String> after = keys(kafka.readCommitted(topic("anomalies")));
        assertFalse(after.isEmpty(), "the validation windows went on");
        anomalies.addAll(after);
        assertEquals(
                new HashSet<>(anomalies).size(), anomalies.size(), "each window's anomalies once");
        assertEquals(
                List.of(),
                Leftovers.listFiles(shardsDir.toUri().toString(), "part").stream()
                        .filter(u -> u.shard().jobId().equals(job.getJobID().toHexString()))
                        .toList(),
                "the restored job left nothing behind");
    }

    /**
     * Flink 1.20 cannot read what 2.x writes into a savepoint: the job of a 2.2 savepoint fails
     * while it starts, and reads nothing. (Flink promises no compatibility across 1.x and 2.x in
     * either direction; docs/operations.md#savepoints-across-lines.)
     */
    @Test
    @EnabledIfSystemProperty(named = "tfstream.flink.line", matches = "1\\.20")
    void aSavepointOfFlink22DoesNotRestoreOnFlink120() throws Exception {
        if (System.getProperty("tfstream.savepoint.capture") != null) {
            return;
        }
        Restore r = restore("every-stage-v1");
        ExecutionException e =
                assertThrows(
                        ExecutionException.class,
                        () -> r.job().getJobExecutionResult().get(3, TimeUnit.MINUTES));
        StringBuilder chain = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            chain.append(t).append('\n');
        }
        assertTrue(chain.toString().contains(RESTORE_FAILURE_120), chain.toString());
        assertEquals(List.of(), keys(kafka.readCommitted(topic("records"))), "nothing written");
    }

    /** What Flink 1.20 reports for a 2.2 savepoint: it knows metadata versions up to 5. */
    private static final String RESTORE_FAILURE_120 = "Unrecognized checkpoint version number: 6";

    /** A fixture's job restored on a broker of its own, its input produced. */
    private record Restore(
            Path fixture,
            Properties captured,
            Path shardsDir,
            Path work,
            List<InputCorpus.Input> inputs,
            JobClient job) {}

    private static Restore restore(String name) throws Exception {
        Path fixture =
                Paths.get(resource(FIXTURES + name + "/fixture.properties").toURI()).getParent();
        Properties captured = new Properties();
        try (Reader r = Files.newBufferedReader(fixture.resolve("fixture.properties"))) {
            captured.load(r);
        }
        Path shardsDir = Paths.get(captured.getProperty("shards"));
        Path work = Files.createDirectories(dir.resolve(name));
        // A broker of its own per fixture: the savepoints name the same topics.
        kafka.close();
        kafka = KafkaTestCluster.start(Duration.ofMinutes(15).toMillis());
        long start = Long.parseLong(captured.getProperty("start"));
        long step = Long.parseLong(captured.getProperty("step"));
        List<InputCorpus.Input> inputs = inputs();
        createTopics();
        TestFiles.deleteTree(shardsDir.getParent());
        TestFiles.copyTree(fixture.resolve("shards"), shardsDir);
        Path savepoint = work.resolve("savepoint");
        TestFiles.copyTree(fixture.resolve(captured.getProperty("savepoint")), savepoint);

        // the same offsets as at the capture, then the rest
        produce(inputs, 0, N / 2, start, step);
        Map<String, Object> settings = settings(work, shardsDir);
        settings.put("flink.execution.state-recovery.path", savepoint.toUri().toString());
        JobClient job = JobTestSupport.startPipeline(settings, NAME);
        produce(inputs, N / 2, N, start, step);
        return new Restore(fixture, captured, shardsDir, work, inputs, job);
    }

    /**
     * Writes a new fixture into {@code -Dtfstream.savepoint.capture=DIR}, its shards under {@link
     * #SHARDS_OF} with DIR's name.
     */
    @Test
    void capture(@InjectMiniCluster MiniCluster cluster) throws Exception {
        String target = System.getProperty("tfstream.savepoint.capture");
        if (target == null) {
            return;
        }
        Path out = Paths.get(target).toAbsolutePath();
        Path shardsDir = Paths.get(String.format(SHARDS_OF, out.getFileName()));
        long start =
                Instant.now()
                        .truncatedTo(ChronoUnit.HOURS)
                        .minus(5, ChronoUnit.HOURS)
                        .toEpochMilli();
        long step = Duration.ofMinutes(59).toMillis() / N;
        List<InputCorpus.Input> inputs = inputs();
        createTopics();
        TestFiles.deleteTree(shardsDir.getParent());
        produce(inputs, 0, N / 2, start, step);
        JobClient job = JobTestSupport.startPipeline(settings(dir, shardsDir), NAME);
        JobTestSupport.awaitOpenShards(cluster, job, shardsDir.toUri().toString());
        TestFiles.deleteTree(out);
        Files.createDirectories(out);
        String savepoint =
                job.stopWithSavepoint(
                                false,
                                out.resolve("savepoint").toUri().toString(),
                                SavepointFormatType.CANONICAL)
                        .get(2, TimeUnit.MINUTES);
        assertEquals(List.of(), JobTestSupport.finishedShards(shardsDir), "shards open");
        TestFiles.copyTree(shardsDir, out.resolve("shards"));
        Files.write(out.resolve("records.txt"), keys(kafka.readCommitted(topic("records"))));
        Files.write(out.resolve("dlq.txt"), keys(kafka.readCommitted(topic("dlq"))));
        Files.write(out.resolve("anomalies.txt"), keys(kafka.readCommitted(topic("anomalies"))));
        Files.write(out.resolve("alerts.txt"), keys(kafka.readCommitted(topic("alerts"))));
        Properties p = new Properties();
        p.setProperty("shards", shardsDir.toString());
        p.setProperty("start", Long.toString(start));
        p.setProperty("step", Long.toString(step));
        p.setProperty(
                "savepoint", out.relativize(Paths.get(java.net.URI.create(savepoint))).toString());
        p.setProperty("batch-rows", Long.toString(rows(kafka.readCommitted(topic("batches")))));
        try (Writer w = Files.newBufferedWriter(out.resolve("fixture.properties"))) {
            p.store(w, "SavepointCompatibilityITCase fixture");
        }
    }

    /** The job of the fixture: every stateful stage, shards and windows open across savepoints. */
    private static Map<String, Object> settings(Path dir, Path shardsDir) throws Exception {
        Path schema = dir.resolve("schema.pbtxt");
        try (InputStream in = resource("/io/tfstream/sample/seed-001-schema.pbtxt").openStream()) {
            Files.write(schema, in.readAllBytes());
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("job.name", NAME);
        m.put("parallelism", 2);
        m.put("checkpoint.interval", "500 ms");
        m.put("source.bootstrap-servers", kafka.bootstrapServers());
        m.put("source.topics", List.of(topic("in")));
        m.put("source.starting-offsets", "earliest");
        m.put("schema.path", schema.toString());
        m.put("parse.max-record-bytes", "256 b");
        m.put("batch.mode", "event_time_window");
        m.put("batch.window", "1 min");
        m.put("dlq.topic", topic("dlq"));
        m.put("output.records.topic", topic("records"));
        m.put("output.batches.topic", topic("batches"));
        m.put("output.transaction-timeout", "2 min");
        m.put("validation.enabled", "true");
        m.put("validation.window", "5 min");
        m.put("validation.alerts-topic", topic("alerts"));
        m.put("validation.anomalies-topic", topic("anomalies"));
        m.put("shards.path", shardsDir.toUri().toString());
        m.put("shards.compression", "gzip");
        m.put("shards.max-age", "1 h");
        m.put("shards.target-size", "1 gb");
        // buckets must not complete while the job runs: shards stay open across the savepoint
        m.put("shards.success-delay", "100 d");
        // The fixtures' event times are fixed at their capture: the skew guard must not judge them
        // against today's clock (its 7-day default is tested on its own, with a fixed time).
        m.put("shards.max-bucket-skew", FIXTURE_SKEW);
        m.put("flink.restart-strategy.type", "none");
        return m;
    }

    private static List<InputCorpus.Input> inputs() {
        return InputCorpus.examples(
                N, SEED, Seed001Corpus.spec(), ParseLimits.defaults().withMaxRecordBytes(256));
    }

    private static String topic(String what) {
        return NAME + "-" + what;
    }

    /** The topics, kept forever: the fixture's event times grow older than any retention. */
    private static void createTopics() throws Exception {
        for (String t : TOPICS) {
            kafka.createTopic(
                    topic(t), t.equals("in") ? PARTITIONS : 1, Map.of("retention.ms", "-1"));
        }
    }

    private static void produce(
            List<InputCorpus.Input> inputs, int from, int to, long start, long step) {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.setProperty(ProducerConfig.ACKS_CONFIG, "all");
        p.setProperty(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = from; i < to; i++) {
                InputCorpus.Input in = inputs.get(i);
                producer.send(
                        new ProducerRecord<>(
                                topic("in"),
                                i % PARTITIONS,
                                start + i * step,
                                in.key(),
                                in.value()));
            }
            producer.flush();
        }
    }

    /** The keys of a committed topic now and of its capture-time list, checked to be disjoint. */
    private static Set<String> keysAcross(Path before, String topic) throws Exception {
        List<String> all = new ArrayList<>(lines(before));
        all.addAll(keys(kafka.readCommitted(topic)));
        Set<String> distinct = new TreeSet<>(all);
        assertEquals(distinct.size(), all.size(), "a key of " + topic + " written twice");
        return distinct;
    }

    private static List<String> keys(List<ConsumerRecord<byte[], byte[]>> records) {
        List<String> keys = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            keys.add(new String(r.key(), StandardCharsets.UTF_8));
        }
        return keys;
    }

    private static List<String> lines(Path file) throws Exception {
        return Files.readAllLines(file).stream().filter(l -> !l.isEmpty()).toList();
    }

    private static long rows(List<ConsumerRecord<byte[], byte[]>> payloads) throws Exception {
        long rows = 0;
        for (ConsumerRecord<byte[], byte[]> r : payloads) {
            rows += TensorBatch.parseFrom(r.value()).getRows();
        }
        return rows;
    }

    private static URL resource(String name) {
        URL url = SavepointCompatibilityITCase.class.getResource(name);
        if (url == null) {
            throw new AssertionError("missing test resource " + name);
        }
        return url;
    }
}
