package io.tfstream.job.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * deploy/monitoring's Prometheus rules under Prometheus's own evaluator: {@code promtool check
 * rules} and the unit tests of {@code tfstream-rules-test.yaml} (each alert fires on the series it
 * is about, after its {@code for}, with its labels and texts, and a healthy job raises none). Runs
 * where {@code promtool} is installed (Debian: {@code apt-get install prometheus}).
 */
class AlertRulesTest {
    private static Path promtool() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(dir, "promtool");
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    private static String run(Path promtool, String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of(promtool.toString()));
        cmd.addAll(List.of(args));
        Process p =
                new ProcessBuilder(cmd)
                        .directory(MonitoringFiles.DIR.toFile())
                        .redirectErrorStream(true)
                        .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "promtool " + args[0]);
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    @Test
    void theRulesPassPromtoolAndTheirUnitTests() throws Exception {
        Path promtool = promtool();
        Assumptions.assumeTrue(promtool != null, "promtool is not installed");
        assertTrue(
                run(promtool, "check", "rules", "tfstream-rules.yaml").contains("SUCCESS"),
                "check rules");
        assertTrue(
                run(promtool, "test", "rules", "tfstream-rules-test.yaml").contains("SUCCESS"),
                "test rules");
    }
}
