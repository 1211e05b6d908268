package io.tfstream.job.deploy;

import static io.tfstream.testkit.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.job.EmbeddedCluster;
import io.tfstream.job.JobConfig;
import io.tfstream.job.JobLauncher;
import io.tfstream.job.PrometheusEndpoint;
import io.tfstream.job.TfstreamPipeline;
import io.tfstream.operators.deadletter.DeadLetterHeaders;
import io.tfstream.testkit.KafkaTestCluster;
import io.tfstream.testkit.ProtoFeatures;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.Example;
import org.tensorflow.example.Features;

/**
 * The job on an embedded cluster with Flink's Prometheus reporter ({@link PrometheusEndpoint}), a
 * real KRaft broker, every output on (records, payloads, file shards, validation alerts): records
 * flow, some broken (with headers of their own), some out of range (an ERROR alert), and windows
 * close. The scrape of {@code /metrics} holds every metric name the dashboard and the alert rules
 * of deploy/monitoring use, and its {@code recordsIn} adds up to the records produced; the broken
 * records arrive on the dead-letter topic with all their original headers, in order, before the
 * {@code tfstream.*} ones.
 */
class PrometheusMetricsITCase {
    private static final int PARALLELISM = 2;
    private static final long W = 10_000;
    // Recent event times: shards' bucket-skew guard (7 days) lets them through.
    private static final long T0 = (System.currentTimeMillis() / W) * W - 30 * W;
    private static final int GOOD = 60;
    private static final int BURST = 6;
    private static final int BROKEN = 5;
    private static final String SCHEMA =
            "feature { name: \"age\" type: INT int_domain { min: 0 max: 120 } }\n"
                    + "feature { name: \"ts\" type: INT value_count { min: 1 max: 1 } }\n";

    @TempDir static Path dir;

    private static KafkaTestCluster kafka;
    private static String scrape;
    private static List<ConsumerRecord<byte[], byte[]>> deadLetters;
    private static final List<ProducerRecord<byte[], byte[]>> broken = new ArrayList<>();

    @BeforeAll
    static void runTheJobAndScrapeIt() throws Exception {
        kafka = KafkaTestCluster.start(Duration.ofMinutes(15).toMillis());
        String in = "prom-in";
        String dlq = "prom-dlq";
        for (String t : List.of(in, "prom-records", "prom-batches", "prom-alerts")) {
            kafka.createTopic(t, 2);
        }
        kafka.createTopic(dlq, 1);
        Path schema = Files.writeString(dir.resolve("schema.pbtxt"), SCHEMA);
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("job.name", "prom-job");
        s.put("parallelism", PARALLELISM);
        s.put("checkpoint.interval", "500 ms");
        s.put("source.bootstrap-servers", kafka.bootstrapServers());
        s.put("source.topics", List.of(in));
        s.put("source.starting-offsets", "earliest");
        s.put("schema.path", schema.toString());
        s.put("batch.max-delay", "100 ms");
        s.put("dlq.topic", dlq);
        s.put("output.records.topic", "prom-records");
        s.put("output.batches.topic", "prom-batches");
        s.put("output.transaction-timeout", "2 min");
        s.put("shards.path", dir.resolve("shards").toUri().toString());
        s.put("event-time.max-out-of-orderness", "0 ms");
        s.put("validation.enabled", "true");
        s.put("validation.window", "10 s");
        s.put("validation.alerts-topic", "prom-alerts");
        s.put("validation.actions", "INT_TYPE_BIG_INT=divert");
        JobLauncher.Prepared job = JobLauncher.prepare(JobConfig.of(s));
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Configuration flink = EmbeddedCluster.configuration(job.config());
        PrometheusEndpoint.checkPort(port, "test");
        PrometheusEndpoint.enable(flink, port);
        try (EmbeddedCluster cluster =
                EmbeddedCluster.start(job.config(), flink, 0, PARALLELISM * 2)) {
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.getExecutionEnvironment(flink);
            TfstreamPipeline.build(env, job.config(), job.schema());
            JobID id = cluster.submit(env, "prom-job");
            // loopback only, read from the kernel's socket table (no other address contacted)
            assertEquals(
                    java.util.Set.of("127.0.0.1"),
                    io.tfstream.metrics.ListeningSockets.addressesOf(port));

            List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
            for (int i = 0; i < GOOD; i++) {
                long age = i < BURST ? 500 + i : 20 + i % 50;
                records.add(example(in, i % 2, T0 + i * (W / GOOD), age));
            }
            for (int i = 0; i < BROKEN; i++) {
                RecordHeaders h = new RecordHeaders();
                h.add("trace-id", ("trace-" + i).getBytes(StandardCharsets.UTF_8));
                h.add("tenant", new byte[] {(byte) i, 0, (byte) 0xff});
                h.add("trace-id", new byte[0]);
                ProducerRecord<byte[], byte[]> r =
                        new ProducerRecord<>(
                                in,
                                i % 2,
                                T0 + i,
                                ("broken-" + i).getBytes(StandardCharsets.UTF_8),
                                new byte[] {0x0a, 0x7f, 1, 2},
                                h);
                broken.add(r);
                records.add(r);
            }
            // Far ahead on both partitions: the first windows close and their alerts fire.
            records.add(example(in, 0, T0 + 10 * W, 30));
            records.add(example(in, 1, T0 + 10 * W, 30));
            produce(records);

            URI metrics = PrometheusEndpoint.url(port);
            Set<String> wanted = MonitoringFiles.flinkNames();
            HttpClient http = HttpClient.newHttpClient();
            String[] last = {""};
            waitFor(
                    () -> {
                        last[0] =
                                http.send(
                                                HttpRequest.newBuilder(metrics).GET().build(),
                                                HttpResponse.BodyHandlers.ofString())
                                        .body();
                        return names(last[0]).containsAll(wanted)
                                && sum(
                                                last[0],
                                                "flink_taskmanager_job_task_operator_tfstream_recordsIn")
                                        == records.size();
                    },
                    Duration.ofMinutes(3),
                    "every name of deploy/monitoring in the scrape and every record counted");
            scrape = last[0];
            waitFor(
                    () -> kafka.readCommitted(dlq).size() >= BURST + BROKEN,
                    Duration.ofMinutes(1),
                    "the dead letters committed");
            deadLetters = kafka.readCommitted(dlq);
            cluster.miniCluster().cancelJob(id).get(1, TimeUnit.MINUTES);
        }
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void everyMetricTheDashboardAndTheRulesUseIsScraped() throws Exception {
        Set<String> missing = new TreeSet<>(MonitoringFiles.flinkNames());
        missing.removeAll(names(scrape));
        assertEquals(Set.of(), missing, "used in deploy/monitoring but not exported");
        Set<String> undefined = new TreeSet<>(MonitoringFiles.recordedNamesUsed());
        undefined.removeAll(MonitoringFiles.recordedNamesDefined());
        assertEquals(Set.of(), undefined, "recorded names used but defined by no rule");
        assertTrue(
                MonitoringFiles.flinkNames().size() >= 15, MonitoringFiles.flinkNames()::toString);
    }

    @Test
    void theCountsAddUpAndCarryTheirLabels() {
        String op = "flink_taskmanager_job_task_operator_tfstream_";
        assertEquals(GOOD + BROKEN + 2, sum(scrape, op + "recordsIn"));
        assertEquals(BROKEN + BURST, sum(scrape, op + "deadLettered"));
        assertEquals(BROKEN + BURST, sum(scrape, op + "reason_deadLettered"));
        assertTrue(scrape.contains("reason=\"validation\""), "dead letters by reason");
        assertTrue(scrape.contains("severity=\"ERROR\""), "alerts by severity");
        assertTrue(scrape.contains("type=\"INT_TYPE_BIG_INT\""), "alerts by type");
        // Label values keep only [a-zA-Z0-9:_] (the reporter's filterLabelValueCharacters).
        assertTrue(scrape.contains("job_name=\"prom_job\""), "series carry the job's name");
    }

    @Test
    void brokenRecordsKeepTheirHeadersOnTheDeadLetterTopic() {
        int found = 0;
        for (ConsumerRecord<byte[], byte[]> d : deadLetters) {
            String key = new String(d.key(), StandardCharsets.UTF_8);
            if (!key.startsWith("broken-")) {
                continue;
            }
            found++;
            ProducerRecord<byte[], byte[]> original =
                    broken.get(Integer.parseInt(key.substring("broken-".length())));
            Header[] want = original.headers().toArray();
            Header[] got = d.headers().toArray();
            for (int i = 0; i < want.length; i++) {
                assertEquals(want[i].key(), got[i].key(), key + " header " + i);
                assertArrayEquals(want[i].value(), got[i].value(), key + " header " + i);
            }
            for (int i = want.length; i < got.length; i++) {
                assertTrue(got[i].key().startsWith("tfstream."), got[i].key());
            }
            assertEquals(
                    "parse_error",
                    new String(
                            d.headers().lastHeader(DeadLetterHeaders.REASON).value(),
                            StandardCharsets.UTF_8));
            assertArrayEquals(original.value(), d.value());
        }
        assertEquals(BROKEN, found, "every broken record once");
    }

    /** The metric names of a scrape: sample names and the names of their TYPE lines. */
    static Set<String> names(String scrape) {
        Set<String> out = new TreeSet<>();
        for (String line : scrape.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                out.add(line.split(" ")[2]);
            } else if (!line.isEmpty() && !line.startsWith("#")) {
                int end = line.indexOf('{');
                out.add(line.substring(0, end >= 0 ? end : line.indexOf(' ')));
            }
        }
        return out;
    }

    /** The sum of every sample of {@code name}. */
    static double sum(String scrape, String name) {
        double total = 0;
        for (String line : scrape.split("\n")) {
            if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
                total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return total;
    }

    private static ProducerRecord<byte[], byte[]> example(
            String topic, int partition, long ts, long age) {
        Features f =
                Features.newBuilder()
                        .putFeature("age", ProtoFeatures.int64s(age))
                        .putFeature("ts", ProtoFeatures.int64s(ts))
                        .build();
        return new ProducerRecord<>(
                topic,
                partition,
                ts,
                ("good-" + ts).getBytes(StandardCharsets.UTF_8),
                Example.newBuilder().setFeatures(f).build().toByteArray());
    }

    private static void produce(List<ProducerRecord<byte[], byte[]>> records) {
        java.util.Properties p = new java.util.Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            records.forEach(producer::send);
            producer.flush();
        }
    }
}
