package io.tfstream.job.validation;

import static io.tfstream.testkit.MiniClusters.completedCheckpoints;
import static io.tfstream.testkit.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.job.JobConfig;
import io.tfstream.job.JobLauncher;
import io.tfstream.job.JobTestSupport;
import io.tfstream.job.TfstreamPipeline;
import io.tfstream.operators.deadletter.DeadLetterHeaders;
import io.tfstream.shards.TfxSplits;
import io.tfstream.stats.ExampleStatistics;
import io.tfstream.stats.StatsOptions;
import io.tfstream.testing.StatisticsAssertions;
import io.tfstream.testkit.KafkaTestBase;
import io.tfstream.testkit.MiniClusters;
import io.tfstream.testkit.ProtoFeatures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.Example;
import org.tensorflow.example.Features;
import org.tensorflow.metadata.v0.DatasetFeatureStatisticsList;

/**
 * Validation alerts end to end on a MiniCluster and a real KRaft broker, unbounded source, 10 s
 * event-time windows on Kafka timestamps: a window with a burst of out-of-range values (diverted to
 * the dead letters), one of the same distribution, an empty one, one with a shifted distribution,
 * then records far ahead that close them all. The alerts topic, read with {@code read_committed},
 * holds exactly the expected alerts, each once: the burst's roll-up, the no-data alert of every
 * empty window, drift only for the shifted window; the diverted records are dead letters exactly
 * once and in no tensor payload (payload rows = accepted records). The same with the TaskManager
 * killed after two completed checkpoints.
 */
class ValidationAlertsITCase extends KafkaTestBase {
    private static final int PARALLELISM = 2;
    private static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
    private static final long W = 10_000;
    private static final int PER_WINDOW = 60;
    private static final int BURST = 12;

    private static final String SCHEMA =
            "feature { name: \"age\" type: INT int_domain { min: 0 max: 120 }"
                    + " presence { min_fraction: 1.0 } }\n"
                    + "feature { name: \"country\" type: BYTES domain: \"country\""
                    + " presence { min_count: 1 }"
                    + " drift_comparator { infinity_norm { threshold: 0.2 } } }\n"
                    + "string_domain { name: \"country\" value: \"US\" value: \"DE\""
                    + " value: \"FR\" }\n"
                    + "feature { name: \"ts\" type: INT value_count { min: 1 max: 1 } }\n"
                    + "dataset_constraints { min_examples_count: 1 }\n";

    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(PARALLELISM * 2);

    private static boolean windowBatches;

    /** TFX ExampleGen's default data splits. */
    private static final String SPLITS = "train:2,eval:1";

    private static boolean dataSplits;
    private static boolean weighted;
    private static boolean rescale;
    private static int liveTaskManager;

    @TempDir static Path dir;

    @Test
    void aBurstAnEmptyWindowAndDriftRaiseExactlyTheExpectedAlerts(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        run(cluster, "val", false, false);
    }

    @Test
    void theSameAlertsExactlyOnceAcrossATaskManagerFailure(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        run(cluster, "valfail", true, false);
    }

    /**
     * Stopped with a savepoint while windows 1 and 3 are open (their statistics in the window
     * operator's state, written there before the savepoint's barrier), restored at another
     * parallelism: the same alerts, and every window's statistics once, equal to the command's.
     */
    @Test
    void theSameAlertsAndStatisticsThroughASavepointRestoredAtAnotherParallelism(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        rescale = true;
        try {
            run(cluster, "valsp", false, false);
        } finally {
            rescale = false;
        }
    }

    /**
     * Event time from a feature: the parse operator's output is timed downstream, so the window
     * deltas get watermarks of their own; the same alerts, the same exactly-once counts. With TFX
     * data splits on the shards too: each window's statistics are one dataset per split.
     */
    @Test
    void theSameAlertsWithEventTimeFromAFeature(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        dataSplits = true;
        try {
            run(cluster, "valfeat", false, true);
        } finally {
            dataSplits = false;
        }
    }

    /**
     * Batches closed by event-time windows ({@code batch.mode: event_time_window}): rows are parsed
     * and validated when their batch window closes, before its watermark goes on; the same alerts.
     * With weighted statistics too ({@code statistics.weight-feature: age}).
     */
    @Test
    void theSameAlertsWithEventTimeWindowBatches(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        windowBatches = true;
        weighted = true;
        try {
            run(cluster, "valwin", false, false);
        } finally {
            windowBatches = false;
            weighted = false;
        }
    }

    private void run(MiniCluster cluster, String name, boolean kill, boolean featureTime)
            throws Exception {
        String in = name + "-in";
        String dlq = name + "-dlq";
        String alerts = name + "-alerts";
        String records = name + "-records";
        String batches = name + "-batches";
        String statistics = name + "-statistics";
        kafka.createTopic(statistics, 1);
        kafka.createTopic(in, 2);
        kafka.createTopic(batches, 2);
        kafka.createTopic(dlq, 1);
        kafka.createTopic(alerts, 2);
        kafka.createTopic(records, 2);
        Path schema = dir.resolve(name + "-schema.pbtxt");
        Files.writeString(schema, SCHEMA);
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("job.name", name);
        settings.put("parallelism", PARALLELISM);
        settings.put("checkpoint.interval", "500 ms");
        settings.put("source.bootstrap-servers", kafka.bootstrapServers());
        settings.put("source.topics", List.of(in));
        settings.put("source.starting-offsets", "earliest");
        settings.put("schema.path", schema.toString());
        settings.put("batch.max-delay", "100 ms");
        settings.put("dlq.topic", dlq);
        settings.put("output.records.topic", records);
        settings.put("output.batches.topic", batches);
        settings.put("output.transaction-timeout", "2 min");
        settings.put("event-time.max-out-of-orderness", "0 ms");
        if (windowBatches) {
            settings.put("batch.mode", "event_time_window");
            settings.put("batch.window", "5 s");
        }
        if (featureTime) {
            settings.put("event-time.source", "feature");
            settings.put("event-time.feature", "ts");
        }
        settings.put("validation.enabled", "true");
        settings.put("validation.window", "10 s");
        settings.put("validation.alerts-topic", alerts);
        settings.put("validation.min-drift-examples", "10");
        settings.put("validation.actions", "INT_TYPE_BIG_INT=divert");
        settings.put("statistics.enabled", "true");
        settings.put("statistics.topic", statistics);
        if (weighted) {
            settings.put("statistics.weight-feature", "age");
        }
        if (dataSplits) {
            // the statistics take the shards' data splits (shards themselves are another test's)
            settings.put("shards.splits", SPLITS);
        }
        settings.put("flink.restart-strategy.type", "fixed-delay");
        settings.put("flink.restart-strategy.fixed-delay.attempts", "1000");
        settings.put("flink.restart-strategy.fixed-delay.delay", "200 ms");
        if (rescale) {
            // open windows are kept per feature-path split: fixed across the rescale
            settings.put("validation.splits", 2);
        }
        JobClient first = start(settings, name);
        JobID firstId = first.getJobID();

        // Window 0: US-heavy with a burst of out-of-range ages; window 1: the same countries.
        Map<Integer, List<ProducerRecord<byte[], byte[]>>> windows = new TreeMap<>();
        windows.put(0, window(0, "US", BURST));
        windows.put(1, window(1, "US", 0));
        windows.put(3, window(3, "DE", 0));
        produce(in, windows.get(0));
        produce(in, windows.get(1));
        if (kill || rescale) {
            waitFor(
                    () -> completedCheckpoints(cluster, firstId) >= 2,
                    Duration.ofMinutes(2),
                    "two completed checkpoints");
        }
        if (kill) {
            cluster.terminateTaskManager(liveTaskManager++).get(60, TimeUnit.SECONDS);
            cluster.startTaskManager();
        }
        JobClient client = first;
        if (rescale) {
            JobTestSupport.waitForConsumed(
                    kafka.bootstrapServers(), "tfstream", in, Duration.ofMinutes(2));
            String savepoint =
                    first.stopWithSavepoint(
                                    false,
                                    dir.resolve(name + "-sp").toUri().toString(),
                                    org.apache.flink.core.execution.SavepointFormatType.CANONICAL)
                            .get(2, TimeUnit.MINUTES);
            settings.put("parallelism", PARALLELISM + 1);
            settings.put("flink.execution.state-recovery.path", savepoint);
            client = start(settings, name + "-restored");
        }
        JobID id = client.getJobID();
        // Window 2: empty; window 3: DE-heavy; then one record per partition at window 10.
        produce(in, windows.get(3));
        List<ProducerRecord<byte[], byte[]>> ahead = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            ahead.add(record(in, p, T0 + 10 * W, "ahead-" + p, 30, "US"));
        }
        produce(in, ahead);

        // Windows 0..9 fire: 0 burst, 2 and 4..9 empty, 3 drift.
        int expected = 1 + 7 + 1;
        waitFor(
                () ->
                        kafka.readCommitted(alerts).size() >= expected
                                && kafka.readCommitted(statistics).size() >= 10,
                Duration.ofMinutes(3),
                "the alerts and statistics of windows 0 to 9");
        long done = completedCheckpoints(cluster, id);
        waitFor(
                () -> completedCheckpoints(cluster, id) > done + 1,
                Duration.ofMinutes(1),
                "checkpoints");
        if (kill) {
            assertTrue(
                    cluster.getExecutionGraph(id).get().getStatusTimestamp(JobStatus.RESTARTING)
                            > 0,
                    "the job restarted after the TaskManager was killed");
        }
        client.cancel().get(1, TimeUnit.MINUTES);

        Map<String, String> byId = new HashMap<>();
        TreeMap<String, Integer> kinds = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : kafka.readCommitted(alerts)) {
            String json = new String(r.value(), StandardCharsets.UTF_8);
            String alertId = field(json, "alert_id");
            assertEquals(alertId, new String(r.key(), StandardCharsets.UTF_8));
            assertEquals(null, byId.put(alertId, json), "alert " + alertId + " twice");
            long window = (Long.parseLong(field(json, "window_start")) - T0) / W;
            kinds.merge(
                    window + ":" + field(json, "feature_path") + "/" + field(json, "anomaly_type"),
                    1,
                    Integer::sum);
            if (field(json, "anomaly_type").equals("DATASET_LOW_NUM_EXAMPLES")) {
                assertEquals("0", field(json, "num_examples"), json);
            }
            if (field(json, "anomaly_type").equals("INT_TYPE_BIG_INT")) {
                assertEquals(String.valueOf(PER_WINDOW), field(json, "num_examples"), json);
                assertEquals(String.valueOf(BURST), field(json, "num_affected_examples"), json);
            }
        }
        TreeMap<String, Integer> want = new TreeMap<>();
        want.put("0:age/INT_TYPE_BIG_INT", 1);
        for (int w : new int[] {2, 4, 5, 6, 7, 8, 9}) {
            want.put(w + ":/DATASET_LOW_NUM_EXAMPLES", 1);
        }
        want.put("3:country/COMPARATOR_L_INFTY_HIGH", 1);
        assertEquals(want, kinds);

        checkStatistics(kafka.readCommitted(statistics), windows, dataSplits, weighted);

        List<ConsumerRecord<byte[], byte[]>> dead = kafka.readCommitted(dlq);
        assertEquals(BURST, dead.size(), "diverted records, each once");
        for (ConsumerRecord<byte[], byte[]> r : dead) {
            assertEquals("validation", header(r, DeadLetterHeaders.REASON));
            assertTrue(header(r, DeadLetterHeaders.ERROR).contains("INT_TYPE_BIG_INT"));
            assertEquals(in, header(r, DeadLetterHeaders.SOURCE_TOPIC));
        }
        // With event-time window batches, the two records far ahead are still in their open batch
        // window when the job is cancelled (no later record closes it).
        int produced = 3 * PER_WINDOW + (windowBatches ? 0 : 2);
        assertEquals(produced - BURST, kafka.readCommitted(records).size(), "accepted, each once");
        // Diverted records are in no tensor payload: the payloads' rows are the accepted ones.
        long rows = 0;
        for (ConsumerRecord<byte[], byte[]> r : kafka.readCommitted(batches)) {
            rows += io.tfstream.proto.v1.TensorBatch.parseFrom(r.value()).getRows();
        }
        assertEquals(produced - BURST, rows, "payload rows = accepted records");
    }

    private static JobClient start(Map<String, Object> settings, String name) throws Exception {
        JobLauncher.Prepared job = JobLauncher.prepare(JobConfig.of(settings));
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(
                        JobLauncher.flinkConfiguration(job.config()));
        TfstreamPipeline.build(env, job.config(), job.schema());
        return env.executeAsync(name);
    }

    /**
     * Every window 0 to 9 has its statistics exactly once: those of an empty window count 0
     * examples; the others equal {@code tfstream stats} (the library, with the job's sketches) over
     * the window's records, diverted ones included as they are validated.
     */
    private static void checkStatistics(
            List<ConsumerRecord<byte[], byte[]>> messages,
            Map<Integer, List<ProducerRecord<byte[], byte[]>>> windows,
            boolean splits,
            boolean weighted)
            throws Exception {
        Map<Long, DatasetFeatureStatisticsList> byWindow = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : messages) {
            DatasetFeatureStatisticsList list = DatasetFeatureStatisticsList.parseFrom(r.value());
            String key = new String(r.key(), StandardCharsets.UTF_8);
            long window = (Long.parseLong(key.substring(0, key.indexOf('/'))) - T0) / W;
            assertEquals(null, byWindow.put(window, list), "window " + window + " twice");
        }
        assertEquals(10, byWindow.size(), "statistics of windows 0 to 9: " + byWindow.keySet());
        TfxSplits tfx = TfxSplits.parse(SPLITS);
        for (long w = 0; w < 10; w++) {
            DatasetFeatureStatisticsList got = byWindow.get(w);
            String window =
                    java.time.Instant.ofEpochMilli(T0 + w * W)
                            + "/"
                            + java.time.Instant.ofEpochMilli(T0 + (w + 1) * W);
            List<String> names =
                    splits
                            ? tfx.splits().stream().map(TfxSplits.Split::name).toList()
                            : List.of(window);
            assertEquals(names.size(), got.getDatasetsCount(), "datasets of window " + w);
            for (int d = 0; d < names.size(); d++) {
                ExampleStatistics want =
                        new ExampleStatistics(
                                StatsOptions.DEFAULTS.withSketchTopValues(true),
                                weighted ? "age" : null);
                for (ProducerRecord<byte[], byte[]> r : windows.getOrDefault((int) w, List.of())) {
                    if (!splits || tfx.indexOf(r.value()) == d) {
                        want.add(Example.parseFrom(r.value()));
                    }
                }
                assertEquals(names.get(d), got.getDatasets(d).getName());
                StatisticsAssertions.assertSameStatistics(
                        want.build(names.get(d)), got.getDatasets(d));
            }
        }
    }

    /** {@link #PER_WINDOW} records of window {@code w}: 80% {@code main}, 10% each other. */
    private static List<ProducerRecord<byte[], byte[]>> window(int w, String main, int burst) {
        List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>();
        String other = main.equals("US") ? "DE" : "US";
        for (int i = 0; i < PER_WINDOW; i++) {
            String country = i % 10 == 8 ? other : i % 10 == 9 ? "FR" : main;
            long age = i < burst ? 500 + i : 20 + i % 50;
            out.add(
                    record(
                            "",
                            i % 2,
                            T0 + w * W + i * (W / PER_WINDOW),
                            "w" + w + "-" + i,
                            age,
                            country));
        }
        return out;
    }

    private static ProducerRecord<byte[], byte[]> record(
            String topic, int partition, long ts, String key, long age, String country) {
        Features f =
                Features.newBuilder()
                        .putFeature("age", ProtoFeatures.int64s(age))
                        .putFeature("country", ProtoFeatures.strings(country))
                        .putFeature("ts", ProtoFeatures.int64s(ts))
                        .build();
        return new ProducerRecord<>(
                topic,
                partition,
                ts,
                key.getBytes(StandardCharsets.UTF_8),
                Example.newBuilder().setFeatures(f).build().toByteArray());
    }

    private static void produce(String topic, List<ProducerRecord<byte[], byte[]>> records) {
        java.util.Properties p = new java.util.Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (ProducerRecord<byte[], byte[]> r : records) {
                producer.send(
                        new ProducerRecord<>(
                                topic, r.partition(), r.timestamp(), r.key(), r.value()));
            }
            producer.flush();
        }
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        var h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    /** A top-level string or number field of an alert. */
    static String field(String json, String name) {
        Matcher m =
                Pattern.compile("\"" + Pattern.quote(name) + "\":(\"([^\"]*)\"|[-0-9.eE]+)")
                        .matcher(json);
        if (!m.find()) {
            throw new AssertionError("no field " + name + " in " + json);
        }
        return m.group(2) != null ? m.group(2) : m.group(1);
    }
}
