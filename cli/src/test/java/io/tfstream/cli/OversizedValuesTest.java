package io.tfstream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.job.JobConfig;
import io.tfstream.job.JobConfigException;
import io.tfstream.job.JobOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 1 MB value, wherever it is given, gives an error of less than 64 KiB: messages quote input cut
 * to a few dozen characters ({@code Quoted.cut}), however the value arrives (the job's options of
 * every kind, a YAML file, {@code --set}, command-line arguments, a SQL script).
 */
class OversizedValuesTest {
    private static final String HUGE = "x".repeat(1 << 20);
    private static final int LIMIT = 64 * 1024;

    @TempDir Path dir;

    @Test
    void everyJobOptionRefusesAHugeValueInAShortMessage() {
        int refused = 0;
        List<String> tooLong = new ArrayList<>();
        for (ConfigOption<?> o : JobOptions.ALL) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("source.bootstrap-servers", "localhost:9092");
            m.put("source.topics", "in");
            m.put("schema.path", "schema.pbtxt");
            m.put("dlq.topic", "dlq");
            m.put(o.key(), HUGE);
            try {
                JobConfig.of(m);
            } catch (IllegalArgumentException e) { // JobConfigException among them
                refused++;
                assertTrue(
                        e.getMessage().length() < LIMIT, o.key() + ": " + e.getMessage().length());
            }
        }
        assertTrue(
                refused > JobOptions.ALL.size() / 2, "most options refuse 1 MB of x: " + refused);
        Map<String, Object> unknown = new LinkedHashMap<>();
        unknown.put(HUGE, "1");
        try {
            JobConfig.of(unknown);
        } catch (JobConfigException e) {
            assertTrue(e.getMessage().length() < LIMIT, "an unknown key of 1 MB");
        }
    }

    @Test
    void anEnumOptionOfAMegabyteExitsTwoWithAShortError() throws Exception {
        Path yaml = dir.resolve("job.yaml");
        Files.writeString(yaml, "shards:\n  compression: " + HUGE + "\n");
        CliRun r = CliRun.of("run", "--config", yaml.toString());
        assertEquals(ExitCodes.USAGE, r.exitCode());
        assertTrue(
                r.err().startsWith("tfstream run: invalid value 'xxxx"), r.err().substring(0, 80));
        assertTrue(r.err().length() < LIMIT, "error text " + r.err().length());

        CliRun set = CliRun.of("run", "--set", "shards.compression=" + HUGE);
        assertEquals(ExitCodes.USAGE, set.exitCode());
        assertTrue(set.err().length() < LIMIT, "error text " + set.err().length());
    }

    @Test
    void commandLineArgumentsOfAMegabyteGiveShortErrors() {
        for (String[] args :
                new String[][] {
                    {"shards", "uploads", dir.toString(), "--set", HUGE},
                    {"shards", "uploads", dir.toString(), "--older-than", HUGE},
                    {"cat", "--format", HUGE, dir.resolve("none").toString()},
                    {"validate", "--window", HUGE, dir.toString()},
                    {"sql", "-e", "SELECT " + HUGE + " FROM nowhere"},
                    {"nosuchcommand" + HUGE},
                }) {
            CliRun r = CliRun.of(args);
            assertTrue(r.exitCode() != 0, args[0]);
            assertTrue(
                    r.err().length() + r.out().length() < LIMIT,
                    args[0] + ": " + (r.err().length() + r.out().length()) + " characters");
        }
    }
}
