package io.tfstream.e2e.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** The CLI jar as a child JVM; stdout lines are collected as they come. */
final class CliProcess {
    final Process process;
    final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    final List<String> all = new ArrayList<>();

    private CliProcess(Process process) {
        this.process = process;
        Thread t =
                new Thread(
                        () -> {
                            try (BufferedReader r =
                                    new BufferedReader(
                                            new InputStreamReader(
                                                    process.getInputStream(),
                                                    StandardCharsets.UTF_8))) {
                                for (String l; (l = r.readLine()) != null; ) {
                                    lines.add(l);
                                }
                            } catch (java.io.IOException e) {
                                lines.add("<stdout failed: " + e + ">");
                            }
                        });
        t.setDaemon(true);
        t.start();
    }

    /** {@code tfstream run --config yaml extra...} with the CLI jar {@code command} starts. */
    static CliProcess run(List<String> command, Path yaml, String... extra) throws Exception {
        List<String> cmd = new ArrayList<>(command);
        cmd.add("run");
        cmd.add("--config");
        cmd.add(yaml.toString());
        cmd.addAll(Arrays.asList(extra));
        ProcessBuilder b = new ProcessBuilder(cmd);
        // Kept in target/ for a look after a failure.
        Path err = Path.of("target", "run-command-" + System.nanoTime() + ".err");
        b.redirectError(err.toFile());
        return new CliProcess(b.start());
    }

    /** The first line (seen so far or within 2 minutes) containing {@code text}. */
    java.util.Optional<String> awaitLine(String text) throws InterruptedException {
        for (String l : all) {
            if (l.contains(text)) {
                return java.util.Optional.of(l);
            }
        }
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < deadline) {
            String l = lines.poll(200, TimeUnit.MILLISECONDS);
            if (l != null) {
                all.add(l);
                if (l.contains(text)) {
                    return java.util.Optional.of(l);
                }
            }
        }
        return java.util.Optional.empty();
    }

    /** SIGTERM, as the shell sends for Ctrl-C's sibling; unlike destroy() keeps stdout open. */
    void terminate() throws Exception {
        Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(process.pid())).start();
        assertEquals(0, kill.waitFor(), "kill -TERM " + process.pid());
    }

    String outputNow() {
        lines.drainTo(all);
        return String.join("\n", all);
    }

    String output() throws InterruptedException {
        lines.drainTo(all);
        return String.join("\n", all);
    }
}
