package io.tfstream.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testkit.KafkaTestCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bad configuration fails at start, before any job is submitted, with a message naming the cause:
 * a missing topic, an unreadable or rejected schema, a schema of the other record kind, an
 * event-time feature that is not int64, a transaction timeout above the broker's maximum.
 */
class JobStartupChecksITCase {
    private static KafkaTestCluster kafka;

    @TempDir static Path dir;

    @BeforeAll
    static void start() throws Exception {
        kafka = KafkaTestCluster.start(60_000);
        kafka.createTopic("in", 3);
        kafka.createTopic("dlq", 1);
        try (org.apache.kafka.clients.admin.Admin admin = kafka.admin()) {
            admin.createTopics(
                            List.of(
                                    new org.apache.kafka.clients.admin.NewTopic(
                                                    "batches", 1, (short) 1)
                                            .configs(Map.of("max.message.bytes", "65536"))))
                    .all()
                    .get();
        }
    }

    @AfterAll
    static void stop() {
        kafka.close();
    }

    private static Map<String, Object> settings() throws Exception {
        Path spec = dir.resolve("spec.json");
        Files.writeString(spec, SpecJsonWriter.write(Seed001Corpus.spec()));
        Map<String, Object> m = new HashMap<>();
        m.put("source.bootstrap-servers", kafka.bootstrapServers());
        m.put("source.topics", "in");
        m.put("spec.path", spec.toString());
        m.put("dlq.topic", "dlq");
        m.put("output.transaction-timeout", "30 s");
        return m;
    }

    private static <T extends Throwable> String fails(Class<T> type, Map<String, Object> m) {
        return assertThrows(type, () -> JobLauncher.prepare(JobConfig.of(m))).getMessage();
    }

    @Test
    void aValidConfigurationPasses() throws Exception {
        JobLauncher.Prepared p = JobLauncher.prepare(JobConfig.of(settings()));
        assertEquals(64, p.schema().fingerprint().length());
    }

    @Test
    void missingTopicsAreNamed() throws Exception {
        Map<String, Object> m = settings();
        m.put("source.topics", List.of("in", "nope"));
        assertEquals(
                "source.topics: topic 'nope' does not exist on "
                        + kafka.bootstrapServers()
                        + "; create it first",
                fails(JobConfigException.class, m));
        m = settings();
        m.put("dlq.topic", "dead");
        assertTrue(
                fails(JobConfigException.class, m)
                        .startsWith("dlq.topic: topic 'dead' does not exist"));
        m = settings();
        m.put("output.records.topic", "clean");
        assertTrue(
                fails(JobConfigException.class, m)
                        .startsWith("output.records.topic: topic 'clean' does not exist"));
    }

    @Test
    void missingValidationTopicsAreNamed() throws Exception {
        Path schema = dir.resolve("schema.pbtxt");
        Files.write(schema, io.tfstream.sample.SeedDataset.schemaPbtxt());
        Map<String, Object> m = settings();
        m.remove("spec.path");
        m.put("schema.path", schema.toString());
        m.put("validation.enabled", "true");
        m.put("validation.alerts-topic", "alerts");
        assertTrue(
                fails(JobConfigException.class, m)
                        .startsWith("validation.alerts-topic: topic 'alerts' does not exist"));
        m.put("validation.alerts-topic", "dlq");
        JobLauncher.prepare(JobConfig.of(m));
        m.put("validation.anomalies-topic", "anomalies");
        assertTrue(
                fails(JobConfigException.class, m)
                        .startsWith(
                                "validation.anomalies-topic: topic 'anomalies' does not exist"));
    }

    @Test
    void payloadMessagesMustFitTheBatchesTopic() throws Exception {
        Map<String, Object> m = settings();
        m.put("output.batches.topic", "batches");
        assertEquals(
                "output.batches.max-message-bytes (1048576 bytes) is larger than topic 'batches''s"
                        + " max.message.bytes (65536 bytes): set output.batches.max-message-bytes"
                        + " to at most 65536 or raise the topic's max.message.bytes",
                fails(JobConfigException.class, m));
        m.put("output.batches.max-message-bytes", "64 kb");
        JobLauncher.prepare(JobConfig.of(m));
        // The producer's max.request.size is the default limit.
        m.remove("output.batches.max-message-bytes");
        m.put("output.properties.max.request.size", "32768");
        assertEquals(
                32768 - PayloadConfig.BATCH_MESSAGE_RESERVE,
                JobConfig.of(m).payloads().maxPayloadBytes());
        JobLauncher.prepare(JobConfig.of(m));
        m.put("output.batches.topic", "nope");
        assertTrue(
                fails(JobConfigException.class, m)
                        .startsWith("output.batches.topic: topic 'nope' does not exist"));
        m.put("output.batches.max-message-bytes", "1 kb");
        assertEquals(
                "invalid value '1024 bytes' for output.batches.max-message-bytes (or"
                        + " output.properties.max.request.size): expected 4 KiB to 2 GiB",
                fails(JobConfigException.class, m));
    }

    @Test
    void aTransactionTimeoutAboveTheBrokersMaximumIsRefused() throws Exception {
        Map<String, Object> m = settings();
        m.put("output.transaction-timeout", "10 min");
        assertEquals(
                "output.transaction-timeout (600000 ms) is larger than broker 1's"
                        + " transaction.max.timeout.ms (60000 ms): lower output.transaction-timeout"
                        + " or raise the broker's maximum",
                fails(JobConfigException.class, m));
    }

    @Test
    void unreadableAndRejectedSchemasAreNamed() throws Exception {
        Map<String, Object> m = settings();
        m.remove("spec.path");
        m.put("schema.path", dir.resolve("missing.pbtxt").toString());
        assertEquals(
                "schema.path: no such file: " + dir.resolve("missing.pbtxt"),
                fails(JobConfigException.class, m));

        Path rejected = dir.resolve("rejected.pbtxt");
        Files.writeString(rejected, "feature: {name: \"x\" type: INT shape: {}}\n");
        m.put("schema.path", rejected.toString());
        assertEquals(
                "schema.path: "
                        + rejected
                        + " was rejected: Feature x had shape  set but min_fraction 0.0 != 1.  Use"
                        + " value_count not shape field when min_fraction != 1.",
                fails(JobSchemaRejectedException.class, m));

        Path garbage = dir.resolve("garbage.pbtxt");
        Files.writeString(garbage, "feature: {{{");
        m.put("schema.path", garbage.toString());
        assertTrue(
                fails(JobConfigException.class, m)
                        .startsWith("schema.path: " + garbage + " is not readable:"));
    }

    @Test
    void theSchemaMustMatchTheRecordKindAndTheEventTimeFeature() throws Exception {
        Map<String, Object> m = settings();
        m.put("schema.kind", "sequence_example");
        assertTrue(
                fails(JobSchemaRejectedException.class, m)
                        .endsWith("describes Example data but schema.kind is sequence_example"));
        m = settings();
        m.put("event-time.source", "feature");
        m.put("event-time.feature", "feature3");
        assertTrue(
                fails(JobSchemaRejectedException.class, m)
                        .startsWith("event-time.feature 'feature3' must be an int64 feature"));
        m.put("event-time.feature", "feature1");
        JobLauncher.prepare(JobConfig.of(m));
    }
}
