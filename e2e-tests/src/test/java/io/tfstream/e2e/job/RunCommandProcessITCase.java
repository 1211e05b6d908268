package io.tfstream.e2e.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.job.InputCorpus;
import io.tfstream.parse.ParseLimits;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testkit.KafkaTestBase;
import io.tfstream.testkit.Waits;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tfstream run} as its own process (the all-in CLI jar) against a real broker: SIGTERM (what
 * Ctrl-C sends through the shell) stops it with a savepoint and exit code 0; a second run resumes
 * from that savepoint; in the end every record is in the records or the dead-letter topic exactly
 * once. The first run serves its metrics for Prometheus ({@code --metrics-port}), the job's among
 * them.
 */
class RunCommandProcessITCase extends KafkaTestBase {
    @TempDir static Path dir;

    @BeforeAll
    static void createTopics() throws Exception {
        kafka.createTopic("in", 3);
        kafka.createTopic("dlq", 1);
        kafka.createTopic("clean", 3);
    }

    @Test
    void stopsWithASavepointOnSigtermAndResumesFromItExactlyOnce() throws Exception {
        Path yaml =
                RunYaml.seed001(
                        dir,
                        kafka.bootstrapServers(),
                        "e2e-run",
                        "source.starting-offsets: earliest");
        List<InputCorpus.Input> inputs =
                InputCorpus.examples(4_000, 5, Seed001Corpus.spec(), ParseLimits.defaults());
        List<InputCorpus.Input> first = inputs.subList(0, 3_000);
        List<InputCorpus.Input> second = inputs.subList(3_000, inputs.size());
        kafka.produce("in", first, InputCorpus.Input::key, InputCorpus.Input::value);

        int metricsPort;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            metricsPort = free.getLocalPort();
        }
        CliProcess run1 =
                CliProcess.run(
                        CliJar.command(), yaml, "--metrics-port", Integer.toString(metricsPort));
        assertTrue(run1.awaitLine("running at parallelism 2; web UI: http://").isPresent());
        String metrics = "http://127.0.0.1:" + metricsPort + "/metrics";
        assertTrue(run1.awaitLine("; metrics: " + metrics).isPresent(), run1.outputNow());
        waitFor(() -> kafka.readCommitted("clean").size() > 1_000, "some committed output");
        // The all-in jar finds Flink's Prometheus reporter (its service file merged by the shade).
        String[] last = {""};
        try {
            waitFor(
                    () -> recordsIn(last[0] = scrape(metrics)) >= 1_000,
                    "the job's recordsIn on the Prometheus endpoint of tfstream run");
        } catch (AssertionError e) {
            throw new AssertionError(
                    e.getMessage()
                            + "; its recordsIn lines: "
                            + last[0].lines()
                                    .filter(l -> l.contains("recordsIn"))
                                    .collect(java.util.stream.Collectors.joining("\n")),
                    e);
        }
        run1.terminate();
        assertTrue(run1.process.waitFor(2, TimeUnit.MINUTES), "run 1 ends after SIGTERM");
        assertEquals(0, run1.process.exitValue(), run1.output());
        String resume =
                run1.awaitLine("resume with --set ")
                        .orElseThrow(
                                () ->
                                        new AssertionError(
                                                "no resume line in:\n" + run1.outputNow()));
        String setting = resume.substring(resume.indexOf("--set ") + "--set ".length()).trim();
        assertTrue(setting.startsWith("flink.execution.state-recovery.path=file:"), setting);

        kafka.produce("in", second, InputCorpus.Input::key, InputCorpus.Input::value);
        CliProcess run2 = CliProcess.run(CliJar.command(), yaml, "--set", setting);
        assertTrue(run2.awaitLine("running at parallelism 2").isPresent());
        long good = inputs.stream().filter(i -> i.reason() == null).count();
        long bad = inputs.size() - good;
        waitFor(
                () ->
                        kafka.readCommitted("clean").size() >= good
                                && kafka.readCommitted("dlq").size() >= bad,
                "every record in an output");
        Thread.sleep(3_000); // a few more checkpoints: anything committed twice would show
        run2.terminate();
        assertTrue(run2.process.waitFor(2, TimeUnit.MINUTES), "run 2 ends after SIGTERM");
        assertEquals(0, run2.process.exitValue(), run2.output());

        Map<String, InputCorpus.Input> byKey = new HashMap<>();
        for (InputCorpus.Input i : inputs) {
            byKey.put(new String(i.key(), StandardCharsets.UTF_8), i);
        }
        Map<String, Integer> seen = new HashMap<>();
        for (String topic : List.of("clean", "dlq")) {
            for (ConsumerRecord<byte[], byte[]> r : kafka.readCommitted(topic)) {
                String key = new String(r.key(), StandardCharsets.UTF_8);
                InputCorpus.Input input = byKey.get(key);
                assertNotNull(input, key);
                assertEquals(topic.equals("clean"), input.reason() == null, key);
                assertTrue(Arrays.equals(input.value(), r.value()), key);
                seen.merge(key, 1, Integer::sum);
            }
        }
        assertEquals(inputs.size(), seen.size(), "records in = accepted + dead-lettered");
        assertTrue(seen.values().stream().allMatch(c -> c == 1), "each record once");
    }

    private static String scrape(String url) throws Exception {
        return java.net.http.HttpClient.newHttpClient()
                .send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create(url)).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString())
                .body();
    }

    /** The sum of the job's {@code tfstream.recordsIn} over its subtasks in a scrape. */
    private static double recordsIn(String scrape) {
        double total = 0;
        for (String line : scrape.split("\n")) {
            if (line.startsWith("flink_taskmanager_job_task_operator_tfstream_recordsIn{")
                    // The reporter keeps only [a-zA-Z0-9:_] of label values: e2e-run is e2e_run.
                    && line.contains("job_name=\"e2e_run\"")) {
                total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return total;
    }

    private static void waitFor(Waits.Condition c, String what) throws Exception {
        Waits.waitFor(c, Duration.ofMinutes(3), what);
    }
}
