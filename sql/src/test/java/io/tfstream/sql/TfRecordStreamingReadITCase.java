package io.tfstream.sql;

import static io.tfstream.sql.Examples.example;
import static io.tfstream.sql.Examples.floats;
import static io.tfstream.sql.Examples.int64s;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import io.tfstream.tfrecord.TfRecordWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.Feature;

/**
 * A streaming read of a {@code tfrecord} table across a job failure: a directory monitored with
 * {@code source.monitor-interval} while uncompressed and gzip files keep arriving (files of more
 * than one parse batch, so positions inside a file are restored), copied into a {@code tfrecord}
 * filesystem table with checkpoints every 300 ms; the TaskManager is killed after two checkpoints.
 * Every record is in exactly one committed output file, with its values.
 */
class TfRecordStreamingReadITCase {
    private static final int FILES = 24;
    private static final int PER_FILE = 1500;

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir Path dir;

    private static byte[] record(long id) {
        return example(Map.<String, Feature>of("id", int64s(id), "w", floats(id / 4f, -id)));
    }

    @Test
    void everyRecordOnceAcrossAKilledTaskManager(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        Path in = Files.createDirectories(dir.resolve("in"));
        Path out = dir.resolve("out");
        Configuration conf = new Configuration();
        conf.setString("execution.checkpointing.interval", "300 ms");
        conf.setString("restart-strategy.type", "fixed-delay");
        conf.setString("restart-strategy.fixed-delay.attempts", "1000");
        conf.setString("restart-strategy.fixed-delay.delay", "200 ms");
        conf.setString("parallelism.default", "2");
        TableEnvironment env =
                TableEnvironment.create(
                        EnvironmentSettings.newInstance()
                                .inStreamingMode()
                                .withConfiguration(conf)
                                .build());
        env.executeSql(
                "CREATE TABLE src (id BIGINT, w ARRAY<FLOAT>) WITH ('connector' = 'filesystem',"
                        + " 'path' = '"
                        + in.toUri()
                        + "', 'format' = 'tfrecord', 'source.monitor-interval' = '200 ms')");
        env.executeSql(
                "CREATE TABLE dst (id BIGINT, w ARRAY<FLOAT>) WITH ('connector' = 'filesystem',"
                        + " 'path' = '"
                        + out.toUri()
                        + "', 'format' = 'tfrecord')");
        JobClient client =
                env.executeSql("INSERT INTO dst SELECT id, w FROM src")
                        .getJobClient()
                        .orElseThrow();
        JobID id = client.getJobID();
        AtomicInteger written = new AtomicInteger();
        try {
            CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> write(in, written));
            waitFor(() -> written.get() >= FILES / 4, Duration.ofMinutes(2), "input files");
            long seenAt = checkpoints(cluster, id);
            waitFor(
                    () -> checkpoints(cluster, id) >= seenAt + 2 && !committed(out).isEmpty(),
                    Duration.ofMinutes(2),
                    "two checkpoints and a committed file");
            cluster.terminateTaskManager(0).get(60, TimeUnit.SECONDS);
            cluster.startTaskManager();
            writing.get(3, TimeUnit.MINUTES);
            waitFor(
                    () -> count(read(out)) >= (long) FILES * PER_FILE,
                    Duration.ofMinutes(3),
                    "every record committed");
            long now = checkpoints(cluster, id);
            waitFor(
                    () -> checkpoints(cluster, id) >= now + 2,
                    Duration.ofMinutes(1),
                    "two more checkpoints");
        } finally {
            client.cancel().get(1, TimeUnit.MINUTES);
        }
        Map<Long, List<String>> byId = read(out);
        assertEquals((long) FILES * PER_FILE, byId.size(), "every record");
        for (Map.Entry<Long, List<String>> e : byId.entrySet()) {
            long i = e.getKey();
            assertEquals(List.of((i / 4f) + "," + (float) -i), e.getValue(), "record " + i);
        }
    }

    /** Writes the input files one after another, each renamed into place when whole. */
    private static void write(Path in, AtomicInteger written) {
        try {
            for (int f = 0; f < FILES; f++) {
                Compression c = f % 2 == 0 ? Compression.NONE : Compression.GZIP;
                String name = "f" + f + (c == Compression.GZIP ? ".tfrecord.gz" : ".tfrecord");
                Path tmp = in.resolve("." + name);
                try (TfRecordWriter w = TfRecordFiles.newWriter(tmp, c)) {
                    for (int r = 0; r < PER_FILE; r++) {
                        w.write(record((long) f * PER_FILE + r));
                    }
                }
                Files.move(tmp, in.resolve(name), StandardCopyOption.ATOMIC_MOVE);
                written.set(f + 1);
                Thread.sleep(250);
            }
        } catch (Exception e) {
            throw new IllegalStateException("writing the input files", e);
        }
    }

    private static long checkpoints(MiniCluster cluster, JobID id) throws Exception {
        var stats = cluster.getExecutionGraph(id).get().getCheckpointStatsSnapshot();
        return stats == null ? 0 : stats.getCounts().getNumberOfCompletedCheckpoints();
    }

    private interface Condition {
        boolean holds() throws Exception;
    }

    private static void waitFor(Condition c, Duration timeout, String what) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!c.holds()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(200);
        }
    }

    private static List<Path> committed(Path out) throws Exception {
        if (!Files.isDirectory(out)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(out)) {
            return files.filter(p -> !p.getFileName().toString().startsWith(".")).toList();
        }
    }

    private static long count(Map<Long, List<String>> byId) {
        return byId.values().stream().mapToLong(List::size).sum();
    }

    /** Committed records by id, each as "w0,w1". */
    private static Map<Long, List<String>> read(Path out) throws Exception {
        Map<Long, List<String>> byId = new TreeMap<>();
        for (Path f : committed(out)) {
            try (TfRecordReader r =
                    TfRecordFiles.openReader(
                            f, TfRecordReadOptions.defaults().withCompression(Compression.NONE))) {
                while (r.next()) {
                    var m =
                            org.tensorflow.example.Example.parseFrom(r.copy())
                                    .getFeatures()
                                    .getFeatureMap();
                    List<Float> w = m.get("w").getFloatList().getValueList();
                    byId.computeIfAbsent(
                                    m.get("id").getInt64List().getValue(0), k -> new ArrayList<>())
                            .add(w.get(0) + "," + w.get(1));
                }
            }
        }
        return byId;
    }
}
