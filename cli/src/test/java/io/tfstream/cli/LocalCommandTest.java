package io.tfstream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The option checks of {@code tfstream local}: each combination that makes no sense is one line on
 * stderr and exit code 2, before a broker, a cluster or {@code --out} is touched.
 */
class LocalCommandTest {
    @TempDir Path dir;

    @Test
    void optionsThatMakeNoSenseAreOneLineAndExitCode2() throws Exception {
        Path files = Files.createDirectories(dir.resolve("files"));
        Map<List<String>, String> cases =
                Map.ofEntries(
                        Map.entry(
                                List.of("--corrupt-fraction", "-0.1"),
                                "--corrupt-fraction must be between 0 and 1, got -0.1"),
                        Map.entry(
                                List.of("--schema", "a.pbtxt", "--feature-spec", "b.json"),
                                "give at most one of --schema and --feature-spec"),
                        Map.entry(
                                List.of("--partitions", "0"),
                                "--partitions and --parallelism must be at least 1"),
                        Map.entry(List.of("--records", "-1"), "--records must be >= 0, got -1"),
                        Map.entry(
                                List.of("--files", files.toString(), "--input", "x.tfrecord"),
                                "--files reads the files as they are: it does not go with --input,"
                                        + " --records or --corrupt-fraction"),
                        Map.entry(
                                List.of("--files", dir.resolve("none").toString()),
                                "--files: no such file or directory: " + dir.resolve("none")),
                        Map.entry(
                                List.of(
                                        "--s3",
                                        "http://127.0.0.1:9",
                                        "--s3-bucket",
                                        "b",
                                        "--s3proxy"),
                                "give at most one of --s3 and --s3proxy"),
                        Map.entry(List.of("--s3", "http://127.0.0.1:9"), "--s3 needs --s3-bucket"),
                        Map.entry(
                                List.of("--metrics-port", "0"),
                                "--metrics-port must be 1..65535, got 0"),
                        Map.entry(
                                List.of("--input-format", "csv"),
                                "--input-format must be example, json or avro, got csv"),
                        Map.entry(
                                List.of("--input-format", "json"),
                                "--input-format json needs --input FILE"));
        Path out = dir.resolve("out");
        for (Map.Entry<List<String>, String> c : cases.entrySet()) {
            List<String> args = new ArrayList<>(List.of("local", "--out", out.toString()));
            args.addAll(c.getKey());
            CliRun run = CliRun.of(args.toArray(String[]::new));
            assertEquals(2, run.exitCode(), c.getKey().toString());
            assertEquals("tfstream local: " + c.getValue() + "\n", run.err());
        }
        assertFalse(Files.exists(out), "nothing written for a usage error");
    }
}
