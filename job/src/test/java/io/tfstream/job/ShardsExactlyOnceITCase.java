package io.tfstream.job;

import static io.tfstream.job.JobTestSupport.completedCheckpoints;
import static io.tfstream.job.JobTestSupport.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.local.S3ProxyProcess;
import io.tfstream.parse.ParseLimits;
import io.tfstream.shards.ShardManifest;
import io.tfstream.shards.ShardManifestCheck;
import io.tfstream.shards.ShardSuccessMarker;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * TFRecord shards on {@code file://}, exactly once: an unbounded source of Examples whose event
 * times span three hours (1% broken), the TaskManager killed once part files have lived through
 * checkpoints, then a drain; every good record is in exactly one finished shard of its event-time
 * bucket, there are fewer shards than checkpoints, and nothing but finished shards is left.
 */
class ShardsExactlyOnceITCase {
    // S3Proxy's filesystem backend writes an object to a temporary file beside it first.
    private static final java.util.regex.Pattern SHARD_FILE =
            java.util.regex.Pattern.compile(".*\\.tfrecord(\\.gz|\\.zz)?");

    private static final int PARALLELISM = 2;
    private static final DateTimeFormatter BUCKET =
            DateTimeFormatter.ofPattern("'dt='yyyy-MM-dd/'hour='HH").withZone(ZoneOffset.UTC);

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(PARALLELISM)
                            .build());

    private static KafkaTestCluster kafka;
    private static int liveTaskManager;

    @TempDir static Path dir;

    @BeforeAll
    static void startKafka() throws Exception {
        kafka = KafkaTestCluster.start(Duration.ofMinutes(15).toMillis());
    }

    @AfterAll
    static void stopKafka() {
        kafka.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "gzip", "zlib"})
    void everyGoodRecordInExactlyOneFinishedShardOfItsBucket(
            String compression, @InjectMiniCluster MiniCluster cluster) throws Exception {
        String name = "shards-" + compression;
        Path base = dir.resolve(name);
        run(cluster, name, compression, base.toUri().toString(), base, Map.of());
    }

    /** The same on S3 (S3Proxy as a process): the listing holds nothing but finished shards. */
    @Test
    void onS3ThroughS3Proxy(@InjectMiniCluster MiniCluster cluster) throws Exception {
        try (S3ProxyProcess s3 = S3ProxyProcess.start(dir)) {
            s3.createBucket("tfstream");
            Path credentials = S3ProxyProcess.writeCredentials(dir.resolve("s3.properties"));
            Map<String, Object> extra = new HashMap<>();
            extra.put("s3.endpoint", s3.endpoint());
            extra.put("s3.path-style-access", "true");
            extra.put("s3.credentials-file", credentials.toString());
            run(
                    cluster,
                    "shards-s3",
                    "gzip",
                    "s3://tfstream/shards",
                    s3.bucketDir("tfstream").resolve("shards"),
                    extra);
        }
    }

    private void run(
            MiniCluster cluster,
            String name,
            String compression,
            String shardsPath,
            Path base,
            Map<String, Object> extra)
            throws Exception {
        kafka.createTopic(name + "-in", 3);
        kafka.createTopic(name + "-dlq", 1);
        Path spec = dir.resolve(name + ".json");
        Files.writeString(spec, SpecJsonWriter.write(Seed001Corpus.spec()));
        int n = 20_000;
        List<InputCorpus.Input> inputs =
                InputCorpus.examples(
                        n, 3, Seed001Corpus.spec(), ParseLimits.defaults().withMaxRecordBytes(256));
        long start =
                Instant.now()
                        .truncatedTo(ChronoUnit.HOURS)
                        .minus(3, ChronoUnit.HOURS)
                        .toEpochMilli();
        long step = Duration.ofHours(3).toMillis() / n;

        Map<String, Object> settings =
                JobTestSupport.failureTestSettings(
                        name, kafka.bootstrapServers(), name + "-in", spec, name + "-dlq");
        settings.put("parse.max-record-bytes", "256 b");
        settings.put("shards.path", shardsPath);
        settings.put("shards.compression", compression);
        settings.put("shards.max-age", "3 s");
        settings.putAll(extra);
        JobLauncher.Prepared job = JobLauncher.prepare(JobConfig.of(settings));
        org.apache.flink.configuration.Configuration flink =
                JobLauncher.flinkConfiguration(job.config());
        JobLauncher.initializeFileSystems(flink);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
        TfstreamPipeline.build(env, job.config(), job.schema());
        JobClient client = env.executeAsync(name);
        JobID id = client.getJobID();

        long checkpoints;
        try {
            CompletableFuture<Void> producing =
                    CompletableFuture.runAsync(() -> produce(name + "-in", inputs, start, step));
            // Part files written before the third checkpoint have lived through two by then.
            waitFor(() -> hiddenParts(base) > 0, Duration.ofMinutes(3), "a part file");
            long seenAt = completedCheckpoints(cluster, id);
            waitFor(
                    () -> completedCheckpoints(cluster, id) >= seenAt + 2,
                    Duration.ofMinutes(3),
                    "two more checkpoints");
            cluster.terminateTaskManager(liveTaskManager++).get(60, TimeUnit.SECONDS);
            cluster.startTaskManager();
            producing.get(2, TimeUnit.MINUTES);
            long good = inputs.stream().filter(i -> i.reason() == null).count();
            // shards.max-age bounds how long a record waits in a hidden part: all arrive.
            waitFor(
                    () -> recordsIn(finishedShards(base)) >= good,
                    Duration.ofMinutes(3),
                    "every good record in a shard");
            checkpoints = completedCheckpoints(cluster, id);
            // The watermark has long passed the first hour: its bucket is complete.
            waitFor(
                    () ->
                            Files.exists(
                                    base.resolve(BUCKET.format(Instant.ofEpochMilli(start)))
                                            .resolve(ShardSuccessMarker.FILE_NAME)),
                    Duration.ofMinutes(2),
                    "the _SUCCESS marker of the first hour while the job runs");
            // Drain: the source ends, anything left is compacted and committed.
            stopWithDrain(client, dir.resolve(name + "-sp"));
        } finally {
            if (!client.getJobStatus().get().isGloballyTerminalState()) {
                client.cancel().get(1, TimeUnit.MINUTES);
                // Until its tasks are gone they hold the shared cluster's slots (and, on S3, must
                // not outlive S3Proxy: a stuck S3 client keeps them cancelling for minutes).
                waitFor(
                        () -> client.getJobStatus().get().isGloballyTerminalState(),
                        Duration.ofMinutes(2),
                        "the failed test's job to be cancelled");
            }
        }

        // Records may repeat byte for byte: compare (record, bucket) multisets.
        Map<String, Integer> expected = new HashMap<>();
        long good = 0;
        for (int i = 0; i < inputs.size(); i++) {
            if (inputs.get(i).reason() == null) {
                good++;
                String bucket = BUCKET.format(Instant.ofEpochMilli(start + i * step));
                expected.merge(key(inputs.get(i).value(), bucket), 1, Integer::sum);
            }
        }
        List<Path> shards = finishedShards(base);
        Map<String, Integer> seen = new HashMap<>();
        String suffix =
                compression.equals("none")
                        ? ".tfrecord"
                        : compression.equals("gzip") ? ".tfrecord.gz" : ".tfrecord.zz";
        for (Path shard : shards) {
            String file = shard.getFileName().toString();
            assertTrue(
                    file.matches("part-[0-9a-f-]{36}-\\d+" + java.util.regex.Pattern.quote(suffix)),
                    file);
            String bucket = base.relativize(shard.getParent()).toString();
            long records = 0;
            try (TfRecordReader r =
                    TfRecordFiles.openReader(shard, TfRecordReadOptions.defaults())) {
                while (r.next()) {
                    seen.merge(key(r.copy(), bucket), 1, Integer::sum);
                    records++;
                }
            }
            checkManifest(shard, bucket, records, name + "-in", job.schema().fingerprint());
        }
        assertEquals(
                good,
                seen.values().stream().mapToLong(Integer::longValue).sum(),
                "records in shards");
        assertEquals(expected, seen, "each good record once, in the bucket of its event time");
        checkMarkers(base, shards);
        assertTrue(
                shards.size() < checkpoints,
                shards.size() + " shards, " + checkpoints + " checkpoints");
        List<String> others = new ArrayList<>();
        List<String> crashLeftovers = new ArrayList<>();
        JobTestSupport.regularFiles(base).stream()
                .filter(p -> !shards.contains(p))
                .filter(p -> !shards.contains(manifestShard(p)))
                .filter(p -> !p.getFileName().toString().equals(ShardSuccessMarker.FILE_NAME))
                .forEach(
                        p -> {
                            String f = p.getFileName().toString();
                            (f.matches("\\..*\\.inprogress\\.[0-9a-f-]{36}")
                                            ? crashLeftovers
                                            : others)
                                    .add(base.relativize(p).toString());
                        });
        // Every committed part was compacted and deleted; what may remain is the hidden in-progress
        // file of a task that was killed (docs/streaming-job.md#what-can-be-left-behind: local file
        // systems keep it, S3 does not).
        assertEquals(List.of(), others, "nothing but finished shards under the base path");
        if (shardsPath.startsWith("s3://")) {
            // on S3 an unfinished file is an incomplete multipart upload: never listed
            assertEquals(List.of(), crashLeftovers, "nothing of the killed attempt on S3");
        } else {
            assertTrue(
                    crashLeftovers.size()
                            <= 3 * PARALLELISM + 3, // 3 buckets: parts and compactions in flight
                    "in-progress files of the killed attempt only: " + crashLeftovers);
        }
        assertEquals(inputs.size() - good, kafka.readCommitted(name + "-dlq").size());
    }

    /** Stop-with-savepoint with drain; retried while the job is between restarts. */
    private static void stopWithDrain(JobClient client, Path savepoints) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                client.stopWithSavepoint(
                                true, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                        .get(3, TimeUnit.MINUTES);
                return;
            } catch (java.util.concurrent.ExecutionException e) {
                if (attempt == 20) {
                    throw e;
                }
                Thread.sleep(500);
            }
        }
    }

    /**
     * The manifest beside {@code shard} agrees with its bytes (size, CRC32C, records), its bucket,
     * the schema, and the records' event times and sources.
     */
    private static void checkManifest(
            Path shard, String bucket, long records, String topic, String fingerprint)
            throws Exception {
        Path file = shard.resolveSibling(ShardManifest.fileNameOf(shard.getFileName().toString()));
        ShardManifest m = ShardManifest.fromJson(Files.readString(file));
        try (java.io.InputStream in = Files.newInputStream(shard)) {
            assertEquals(
                    List.of(), ShardManifestCheck.check(in, shard.toString(), m), file.toString());
        }
        assertEquals(shard.getFileName().toString(), m.shard());
        assertEquals(bucket, m.bucket());
        assertEquals(records, m.records());
        assertEquals(fingerprint, m.schemaFingerprint());
        assertEquals(bucket, BUCKET.format(Instant.ofEpochMilli(m.minEventTimeMs())), "min time");
        assertEquals(bucket, BUCKET.format(Instant.ofEpochMilli(m.maxEventTimeMs())), "max time");
        assertTrue(m.parts() >= 1);
        long fromSources = 0;
        for (ShardManifest.Source source : m.sources()) {
            assertEquals(topic, source.topic());
            assertTrue(source.first() <= source.last());
            fromSources += source.records();
        }
        assertEquals(records, fromSources, "records by source in " + file);
    }

    /** Every bucket has its _SUCCESS, listing exactly its shards with their record counts. */
    private static void checkMarkers(Path base, List<Path> shards) throws Exception {
        Map<Path, List<Path>> byBucket = new HashMap<>();
        for (Path shard : shards) {
            byBucket.computeIfAbsent(shard.getParent(), k -> new ArrayList<>()).add(shard);
        }
        for (Map.Entry<Path, List<Path>> e : byBucket.entrySet()) {
            Path file = e.getKey().resolve(ShardSuccessMarker.FILE_NAME);
            assertTrue(Files.exists(file), "no marker in " + e.getKey());
            ShardSuccessMarker marker = ShardSuccessMarker.fromJson(Files.readString(file));
            assertEquals(base.relativize(e.getKey()).toString(), marker.bucket());
            List<String> names = new ArrayList<>();
            long records = 0;
            for (Path shard : e.getValue()) {
                names.add(shard.getFileName().toString());
                try (TfRecordReader r =
                        TfRecordFiles.openReader(shard, TfRecordReadOptions.defaults())) {
                    while (r.next()) {
                        records++;
                    }
                }
            }
            names.sort(null);
            assertEquals(
                    names,
                    marker.shards().stream().map(ShardSuccessMarker.Shard::shard).toList(),
                    file.toString());
            assertEquals(records, marker.records(), file.toString());
            assertEquals(
                    Instant.parse(
                                    marker.bucket().replace("dt=", "").replace("/hour=", "T")
                                            + ":00:00Z")
                            .plus(Duration.ofHours(1))
                            .toEpochMilli(),
                    marker.endMs(),
                    "end of " + marker.bucket());
        }
    }

    /** The shard a manifest is of, or {@code p} itself. */
    private static Path manifestShard(Path p) {
        String f = p.getFileName().toString();
        return ShardManifest.isManifest(f)
                ? p.resolveSibling(f.substring(0, f.length() - ShardManifest.SUFFIX.length()))
                : p;
    }

    private static String key(byte[] record, String bucket) {
        return bucket + " " + java.util.HexFormat.of().formatHex(record);
    }

    private static List<Path> finishedShards(Path base) throws Exception {
        return JobTestSupport.regularFiles(base).stream()
                .filter(
                        p ->
                                !p.getFileName().toString().startsWith(".")
                                        && !p.getFileName().toString().startsWith("_")
                                        && SHARD_FILE.matcher(p.getFileName().toString()).matches())
                .toList();
    }

    private static long hiddenParts(Path base) throws Exception {
        return JobTestSupport.regularFiles(base).stream()
                .filter(p -> p.getFileName().toString().startsWith(".part-"))
                .count();
    }

    /** Records in the shards, or -1 when one vanished while read (a compacted input). */
    private static long recordsIn(List<Path> shards) throws Exception {
        long n = 0;
        for (Path p : shards) {
            try (TfRecordReader r = TfRecordFiles.openReader(p, TfRecordReadOptions.defaults())) {
                while (r.next()) {
                    n++;
                }
            } catch (java.nio.file.NoSuchFileException e) {
                return -1;
            }
        }
        return n;
    }

    private static void produce(
            String topic, List<InputCorpus.Input> inputs, long start, long step) {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.setProperty(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            int chunk = Math.max(1, inputs.size() / 40);
            for (int i = 0; i < inputs.size(); i++) {
                InputCorpus.Input in = inputs.get(i);
                producer.send(
                        new ProducerRecord<>(topic, i % 3, start + i * step, in.key(), in.value()));
                if (i % chunk == chunk - 1) {
                    producer.flush();
                    Thread.sleep(100);
                }
            }
            producer.flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
