package io.tfstream.sql;

import static io.tfstream.testkit.MiniClusters.completedCheckpoints;
import static io.tfstream.testkit.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.tfstream.testkit.KafkaTestBase;
import io.tfstream.testkit.MiniClusters;
import io.tfstream.testkit.TestFiles;
import io.tfstream.testkit.Waits;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.BytesList;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.example.FloatList;
import org.tensorflow.example.Int64List;

/**
 * Flink SQL in streaming mode: a Kafka table with {@code 'format' = 'tf-example'} (garbage records
 * skipped under {@code ignore-parse-errors}) into a filesystem table with {@code 'format' =
 * 'tfrecord'}, checkpoints every 300 ms, the TaskManager killed after two checkpoints: every good
 * record is in exactly one committed TFRecord file, with its values. And a Kafka table written with
 * {@code tf-example}: one Example per row, read back through SQL.
 */
class SqlKafkaToTfRecordITCase extends KafkaTestBase {
    private static final int RECORDS = 4000;
    private static final int GARBAGE_EVERY = 97;

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(2);

    @TempDir static Path dir;

    static byte[] example(int id) {
        Features.Builder f =
                Features.newBuilder()
                        .putFeature(
                                "id",
                                Feature.newBuilder()
                                        .setInt64List(Int64List.newBuilder().addValue(id))
                                        .build())
                        .putFeature(
                                "w",
                                Feature.newBuilder()
                                        .setFloatList(
                                                FloatList.newBuilder()
                                                        .addValue(id / 4f)
                                                        .addValue(-id))
                                        .build());
        if (id % 3 != 0) {
            f.putFeature(
                    "name",
                    Feature.newBuilder()
                            .setBytesList(
                                    BytesList.newBuilder()
                                            .addValue(ByteString.copyFromUtf8("n" + id)))
                            .build());
        }
        return Example.newBuilder().setFeatures(f).build().toByteArray();
    }

    @Test
    void everyRowOnceAcrossAKilledTaskManager(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        kafka.createTopic("sql-in", 3);
        Path out = dir.resolve("out");
        Configuration conf = SqlTestSupport.recoveringConfiguration();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        tEnv.executeSql(
                "CREATE TABLE src (id BIGINT, name STRING, w ARRAY<FLOAT>) WITH ("
                        + "'connector' = 'kafka', 'topic' = 'sql-in',"
                        + " 'properties.bootstrap.servers' = '"
                        + kafka.bootstrapServers()
                        + "', 'properties.group.id' = 'sql', 'scan.startup.mode' ="
                        + " 'earliest-offset', 'format' = 'tf-example',"
                        + " 'tf-example.ignore-parse-errors' = 'true')");
        tEnv.executeSql(
                "CREATE TABLE dst (id BIGINT, name STRING, w ARRAY<FLOAT>) WITH ("
                        + "'connector' = 'filesystem', 'path' = '"
                        + out.toUri()
                        + "', 'format' = 'tfrecord', 'tfrecord.compression' = 'gzip')");
        TableResult insert = tEnv.executeSql("INSERT INTO dst SELECT id, name, w FROM src");
        JobClient client = insert.getJobClient().orElseThrow();
        AtomicInteger produced = new AtomicInteger();
        killMidwayAndWait(
                cluster,
                client,
                out,
                () -> produce(produced),
                () -> produced.get() > RECORDS / 5,
                RECORDS);
        Map<Long, List<String>> byId = read(out);
        assertEquals(RECORDS, byId.size(), "every good record, garbage skipped");
        for (Map.Entry<Long, List<String>> e : byId.entrySet()) {
            long i = e.getKey();
            assertEquals(1, e.getValue().size(), "record " + i + " once: " + e.getValue());
            String name = i % 3 != 0 ? "n" + i : "-";
            assertEquals(name + "/" + (i / 4f) + "," + (float) -i, e.getValue().get(0));
        }
        assertTrue(byId.containsKey(0L) && byId.containsKey((long) RECORDS - 1));
    }

    @Test
    void aKafkaTableWritesOneExamplePerRowAndReadsItBack() throws Exception {
        kafka.createTopic("sql-out", 1);
        org.apache.flink.table.api.TableEnvironment env =
                org.apache.flink.table.api.TableEnvironment.create(
                        org.apache.flink.table.api.EnvironmentSettings.inStreamingMode());
        String with =
                " WITH ('connector' = 'kafka', 'topic' = 'sql-out',"
                        + " 'properties.bootstrap.servers' = '"
                        + kafka.bootstrapServers()
                        + "', 'properties.group.id' = 'sql-out', 'scan.startup.mode' ="
                        + " 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',"
                        + " 'format' = 'tf-example')";
        env.executeSql("CREATE TABLE k (id BIGINT, name STRING, tags ARRAY<STRING>)" + with);
        env.executeSql(
                        "INSERT INTO k VALUES (1, 'a', ARRAY['x', 'y']),"
                                + " (2, CAST(NULL AS STRING), CAST(NULL AS ARRAY<STRING>))")
                .await();
        List<Map<String, Feature>> written = new ArrayList<>();
        for (var r : kafka.readCommitted("sql-out")) {
            written.add(Example.parseFrom(r.value()).getFeatures().getFeatureMap());
        }
        // The VALUES rows may reach the topic from different writer subtasks, in either order.
        written.sort(
                java.util.Comparator.comparingLong(m -> m.get("id").getInt64List().getValue(0)));
        assertEquals(2, written.size());
        assertEquals(
                List.of("x", "y"),
                written.get(0).get("tags").getBytesList().getValueList().stream()
                        .map(ByteString::toStringUtf8)
                        .toList());
        assertEquals(java.util.Set.of("id"), written.get(1).keySet(), "NULL columns are absent");

        assertEquals(
                List.of("+I[1, a, [x, y]]", "+I[2, null, null]"),
                SqlTestSupport.rows(env, "SELECT id, name, tags FROM k").stream()
                        .sorted()
                        .toList());
    }

    /**
     * Runs {@code input} while the job of {@code client} writes {@code out}; kills the TaskManager
     * once {@code started} holds, two checkpoints have completed and a file is committed, then
     * waits for {@code records} committed records and two more checkpoints, and cancels the job.
     */
    static void killMidwayAndWait(
            MiniCluster cluster,
            JobClient client,
            Path out,
            Runnable input,
            Waits.Condition started,
            int records)
            throws Exception {
        JobID id = client.getJobID();
        try {
            CompletableFuture<Void> feeding = CompletableFuture.runAsync(input);
            waitFor(started, Duration.ofMinutes(2), "input");
            long seenAt = completedCheckpoints(cluster, id);
            waitFor(
                    () ->
                            completedCheckpoints(cluster, id) >= seenAt + 2
                                    && !committed(out).isEmpty(),
                    Duration.ofMinutes(2),
                    "two checkpoints and a committed file");
            cluster.terminateTaskManager(0).get(60, TimeUnit.SECONDS);
            cluster.startTaskManager();
            feeding.get(3, TimeUnit.MINUTES);
            waitFor(
                    () -> read(out).values().stream().mapToInt(List::size).sum() >= records,
                    Duration.ofMinutes(3),
                    "every record committed");
            long now = completedCheckpoints(cluster, id);
            waitFor(
                    () -> completedCheckpoints(cluster, id) >= now + 2,
                    Duration.ofMinutes(1),
                    "two more checkpoints");
        } finally {
            client.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    static List<Path> committed(Path out) throws Exception {
        List<Path> files = new ArrayList<>();
        for (Path p : TestFiles.regularFiles(out)) {
            String n = p.getFileName().toString();
            if (!n.startsWith(".") && !n.startsWith("_")) {
                files.add(p);
            }
        }
        return files;
    }

    /** Committed records by id, each as "name/w0,w1" ("-" for an absent name). */
    static Map<Long, List<String>> read(Path out) throws Exception {
        Map<Long, List<String>> byId = new TreeMap<>();
        for (Path f : committed(out)) {
            // Flink's filesystem sink names files part-<uuid>-<task>-<n> whatever the format, so a
            // gzip file has no .gz (docs/sql.md): tfstream's readers detect it from its first
            // bytes.
            assertTrue(
                    f.getFileName().toString().matches("part-[-0-9a-f]+-\\d+-\\d+"), f.toString());
            byte[] head = java.util.Arrays.copyOf(java.nio.file.Files.readAllBytes(f), 16);
            assertEquals(
                    Compression.GZIP,
                    Compression.detect(f.getFileName().toString(), head, head.length));
            try (TfRecordReader r = TfRecordFiles.openReader(f, TfRecordReadOptions.defaults())) {
                while (r.next()) {
                    Map<String, Feature> m =
                            Example.parseFrom(r.copy()).getFeatures().getFeatureMap();
                    long i = m.get("id").getInt64List().getValue(0);
                    String name =
                            m.containsKey("name")
                                    ? m.get("name").getBytesList().getValue(0).toStringUtf8()
                                    : "-";
                    List<Float> w = m.get("w").getFloatList().getValueList();
                    byId.computeIfAbsent(i, k -> new ArrayList<>())
                            .add(name + "/" + w.get(0) + "," + w.get(1));
                }
            }
        }
        return byId;
    }

    private static void produce(AtomicInteger produced) {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.setProperty(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                producer.send(new ProducerRecord<>("sql-in", i % 3, null, null, example(i)));
                if (i % GARBAGE_EVERY == 0) {
                    producer.send(
                            new ProducerRecord<>(
                                    "sql-in", i % 3, null, null, new byte[] {(byte) 0xff, 7}));
                }
                if (i % 50 == 49) {
                    producer.flush();
                    produced.set(i + 1);
                    Thread.sleep(100);
                }
            }
            producer.flush();
            produced.set(RECORDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
