package io.tfstream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.job.InputCorpus;
import io.tfstream.job.JobTestSupport;
import io.tfstream.job.Listeners;
import io.tfstream.operators.deadletter.DeadLetterHeaders;
import io.tfstream.parse.ParseLimits;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testkit.KafkaTestCluster;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import io.tfstream.tfrecord.TfRecordWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tfstream run} with {@code source.type: files}: a bounded run over a small directory on the
 * embedded cluster ends by itself with exit code 0, the bad records in the dead-letter topic of a
 * broker in this JVM and the good ones in the TFRecord shards.
 */
class RunCommandITCase {
    @TempDir Path dir;

    private static void write(Path file, List<InputCorpus.Input> inputs, Compression c)
            throws Exception {
        try (TfRecordWriter w = TfRecordFiles.newWriter(file, c)) {
            for (InputCorpus.Input i : inputs) {
                w.write(i.value());
            }
        }
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    @Test
    void aBoundedFileSourceRunsToTheEndAndExitsWith0() throws Exception {
        List<InputCorpus.Input> all =
                InputCorpus.examples(600, 31, Seed001Corpus.spec(), ParseLimits.defaults());
        Path input = Files.createDirectories(dir.resolve("in"));
        write(input.resolve("a.tfrecord"), all.subList(0, 300), Compression.NONE);
        write(input.resolve("b.tfrecord.gz"), all.subList(300, 600), Compression.GZIP);
        Path spec = dir.resolve("spec.json");
        Files.writeString(spec, SpecJsonWriter.write(Seed001Corpus.spec()));
        Path shards = dir.resolve("shards");
        try (KafkaTestCluster kafka = KafkaTestCluster.start(Duration.ofMinutes(15).toMillis())) {
            kafka.createTopic("files-dlq", 1);
            Path yaml = dir.resolve("job.yaml");
            Files.writeString(
                    yaml,
                    String.join(
                            "\n",
                            "job.name: run-files",
                            "parallelism: 2",
                            "rest.port: 0",
                            "checkpoint.interval: 500 ms",
                            "source:",
                            "  type: files",
                            "  files:",
                            "    paths: ['" + input.toUri() + "']",
                            "    mode: bounded",
                            "output.bootstrap-servers: " + kafka.bootstrapServers(),
                            "spec.path: '" + spec + "'",
                            "dlq.topic: files-dlq",
                            "shards.path: '" + shards.toUri() + "'",
                            "flink.restart-strategy.type: none",
                            ""));

            Listeners.During<CliRun> d =
                    Listeners.during(() -> CliRun.of("run", "--config", yaml.toString()));
            CliRun run = d.result();

            assertEquals(0, run.exitCode(), run.err());
            assertTrue(!d.seen().isEmpty(), "the embedded cluster's REST API was seen");
            assertEquals(
                    java.util.Set.of(),
                    Listeners.notLoopback(d.seen()),
                    "every listener of tfstream run on loopback: " + d.seen());
            assertTrue(run.out().contains("tfstream run: job 'run-files' ("), run.out());
            assertTrue(run.out().contains(" ended: SUCCEEDED"), run.out());
            Map<String, Integer> expected = new HashMap<>();
            Map<String, Integer> expectedBad = new HashMap<>();
            for (InputCorpus.Input i : all) {
                if (i.reason() == null) {
                    expected.merge(hex(i.value()), 1, Integer::sum);
                } else {
                    expectedBad.merge(i.reason().code() + " " + hex(i.value()), 1, Integer::sum);
                }
            }
            Map<String, Integer> dead = new HashMap<>();
            for (ConsumerRecord<byte[], byte[]> r : kafka.readCommitted("files-dlq")) {
                String reason =
                        new String(
                                r.headers().lastHeader(DeadLetterHeaders.REASON).value(),
                                StandardCharsets.UTF_8);
                dead.merge(reason + " " + hex(r.value()), 1, Integer::sum);
            }
            assertEquals(expectedBad, dead, "every bad record once in the dead-letter topic");
            Map<String, Integer> inShards = new HashMap<>();
            for (Path shard : JobTestSupport.finishedShards(shards)) {
                try (TfRecordReader r =
                        TfRecordFiles.openReader(shard, TfRecordReadOptions.defaults())) {
                    while (r.next()) {
                        inShards.merge(hex(r.copy()), 1, Integer::sum);
                    }
                }
            }
            assertEquals(expected, inShards, "every good record once in the shards");
        }
    }
}
