package io.tfstream.e2e.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tfstream sql} as a user runs it, in a JVM of its own: what it prints on stderr. A query
 * prints its rows and nothing on stderr (no notes of Flink's batch scheduler); a failing job one
 * line naming the statement and the cause; with {@code --verbose} Flink's log and the stack trace
 * too.
 */
class SqlCommandProcessITCase {
    @TempDir Path dir;

    private record Run(int exitCode, String out, List<String> err) {}

    private Run sql(String... args) throws Exception {
        List<String> cmd = CliJar.command();
        cmd.add("sql");
        cmd.addAll(List.of(args));
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process p =
                new ProcessBuilder(cmd)
                        .redirectOutput(out.toFile())
                        .redirectError(err.toFile())
                        .start();
        assertTrue(p.waitFor(3, TimeUnit.MINUTES), "tfstream sql ends");
        return new Run(
                p.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readAllLines(err, StandardCharsets.UTF_8));
    }

    private String table(Path data) {
        return "CREATE TABLE t (id BIGINT) WITH ('connector' = 'filesystem', 'path' = '"
                + data.toUri()
                + "', 'format' = 'tfrecord');";
    }

    @Test
    void aQueryPrintsRowsOnlyAndAFailureOneLine() throws Exception {
        Path good = Files.createDirectories(dir.resolve("good"));
        try (TfRecordWriter w =
                TfRecordFiles.newWriter(good.resolve("a.tfrecord"), Compression.NONE)) {
            w.write(
                    org.tensorflow.example.Example.newBuilder()
                            .setFeatures(
                                    org.tensorflow.example.Features.newBuilder()
                                            .putFeature(
                                                    "id",
                                                    org.tensorflow.example.Feature.newBuilder()
                                                            .setInt64List(
                                                                    org.tensorflow.example.Int64List
                                                                            .newBuilder()
                                                                            .addValue(7))
                                                            .build()))
                            .build()
                            .toByteArray());
        }
        Run ok = sql("-e", table(good) + " SELECT id FROM t");
        assertEquals(0, ok.exitCode(), String.join("\n", ok.err()));
        assertEquals("{\"id\":7}\n", ok.out());
        assertEquals(List.of(), ok.err());

        Path bad = Files.createDirectories(dir.resolve("bad"));
        Files.writeString(bad.resolve("b.tfrecord"), "garbage\n");
        Run failed = sql("-e", table(bad) + " SELECT id FROM t");
        assertEquals(4, failed.exitCode());
        assertEquals(1, failed.err().size(), String.join("\n", failed.err()));
        assertTrue(
                failed.err()
                        .get(0)
                        .startsWith("tfstream sql: statement 2 (SELECT id FROM t) failed:"),
                failed.err().get(0));
        assertTrue(failed.err().get(0).contains("b.tfrecord: damaged at byte 0"));

        Run verbose = sql("--verbose", "-e", table(bad) + " SELECT id FROM t");
        assertEquals(4, verbose.exitCode());
        assertTrue(verbose.err().size() > 10, String.join("\n", verbose.err()));
        assertTrue(
                verbose.err().stream().anyMatch(l -> l.contains("\tat org.apache.flink.")),
                "the stack trace");
    }
}
