package io.tfstream.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tfstream.testkit.MiniClusters;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A streaming read of a {@code tfrecord} table across a job failure: a directory monitored with
 * {@code source.monitor-interval} while uncompressed and gzip files keep arriving (each of more
 * than one parse batch, so positions inside a file are restored), copied into a {@code tfrecord}
 * filesystem table with checkpoints every 300 ms; the TaskManager is killed after two checkpoints.
 * Every record is in exactly one committed output file, with its values.
 */
class SqlTfRecordStreamingReadITCase {
    private static final int FILES = 24;
    private static final int PER_FILE = 1500;

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(2);

    @TempDir Path dir;

    @Test
    void everyRecordOnceAcrossAKilledTaskManager(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        Path in = Files.createDirectories(dir.resolve("in"));
        Path out = dir.resolve("out");
        Configuration conf = SqlTestSupport.recoveringConfiguration();
        conf.setString("parallelism.default", "2");
        TableEnvironment env =
                TableEnvironment.create(
                        EnvironmentSettings.newInstance()
                                .inStreamingMode()
                                .withConfiguration(conf)
                                .build());
        String columns =
                " (id BIGINT, name STRING, w ARRAY<FLOAT>) WITH ('connector' ="
                        + " 'filesystem', 'format' = 'tfrecord', 'path' = '";
        env.executeSql(
                "CREATE TABLE src"
                        + columns
                        + in.toUri()
                        + "', 'source.monitor-interval' = '200 ms')");
        env.executeSql(
                "CREATE TABLE dst" + columns + out.toUri() + "', 'tfrecord.compression' = 'gzip')");
        JobClient client =
                env.executeSql("INSERT INTO dst SELECT id, name, w FROM src")
                        .getJobClient()
                        .orElseThrow();
        AtomicInteger written = new AtomicInteger();
        SqlKafkaToTfRecordITCase.killMidwayAndWait(
                cluster,
                client,
                out,
                () -> write(in, written),
                () -> written.get() >= FILES / 4,
                FILES * PER_FILE);
        Map<Long, List<String>> byId = SqlKafkaToTfRecordITCase.read(out);
        assertEquals(FILES * PER_FILE, byId.size(), "every record");
        for (Map.Entry<Long, List<String>> e : byId.entrySet()) {
            long i = e.getKey();
            String name = i % 3 != 0 ? "n" + i : "-";
            assertEquals(List.of(name + "/" + (i / 4f) + "," + (float) -i), e.getValue());
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
                        w.write(SqlKafkaToTfRecordITCase.example(f * PER_FILE + r));
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
}
