package io.tfstream.e2e.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The command that starts the packaged CLI jar in a JVM of its own, as a user runs it. */
public final class CliJar {
    private CliJar() {}

    /**
     * {@code java <tfstream.jvm.flags> -Xmx1g -jar <tfstream.cli.jar>}, a mutable list for the
     * caller to append the subcommand and its arguments to.
     */
    public static List<String> command() {
        return command(System.getProperty("tfstream.cli.jar"));
    }

    /** As {@link #command()} for the CLI jar at {@code jar} (another Flink line's, say). */
    public static List<String> command(String jar) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(Arrays.asList(System.getProperty("tfstream.jvm.flags").trim().split("\\s+")));
        cmd.add("-Xmx1g");
        cmd.add("-jar");
        cmd.add(jar);
        return cmd;
    }

    /**
     * Runs {@code tfstream local} as {@code cmd} with its output in {@code stdout} and {@code
     * stderr}; asserts it ends within 3 minutes with exit code 0 and returns what it printed.
     */
    static String runLocal(List<String> cmd, Path stdout, Path stderr) throws Exception {
        Process p =
                new ProcessBuilder(cmd)
                        .redirectOutput(stdout.toFile())
                        .redirectError(stderr.toFile())
                        .start();
        assertTrue(p.waitFor(3, TimeUnit.MINUTES), "tfstream local ends");
        String printed = Files.readString(stdout, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), printed + Files.readString(stderr));
        return printed;
    }
}
