package io.tfstream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tfstream.job.Listeners;
import io.tfstream.tfrecord.Compression;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI tools that read and write files open no port at all (the commands that start a cluster,
 * {@code run}, {@code local} and {@code sql}, are checked in their ITCases): sampled from {@code
 * /proc} while each runs.
 */
class ToolListenersTest {
    @TempDir Path dir;

    @Test
    void theFileToolsListenOnNothing() throws Exception {
        Path f =
                TestRecords.write(
                        dir.resolve("a.tfrecord"), TestRecords.examples(50), Compression.NONE);
        for (List<String> args :
                List.of(
                        List.of("count", f.toString()),
                        List.of("verify", f.toString()),
                        List.of("inspect", f.toString()),
                        List.of("cat", f.toString()),
                        List.of("stats", "--out", dir.resolve("s.pb").toString(), f.toString()),
                        List.of("shards", "uploads", dir.toString()))) {
            Listeners.During<CliRun> d =
                    Listeners.during(() -> CliRun.of(args.toArray(String[]::new)));
            assertEquals(0, d.result().exitCode(), args + ": " + d.result().err());
            assertEquals(Set.of(), d.seen(), args + " opened a port");
        }
    }
}
