package io.tfstream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.tfstream.job.Listeners;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import io.tfstream.tfrecord.TfRecordWriter;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.BytesList;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.example.FloatList;
import org.tensorflow.example.Int64List;

/**
 * {@code tfstream sql} end to end in this JVM (each statement's job on an embedded cluster): JSON
 * lines of a query, INSERT INTO a tfrecord table, streaming change rows, exit codes 2 and 4.
 */
class SqlCommandITCase {
    @TempDir Path dir;

    private static byte[] example(long id, Float w, byte[] payload) {
        Features.Builder f = Features.newBuilder();
        f.putFeature(
                "id",
                Feature.newBuilder().setInt64List(Int64List.newBuilder().addValue(id)).build());
        if (w != null) {
            f.putFeature(
                    "w",
                    Feature.newBuilder()
                            .setFloatList(FloatList.newBuilder().addValue(w).addValue(w * 2))
                            .build());
        }
        if (payload != null) {
            f.putFeature(
                    "payload",
                    Feature.newBuilder()
                            .setBytesList(
                                    BytesList.newBuilder().addValue(ByteString.copyFrom(payload)))
                            .build());
        }
        return Example.newBuilder().setFeatures(f).build().toByteArray();
    }

    private Path data() throws Exception {
        Path d = Files.createDirectories(dir.resolve("in"));
        try (TfRecordWriter w =
                TfRecordFiles.newWriter(d.resolve("a.tfrecord"), Compression.NONE)) {
            w.write(example(1, 0.5f, new byte[] {1, 2, (byte) 255}));
            w.write(example(2, Float.NaN, null));
            w.write(example(3, null, new byte[0]));
        }
        return d;
    }

    private static String table(String name, Path path) {
        return "CREATE TABLE "
                + name
                + " (id BIGINT, w ARRAY<FLOAT>, payload BYTES) WITH ('connector' = 'filesystem',"
                + " 'path' = '"
                + path.toUri()
                + "', 'format' = 'tfrecord');\n";
    }

    /**
     * The script's embedded cluster (Flink's REST API, blob server, ...) listens on loopback only,
     * as every tfstream command does ({@code LoopbackListeners}).
     */
    @Test
    void aStreamingQueryListensOnLoopbackOnly() throws Exception {
        Listeners.During<CliRun> d =
                Listeners.during(
                        () ->
                                CliRun.of(
                                        "sql",
                                        "-e",
                                        "SET 'execution.runtime-mode'='streaming'; CREATE TABLE g"
                                                + " (x INT) WITH ('connector'='datagen',"
                                                + " 'number-of-rows'='10',"
                                                + " 'rows-per-second'='5'); SELECT * FROM g;"));
        CliRun run = d.result();
        Set<InetSocketAddress> listeners = d.seen();
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(10, Stream.of(run.outLines()).filter(l -> !l.isEmpty()).count(), run.out());
        assertTrue(!listeners.isEmpty(), "the cluster's REST API was seen");
        assertEquals(Set.of(), Listeners.notLoopback(listeners), "listeners: " + listeners);
    }

    /** A Kafka table's inline JAAS password is refused before anything runs, and not echoed. */
    @Test
    void aKafkaTableWithAnInlinePasswordIsRefused() {
        CliRun run =
                CliRun.of(
                        "sql",
                        "-e",
                        "CREATE TABLE k (x INT) WITH ('connector'='kafka', 'topic'='t',"
                                + " 'properties.bootstrap.servers'='localhost:9', 'format'='json',"
                                + " 'properties.sasl.jaas.config'='org.apache.kafka.common.security"
                                + ".plain.PlainLoginModule required username=\"${env:USER}\""
                                + " password=\"marker-pw-51\";'); SELECT * FROM k;");
        assertEquals(ExitCodes.USAGE, run.exitCode());
        assertTrue(
                run.err()
                        .startsWith(
                                "tfstream sql: statement 1: properties.sasl.jaas.config (its JAAS"
                                        + " option password): a secret is only taken as a"
                                        + " reference"),
                run.err());
        assertTrue(!run.err().contains("marker-pw-51") && !run.out().contains("marker-pw-51"));
    }

    @Test
    void queryRowsAreJsonLinesAndNothingElse() throws Exception {
        CliRun run =
                CliRun.of(
                        "sql",
                        "-e",
                        table("t", data()) + "SELECT id, w, payload FROM t ORDER BY id;");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(
                "{\"id\":1,\"w\":[0.5,1.0],\"payload\":\"AQL/\"}\n"
                        + "{\"id\":2,\"w\":[\"NaN\",\"NaN\"],\"payload\":null}\n"
                        + "{\"id\":3,\"w\":null,\"payload\":\"\"}\n",
                run.out());
    }

    @Test
    void insertIntoRunsToCompletionAndReadsBack() throws Exception {
        Path script = dir.resolve("copy.sql");
        Path out = dir.resolve("out");
        Files.writeString(
                script,
                "-- copy with a gzip sink\n"
                        + table("src", data())
                        + "CREATE TABLE dst (id BIGINT, w ARRAY<FLOAT>) WITH ('connector' ="
                        + " 'filesystem', 'path' = '"
                        + out.toUri()
                        + "', 'format' = 'tfrecord', 'tfrecord.compression' = 'gzip');\n"
                        + "INSERT INTO dst SELECT id, w FROM src WHERE id > 1;\n"
                        + "SELECT id, w FROM dst ORDER BY id;\n");
        CliRun run = CliRun.of("sql", "--file", script.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("{\"id\":2,\"w\":[\"NaN\",\"NaN\"]}\n{\"id\":3,\"w\":null}\n", run.out());
        List<Long> ids = new ArrayList<>();
        try (Stream<Path> files = Files.list(out)) {
            for (Path f : files.toList()) {
                try (TfRecordReader r =
                        TfRecordFiles.openReader(
                                f,
                                TfRecordReadOptions.defaults().withCompression(Compression.GZIP))) {
                    while (r.next()) {
                        Example e = Example.parseFrom(r.copy());
                        ids.add(
                                e.getFeatures()
                                        .getFeatureMap()
                                        .get("id")
                                        .getInt64List()
                                        .getValue(0));
                        assertEquals(
                                ids.get(ids.size() - 1) == 3,
                                !e.getFeatures().getFeatureMap().containsKey("w"));
                    }
                }
            }
        }
        ids.sort(null);
        assertEquals(List.of(2L, 3L), ids);
    }

    @Test
    void streamingRowsCarryTheirChangeKind() throws Exception {
        CliRun run =
                CliRun.of(
                        "sql",
                        "-e",
                        "SET 'execution.runtime-mode' = 'streaming';"
                                + " SET 'parallelism.default' = '1';"
                                + table("t", data())
                                + "SELECT COUNT(*) AS n FROM t;");
        assertEquals(0, run.exitCode(), run.err());
        String[] lines = run.out().split("\n");
        assertEquals("{\"op\":\"+I\",\"n\":1}", lines[0]);
        assertEquals("{\"op\":\"+U\",\"n\":3}", lines[lines.length - 1]);
        for (String l : lines) {
            assertTrue(l.matches("\\{\"op\":\"[-+][IUD]\",\"n\":\\d\\}"), l);
        }
    }

    @Test
    void badSqlExitsTwoNamingTheStatement() throws Exception {
        CliRun run = CliRun.of("sql", "-e", table("t", data()) + "SELECT nope FROM t;");
        assertEquals(ExitCodes.USAGE, run.exitCode());
        assertEquals("", run.out());
        assertTrue(
                run.err().startsWith("tfstream sql: statement 2 (SELECT nope FROM t):"), run.err());
        assertTrue(run.err().contains("nope"), run.err());
        assertEquals(1, run.err().strip().split("\n").length, run.err());
    }

    @Test
    void anUnsupportedColumnTypeExitsTwoNamingTheColumn() throws Exception {
        CliRun run =
                CliRun.of(
                        "sql",
                        "-e",
                        "CREATE TABLE t (id DECIMAL(5, 2)) WITH ('connector' = 'filesystem',"
                                + " 'path' = '"
                                + data().toUri()
                                + "', 'format' = 'tfrecord'); SELECT * FROM t");
        assertEquals(ExitCodes.USAGE, run.exitCode(), run.err());
        assertTrue(run.err().contains("Column 'id'"), run.err());
    }

    @Test
    void aFailingJobExitsFour() throws Exception {
        Path d = data();
        byte[] b = Files.readAllBytes(d.resolve("a.tfrecord"));
        b[b.length - 1] ^= 1; // the last record's data CRC
        Files.write(d.resolve("a.tfrecord"), b);
        CliRun run = CliRun.of("sql", "-e", table("t", d) + "SELECT id FROM t");
        assertEquals(ExitCodes.JOB_FAILED, run.exitCode(), run.err());
        assertTrue(run.err().contains("statement 2 (SELECT id FROM t) failed"), run.err());
        assertTrue(run.err().contains("a.tfrecord: damaged at byte"), run.err());
    }

    @Test
    void oneRuntimeModePerScript() {
        CliRun run =
                CliRun.of(
                        "sql",
                        "-e",
                        "SET 'execution.runtime-mode' = 'streaming'; SET"
                                + " 'execution.runtime-mode' = 'batch'; SELECT 1");
        assertEquals(ExitCodes.USAGE, run.exitCode());
        assertTrue(run.err().contains("one mode"), run.err());
    }

    @Test
    void scriptsSplitOutsideQuotesAndComments() {
        assertEquals(
                List.of("SELECT 'a;b'", "SELECT \"x;\" FROM y", "SELECT 2"),
                SqlScript.split(
                        "SELECT 'a;b'; -- c;d\nSELECT \"x;\" FROM y /* ; */;\n\nSELECT 2;"));
    }
}
