package io.tfstream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.job.JobOptions;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tfstream run}: help generated from the options, configuration errors and exit codes. */
class RunCommandTest {
    @TempDir Path dir;

    @Test
    void helpListsEveryJobOption() {
        CliRun r = CliRun.of("run", "--help");
        assertEquals(0, r.exitCode());
        for (ConfigOption<?> o : JobOptions.ALL) {
            assertTrue(r.out().contains("  " + o.key() + "  ("), o.key());
        }
        assertTrue(r.out().contains("source.properties.<key>"));
        assertTrue(r.out().contains("Ctrl-C stops it with a final savepoint"));
    }

    @Test
    void aBadConfigurationExitsWithUsageNamingTheKey() throws Exception {
        Path yaml = dir.resolve("job.yaml");
        Files.writeString(yaml, "batch:\n  max-records: lots\n");
        CliRun r = CliRun.of("run", "--config", yaml.toString());
        assertEquals(ExitCodes.USAGE, r.exitCode());
        assertEquals(
                "tfstream run: invalid value 'lots' for batch.max-records: expected an integer\n",
                r.err());
        assertEquals("", r.out());
    }

    @Test
    void aRejectedSchemaExitsWith3() throws Exception {
        Path schema = rejectedSchema();
        CliRun r = runWithSchema(schema);
        assertEquals(ExitCodes.SPEC_REJECTED, r.exitCode(), r.err());
        assertTrue(
                r.err()
                        .startsWith(
                                "tfstream run: schema.path: "
                                        + schema
                                        + " was rejected: Feature x"),
                r.err());
    }

    @Test
    void aDeprecatedSpellingIsReadAndWarnedAbout() throws Exception {
        CliRun r = runWithSchema(rejectedSchema(), "--set", "source.files.on-corruption=dlq");
        assertEquals(ExitCodes.SPEC_REJECTED, r.exitCode(), r.err());
        assertTrue(
                r.err()
                        .startsWith(
                                "tfstream run: warning: source.files.on-corruption: 'dlq' is"
                                        + " deprecated, use 'dead_letter'\ntfstream run: schema.path: "),
                r.err());
    }

    @Test
    void aTakenMetricsPortIsAUsageErrorBeforeAnythingStarts() throws Exception {
        try (ServerSocket taken = new ServerSocket(0)) {
            int port = taken.getLocalPort();
            CliRun r = runWithSchema(rejectedSchema(), "--metrics-port", Integer.toString(port));
            assertEquals(ExitCodes.USAGE, r.exitCode(), r.err());
            assertEquals(
                    "tfstream run: port "
                            + port
                            + " (--metrics-port, the Prometheus endpoint) is in use\n",
                    r.err());
        }
        CliRun help = CliRun.of("run", "--help");
        assertTrue(help.out().contains("--metrics-port=PORT"), help.out());
    }

    /** A schema whose feature-spec derivation rejects feature x. */
    private Path rejectedSchema() throws Exception {
        Path schema = dir.resolve("s.pbtxt");
        Files.writeString(schema, "feature: {name: \"x\" type: INT shape: {}}\n");
        return schema;
    }

    /** {@code tfstream run} against an unreachable broker with {@code schema} and {@code more}. */
    private static CliRun runWithSchema(Path schema, String... more) throws Exception {
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "run",
                                "--set",
                                "source.bootstrap-servers=localhost:1",
                                "--set",
                                "source.topics=in",
                                "--set",
                                "dlq.topic=dlq"));
        args.addAll(List.of(more));
        args.addAll(List.of("--set", "schema.path=" + schema));
        return CliRun.of(args.toArray(String[]::new));
    }
}
