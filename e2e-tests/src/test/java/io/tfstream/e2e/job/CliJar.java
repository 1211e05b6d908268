package io.tfstream.e2e.job;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The command that starts the packaged CLI jar in a JVM of its own, as a user runs it. */
final class CliJar {
    private CliJar() {}

    /**
     * {@code java <tfstream.jvm.flags> -Xmx1g -jar <tfstream.cli.jar>}, a mutable list for the
     * caller to append the subcommand and its arguments to.
     */
    static List<String> command() {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(Arrays.asList(System.getProperty("tfstream.jvm.flags").trim().split("\\s+")));
        cmd.add("-Xmx1g");
        cmd.add("-jar");
        cmd.add(System.getProperty("tfstream.cli.jar"));
        return cmd;
    }
}
