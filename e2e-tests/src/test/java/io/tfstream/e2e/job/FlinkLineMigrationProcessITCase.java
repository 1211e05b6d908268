package io.tfstream.e2e.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tfstream.job.InputCorpus;
import io.tfstream.job.JobTestSupport;
import io.tfstream.job.shards.ShardRunChecks;
import io.tfstream.parse.ParseLimits;
import io.tfstream.proto.v1.TensorBatch;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testkit.KafkaTestBase;
import io.tfstream.testkit.TestFiles;
import io.tfstream.testkit.Waits;
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
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Moving a job from the Flink 1.20 line to the 2.2 line without state, as
 * docs/operations.md#savepoints-across-lines describes: once the 1.20 CLI jar's {@code tfstream
 * run} has caught up with its input (its group's committed offsets at the end), it is stopped with
 * a drained savepoint through Flink's REST API (what {@code flink stop --drain} sends), more input
 * arrives, and the 2.2 CLI jar starts the same job with the same consumer group and no savepoint.
 * No record is lost, and none is read twice: each is in the records or dead-letter topic, in the
 * payloads and (if good) in the finished shards exactly once, with nothing left in progress. (Had
 * the first job read past its last commit, those records would be read again, and only those: the
 * test checks that bound too.)
 *
 * <p>Runs in the 1.20 line's build ({@code -Dflink.line=1.20}), whose e2e tests are given the 2.2
 * line's CLI jar as {@code tfstream.next.cli.jar}: build the default line first, as {@code .ci/run}
 * does.
 */
@EnabledIfSystemProperty(named = "tfstream.next.cli.jar", matches = ".+")
class FlinkLineMigrationProcessITCase extends KafkaTestBase {
    private static final Pattern STARTED =
            Pattern.compile(
                    "\\(([0-9a-f]{32})\\) running at parallelism \\d+; web UI: (http://[^;\\s]+)");

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir static Path dir;

    @Test
    void aCaughtUpJobMovesToTheNextLineWithADrainedStopAndAFreshStartExactlyOnce()
            throws Exception {
        for (String topic : List.of("in", "dlq", "clean", "batches")) {
            kafka.createTopic(topic, topic.equals("in") ? 3 : 1);
        }
        String nextJar = System.getProperty("tfstream.next.cli.jar");
        assertTrue(Files.isRegularFile(Path.of(nextJar)), "the 2.2 line's CLI jar " + nextJar);
        Path shards = dir.resolve("shards");
        Path yaml =
                RunYaml.seed001(
                        dir,
                        kafka.bootstrapServers(),
                        "migrate",
                        "source.group-id: migrate",
                        "output.batches.topic: batches",
                        "shards.path: " + shards.toUri());
        List<InputCorpus.Input> inputs =
                InputCorpus.examples(4_000, 23, Seed001Corpus.spec(), ParseLimits.defaults());
        long good = inputs.stream().filter(i -> i.reason() == null).count();
        produce(inputs, 0, 3_000);

        CliProcess old = CliProcess.run(CliJar.command(), yaml);
        waitFor(() -> kafka.readCommitted("clean").size() > 1_000, "some committed output");
        // Caught up, as a migration with the producers paused: the group's offsets are then the
        // end of the input, and the second job reads nothing again.
        JobTestSupport.waitForConsumed(
                kafka.bootstrapServers(), "migrate", "in", Duration.ofMinutes(3));
        stopDrained(old);
        Map<Integer, Long> committed = new HashMap<>();
        try (Admin admin = kafka.admin()) {
            admin.listConsumerGroupOffsets("migrate")
                    .partitionsToOffsetAndMetadata()
                    .get()
                    .forEach((tp, o) -> committed.put(tp.partition(), o.offset()));
        }

        produce(inputs, 3_000, inputs.size());
        CliProcess next = CliProcess.run(CliJar.command(nextJar), yaml);
        waitFor(
                () ->
                        kafka.readCommitted("clean").size() >= good
                                && kafka.readCommitted("dlq").size() >= inputs.size() - good,
                "every record in an output");
        stopDrained(next);

        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < inputs.size(); i++) {
            index.put(new String(inputs.get(i).key(), StandardCharsets.UTF_8), i);
        }
        Map<String, Integer> seen = new HashMap<>();
        for (String topic : List.of("clean", "dlq")) {
            for (ConsumerRecord<byte[], byte[]> r : kafka.readCommitted(topic)) {
                String key = new String(r.key(), StandardCharsets.UTF_8);
                Integer i = index.get(key);
                assertNotNull(i, key);
                assertEquals(topic.equals("clean"), inputs.get(i).reason() == null, key);
                seen.merge(key, 1, Integer::sum);
            }
        }
        assertEquals(
                inputs.size(), seen.size(), "records in = accepted + dead-lettered: none lost");
        // The second job starts at the offsets the first committed, which Flink's Kafka source
        // commits after each checkpoint, best effort: what the first job read after them is read
        // again, and nothing before them.
        int twice = 0;
        for (Map.Entry<String, Integer> e : seen.entrySet()) {
            int i = index.get(e.getKey());
            assertTrue(e.getValue() <= 2, e.getKey() + " " + e.getValue() + " times");
            if (e.getValue() == 2) {
                twice++;
                assertTrue(
                        offset(i) >= committed.getOrDefault(partition(i), 0L),
                        "record at offset "
                                + offset(i)
                                + " of partition "
                                + partition(i)
                                + " read twice, though the first job committed "
                                + committed);
            }
        }
        long readAgain = 0;
        for (int i = 0; i < 3_000; i++) {
            readAgain += offset(i) >= committed.getOrDefault(partition(i), 0L) ? 1 : 0;
        }
        assertTrue(twice <= readAgain, twice + " twice, " + readAgain + " past " + committed);
        System.out.println(
                "[migration] first job committed "
                        + committed
                        + ": "
                        + twice
                        + " of "
                        + inputs.size()
                        + " records read by both jobs");

        Map<String, Integer> expectedShards = new HashMap<>();
        long rowsExpected = 0;
        for (InputCorpus.Input in : inputs) {
            if (in.reason() == null) {
                int times = seen.get(new String(in.key(), StandardCharsets.UTF_8));
                expectedShards.merge(HexFormat.of().formatHex(in.value()), times, Integer::sum);
                rowsExpected += times;
            }
        }
        long rows = 0;
        for (ConsumerRecord<byte[], byte[]> r : kafka.readCommitted("batches")) {
            rows += TensorBatch.parseFrom(r.value()).getRows();
        }
        assertEquals(rowsExpected, rows, "each record read a row of one payload");
        Map<String, Integer> inShards = new HashMap<>();
        for (Path shard : JobTestSupport.finishedShards(shards)) {
            ShardRunChecks.readAndCheck(shard, inShards);
        }
        assertEquals(expectedShards, inShards, "each good record read in one shard");
        assertEquals(
                List.of(),
                TestFiles.regularFiles(shards).stream()
                        .filter(p -> p.getFileName().toString().contains(".inprogress"))
                        .toList(),
                "both jobs finished every shard they opened");
    }

    /** Input {@code i} goes to partition i % 3 in order, so its offset there is i / 3. */
    private static void produce(List<InputCorpus.Input> inputs, int from, int to) {
        try (KafkaProducer<byte[], byte[]> producer = kafka.idempotentProducer()) {
            for (int i = from; i < to; i++) {
                InputCorpus.Input in = inputs.get(i);
                producer.send(new ProducerRecord<>("in", partition(i), in.key(), in.value()));
            }
            producer.flush();
        }
    }

    private static int partition(int i) {
        return i % 3;
    }

    private static long offset(int i) {
        return i / 3;
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
                HTTP.send(
                        HttpRequest.newBuilder(URI.create(ui + "/jobs/" + m.group(1) + "/stop"))
                                .header("Content-Type", "application/json")
                                .POST(
                                        HttpRequest.BodyPublishers.ofString(
                                                "{\"drain\":true,\"targetDirectory\":\""
                                                        + dir.resolve("savepoints").toUri()
                                                        + "\"}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(202, response.statusCode(), response.body());
        String trigger = JSON.readTree(response.body()).get("request-id").asText();
        String status = ui + "/jobs/" + m.group(1) + "/savepoints/" + trigger;
        JsonNode[] last = {null};
        try {
            waitFor(
                    () -> {
                        last[0] =
                                JSON.readTree(
                                        HTTP.send(
                                                        HttpRequest.newBuilder(URI.create(status))
                                                                .build(),
                                                        HttpResponse.BodyHandlers.ofString())
                                                .body());
                        return last[0].path("status").path("id").asText().equals("COMPLETED");
                    },
                    "the drained savepoint");
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + ": " + last[0] + "\n" + run.outputNow(), e);
        }
        assertTrue(
                last[0].path("operation").has("location"),
                "the drained savepoint completed: " + last[0]);
        assertTrue(
                run.process.waitFor(3, TimeUnit.MINUTES),
                "the command ends after the stop: " + run.outputNow());
        assertEquals(0, run.process.exitValue(), run.output());
        assertTrue(
                run.awaitLine("ended: SUCCEEDED").isPresent(),
                "a drained job finishes: " + run.outputNow());
    }

    private static void waitFor(Waits.Condition c, String what) throws Exception {
        Waits.waitFor(c, Duration.ofMinutes(3), what);
    }
}
