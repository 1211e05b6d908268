package io.tfstream.e2e.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.job.InputCorpus;
import io.tfstream.job.JobTestSupport;
import io.tfstream.job.KafkaTestCluster;
import io.tfstream.job.ShardRunChecks;
import io.tfstream.parse.ParseLimits;
import io.tfstream.proto.v1.TensorBatch;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.testing.Seed001Corpus;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Moving a running job from the Flink 1.20 line to the 2.2 line without state, as
 * docs/operations.md#savepoints-across-lines describes: the 1.20 CLI jar's {@code tfstream run} is
 * stopped with a drained savepoint through Flink's REST API (what {@code flink stop --drain}
 * sends), then the 2.2 CLI jar starts the same job with the same consumer group and no savepoint,
 * reading from the offsets the first job committed. Every record is then in the records or
 * dead-letter topic exactly once, each good record is a row of exactly one payload, and each good
 * record is in exactly one finished shard of one of the two jobs, with nothing left in progress.
 *
 * <p>Runs in the 1.20 line's build ({@code -Dflink.line=1.20}), whose e2e tests are given the 2.2
 * line's CLI jar as {@code tfstream.next.cli.jar}: build the default line first, as {@code .ci/run}
 * does.
 */
@EnabledIfSystemProperty(named = "tfstream.next.cli.jar", matches = ".+")
class FlinkLineMigrationProcessITCase {
    private static final Pattern STARTED =
            Pattern.compile("\\(([0-9a-f]{32})\\) running at parallelism \\d+; web UI: (\\S+)");

    private static KafkaTestCluster kafka;

    @TempDir static Path dir;

    @BeforeAll
    static void start() throws Exception {
        kafka = KafkaTestCluster.start(Duration.ofMinutes(15).toMillis());
        kafka.createTopic("in", 3);
        kafka.createTopic("dlq", 1);
        kafka.createTopic("clean", 3);
        kafka.createTopic("batches", 1);
    }

    @AfterAll
    static void stop() {
        kafka.close();
    }

    @Test
    void aDrainedStopOnOneLineAndAFreshStartOnTheNextLoseAndRepeatNothing() throws Exception {
        String nextJar = System.getProperty("tfstream.next.cli.jar");
        assertTrue(Files.isRegularFile(Path.of(nextJar)), "the 2.2 line's CLI jar " + nextJar);
        Path spec = dir.resolve("spec.json");
        Files.writeString(spec, SpecJsonWriter.write(Seed001Corpus.spec()));
        Path shards = dir.resolve("shards");
        Path yaml = dir.resolve("job.yaml");
        Files.writeString(
                yaml,
                String.join(
                        "\n",
                        "job.name: migrate",
                        "parallelism: 2",
                        "checkpoint.interval: 1 s",
                        "rest.port: 0",
                        "source:",
                        "  bootstrap-servers: " + kafka.bootstrapServers(),
                        "  topics: [in]",
                        "  group-id: migrate",
                        "spec.path: " + spec,
                        "dlq.topic: dlq",
                        "output.records.topic: clean",
                        "output.batches.topic: batches",
                        "output.transaction-timeout: 1 min",
                        "shards.path: " + shards.toUri(),
                        ""));
        List<InputCorpus.Input> inputs =
                InputCorpus.examples(4_000, 23, Seed001Corpus.spec(), ParseLimits.defaults());
        long good = inputs.stream().filter(i -> i.reason() == null).count();
        kafka.produce("in", inputs.subList(0, 3_000));

        CliProcess old = CliProcess.run(CliJar.command(), yaml);
        waitFor(() -> kafka.readCommitted("clean").size() > 1_000, "some committed output");
        stopDrained(old);

        kafka.produce("in", inputs.subList(3_000, inputs.size()));
        CliProcess next = CliProcess.run(CliJar.command(nextJar), yaml);
        waitFor(
                () ->
                        kafka.readCommitted("clean").size() >= good
                                && kafka.readCommitted("dlq").size() >= inputs.size() - good,
                "every record in an output");
        stopDrained(next);

        Map<String, InputCorpus.Input> byKey = new HashMap<>();
        Map<String, Integer> expectedShards = new HashMap<>();
        for (InputCorpus.Input i : inputs) {
            byKey.put(new String(i.key(), StandardCharsets.UTF_8), i);
            if (i.reason() == null) {
                expectedShards.merge(HexFormat.of().formatHex(i.value()), 1, Integer::sum);
            }
        }
        Map<String, Integer> seen = new HashMap<>();
        for (String topic : List.of("clean", "dlq")) {
            for (ConsumerRecord<byte[], byte[]> r : kafka.readCommitted(topic)) {
                String key = new String(r.key(), StandardCharsets.UTF_8);
                InputCorpus.Input input = byKey.get(key);
                assertNotNull(input, key);
                assertEquals(topic.equals("clean"), input.reason() == null, key);
                seen.merge(key, 1, Integer::sum);
            }
        }
        assertEquals(inputs.size(), seen.size(), "records in = accepted + dead-lettered");
        assertTrue(seen.values().stream().allMatch(c -> c == 1), "each record once");
        long rows = 0;
        for (ConsumerRecord<byte[], byte[]> r : kafka.readCommitted("batches")) {
            rows += TensorBatch.parseFrom(r.value()).getRows();
        }
        assertEquals(good, rows, "each good record a row of one payload");
        Map<String, Integer> inShards = new HashMap<>();
        List<Path> finished = JobTestSupport.finishedShards(shards);
        for (Path shard : finished) {
            ShardRunChecks.readAndCheck(shard, inShards);
        }
        assertEquals(expectedShards, inShards, "every good record in exactly one shard");
        assertEquals(
                List.of(),
                JobTestSupport.regularFiles(shards).stream()
                        .filter(p -> p.getFileName().toString().contains(".inprogress"))
                        .toList(),
                "both jobs finished every shard they opened");
    }

    /**
     * Stops the job of {@code run} as {@code flink stop --drain} does (Flink's REST API: {@code
     * POST /jobs/:id/stop} with {@code drain}), then waits for the command to end with exit code 0.
     */
    private static void stopDrained(CliProcess run) throws Exception {
        String line =
                run.awaitLine("running at parallelism")
                        .orElseThrow(() -> new AssertionError("not started:\n" + run.outputNow()));
        Matcher m = STARTED.matcher(line);
        assertTrue(m.find(), line);
        String ui = m.group(2).replaceAll("/+$", "");
        HttpResponse<String> response =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(
                                                URI.create(ui + "/jobs/" + m.group(1) + "/stop"))
                                        .header("Content-Type", "application/json")
                                        .POST(
                                                HttpRequest.BodyPublishers.ofString(
                                                        "{\"drain\":true,\"targetDirectory\":\""
                                                                + dir.resolve("savepoints").toUri()
                                                                + "\"}"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
        assertEquals(202, response.statusCode(), response.body());
        assertTrue(run.process.waitFor(3, TimeUnit.MINUTES), "the command ends after the stop");
        assertEquals(0, run.process.exitValue(), run.output());
        assertTrue(
                run.awaitLine("ended: SUCCEEDED").isPresent(),
                "a drained job finishes: " + run.outputNow());
    }

    private static void waitFor(JobTestSupport.Condition c, String what) throws Exception {
        JobTestSupport.waitFor(c, Duration.ofMinutes(3), what);
    }
}
