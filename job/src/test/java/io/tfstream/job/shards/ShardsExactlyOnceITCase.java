package io.tfstream.job.shards;

import static io.tfstream.testkit.MiniClusters.completedCheckpoints;
import static io.tfstream.testkit.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.embedded.S3ProxyProcess;
import io.tfstream.job.InputCorpus;
import io.tfstream.job.JobConfig;
import io.tfstream.job.JobLauncher;
import io.tfstream.job.JobTestSupport;
import io.tfstream.operators.shards.store.S3ShardStoreFactory;
import io.tfstream.parse.ParseLimits;
import io.tfstream.shards.ShardManifest;
import io.tfstream.shards.ShardSuccessMarker;
import io.tfstream.shards.TfxSplits;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testkit.InProcessHdfs;
import io.tfstream.testkit.KafkaTestBase;
import io.tfstream.testkit.MiniClusters;
import io.tfstream.testkit.TestFiles;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * TFRecord shards exactly once, on {@code file://} and {@code hdfs://} (Flink's recoverable
 * writers; HDFS in process) and on S3 (S3Proxy, tfstream's multipart store), for every compression:
 * an unbounded source of Examples whose event times span three hours (1% broken), shards kept open
 * across checkpoints (a large target size, a long max age: they close with their bucket), the
 * TaskManager killed after at least two completed checkpoints while shards are open, then a drain.
 * Every good record is in exactly one finished shard of its event-time bucket, every manifest
 * agrees with its shard, every bucket has its marker, there are fewer shards than checkpoints, and
 * nothing but shards, manifests and markers is visible. On S3 also once with a shard of several 5
 * MiB parts, the TaskManager killed mid-part.
 *
 * <p>What a kill leaves: nothing once the job is drained. The shards the killed attempt opened
 * after the last completed checkpoint (hidden in-progress files, multipart uploads) are removed by
 * the failover's writers, which find them by their open-shard entries; the originals of resumed
 * shards are retired once checkpoints after the restore completed.
 */
class ShardsExactlyOnceITCase extends KafkaTestBase {
    // S3Proxy's filesystem backend writes an object to a temporary file beside it first.
    private static final java.util.regex.Pattern SHARD_FILE =
            java.util.regex.Pattern.compile(".*\\.tfrecord(\\.gz|\\.zz)?");

    private static final int PARALLELISM = 2;
    private static final DateTimeFormatter BUCKET =
            DateTimeFormatter.ofPattern("'dt='yyyy-MM-dd/'hour='HH").withZone(ZoneOffset.UTC);

    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(PARALLELISM);

    /** {@code <prefix>-<jobId>-<run>-<subtask>-<counter>} of the sink's shard names. */
    private static final String SHARD_NAME = "part-[0-9a-f]{32}-[0-9a-f]{16}-\\d+-\\d+";

    private static final java.util.concurrent.atomic.AtomicLong producedSoFar =
            new java.util.concurrent.atomic.AtomicLong();

    private static int liveTaskManager;

    @TempDir static Path dir;

    @ParameterizedTest
    @CsvSource({
        "file,none,,,false",
        "file,gzip,train:2;eval:1,,true",
        "file,zlib,train:3;eval:1;test:1,feature2,false",
        "s3,none,,,false",
        "s3,gzip,,,true",
        "s3,zlib,,,false",
        "hdfs,none,,,false",
        "hdfs,gzip,,,false"
    })
    void everyGoodRecordInExactlyOneFinishedShardOfItsBucket(
            String store,
            String compression,
            String splits,
            String splitFeature,
            boolean statistics,
            @InjectMiniCluster MiniCluster cluster)
            throws Exception {
        String name = "shards-" + store + "-" + compression + (splits == null ? "" : "-splits");
        Map<String, Object> settings = new HashMap<>();
        settings.put("shards.compression", compression);
        if (statistics) {
            // every bucket's statistics, kept per shard across the kill (in the checkpoints)
            settings.put("shards.statistics", true);
            settings.put("shards.statistics-report", true);
            if (!store.equals("s3")) { // S3 sets its own
                settings.put(
                        "flink.execution.checkpointing.dir",
                        dir.resolve(name + "-checkpoints").toUri().toString());
            }
        }
        if (splits != null) {
            // TFX data splits: every bucket holds Split-<name>/ directories, by TFX's rule
            settings.put("shards.splits", splits.replace(';', ','));
        }
        if (splitFeature != null) {
            settings.put("shards.split-feature", splitFeature);
        }
        if (store.equals("file")) {
            Path base = dir.resolve(name);
            run(cluster, name, base.toUri().toString(), () -> base, settings, 20_000, 3, null);
            return;
        }
        if (store.equals("hdfs")) {
            try (InProcessHdfs hdfs = InProcessHdfs.start(dir.resolve(name + "-hdfs"))) {
                Path view = dir.resolve(name + "-view");
                run(
                        cluster,
                        name,
                        hdfs.uri() + "/shards",
                        () -> hdfs.copyToLocal("/shards", view),
                        settings,
                        20_000,
                        3,
                        null);
            }
            return;
        }
        try (S3ProxyProcess s3 = S3ProxyProcess.start(dir.resolve(name + "-s3proxy"))) {
            run(cluster, name, "s3://tfstream/shards", s3, settings, 20_000, 3);
        }
    }

    /**
     * A shard of several parts on S3: one hour of event time in one bucket, about 12 MiB per
     * subtask uncompressed, a 20 MiB target; the TaskManager is killed once a part has been
     * uploaded (an open multipart upload is listed) and two more checkpoints completed.
     */
    @Test
    void onS3AShardOfSeveralPartsSurvivesAKillMidPart(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        String name = "shards-s3-parts";
        Map<String, Object> settings = new HashMap<>();
        settings.put("shards.compression", "none");
        settings.put("shards.target-size", "20 mb");
        try (S3ProxyProcess s3 = S3ProxyProcess.start(dir.resolve(name + "-s3proxy"))) {
            run(cluster, name, "s3://tfstream/shards", s3, settings, 240_000, 1);
        }
    }

    /**
     * A crash loop on {@code file://}: the TaskManager killed four times while shards are open,
     * each time after three more completed checkpoints, then a drain. Every good record is in
     * exactly one shard, and no in-progress file is left: each failover copied the open shards and
     * named the originals, which went once a checkpoint after the restore had completed. Before,
     * every failover left one hidden file per open shard.
     */
    @Test
    void aCrashLoopLeavesNoInProgressFileBehind(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        String name = "crash-loop";
        int n = 4000;
        Path spec = topicsAndSpec(name);
        List<InputCorpus.Input> inputs = inputs(n, 7);
        Path base = dir.resolve(name);
        // one hour bucket, long past: it stays open until the drain
        produce(
                name + "-in",
                inputs,
                JobTestSupport.hoursAgo(3),
                Duration.ofMinutes(59).toMillis() / n);
        JobClient client =
                JobTestSupport.startPipeline(
                        JobTestSupport.openShardSettings(
                                name, kafka.bootstrapServers(), spec, base.toUri().toString()),
                        name);
        JobID id = client.getJobID();
        try {
            waitFor(() -> shardsOpen(base, null, n), Duration.ofMinutes(3), "an open shard");
            for (int kill = 0; kill <= 4; kill++) {
                long seenAt = completedCheckpoints(cluster, id);
                waitFor(
                        () -> completedCheckpoints(cluster, id) >= seenAt + 3,
                        Duration.ofMinutes(3),
                        "three more checkpoints");
                if (kill < 4) {
                    cluster.terminateTaskManager(liveTaskManager++).get(60, TimeUnit.SECONDS);
                    cluster.startTaskManager();
                }
            }
            JobTestSupport.waitForConsumed(
                    kafka.bootstrapServers(), "tfstream", name + "-in", Duration.ofMinutes(3));
            stopWithDrain(client, dir.resolve(name + "-sp"));
        } finally {
            cancelIfRunning(client);
        }
        Map<String, Integer> expected = new HashMap<>();
        for (InputCorpus.Input in : inputs) {
            if (in.reason() == null) {
                expected.merge(ShardRunChecks.key(in.value(), ""), 1, Integer::sum);
            }
        }
        Map<String, Integer> seen = new HashMap<>();
        List<Path> shards = finishedShards(base);
        for (Path shard : shards) {
            try (TfRecordReader r =
                    TfRecordFiles.openReader(shard, TfRecordReadOptions.defaults())) {
                while (r.next()) {
                    seen.merge(ShardRunChecks.key(r.copy(), ""), 1, Integer::sum);
                }
            }
        }
        assertEquals(expected, seen, "each good record once after four failovers");
        ShardRunChecks.checkMarkers(base, shards);
        List<String> left =
                TestFiles.regularFiles(base).stream()
                        .filter(p -> p.getFileName().toString().contains(".inprogress."))
                        .map(p -> base.relativize(p).toString())
                        .toList();
        assertEquals(List.of(), left, "no in-progress file left by the failovers");
    }

    private void run(
            MiniCluster cluster,
            String name,
            String shardsPath,
            S3ProxyProcess s3,
            Map<String, Object> settings,
            int records,
            int hours)
            throws Exception {
        s3.createBucket("tfstream");
        Path credentials = s3.writeCredentials(dir.resolve(name + "-s3.properties"));
        settings.put("s3.endpoint", s3.endpoint());
        settings.put("s3.path-style-access", "true");
        settings.put("s3.credentials-file", credentials.toString());
        settings.put("checkpoint.dir", dir.resolve(name + "-checkpoints").toUri().toString());
        S3ShardStoreFactory store =
                ShardRunChecks.s3ProxyStore(shardsPath, s3.endpoint(), credentials);
        try (S3Client client = store.newClient()) {
            run(
                    cluster,
                    name,
                    shardsPath,
                    () -> s3.bucketDir("tfstream").resolve("shards"),
                    settings,
                    records,
                    hours,
                    client);
            List<String> keys =
                    client.listObjectsV2Paginator(b -> b.bucket("tfstream")).contents().stream()
                            .map(S3Object::key)
                            .toList();
            for (String key : keys) {
                if (key.startsWith("shards/_tfstream/") && key.endsWith("/")) {
                    // an empty directory's marker (the S3 file system's, left where the last
                    // open-shard entry of a subtask was removed): one per subtask and job
                    continue;
                }
                String file = key.substring(key.lastIndexOf('/') + 1);
                boolean metadata =
                        file.equals(ShardSuccessMarker.FILE_NAME)
                                || ShardManifest.isManifest(file)
                                || ShardRunChecks.isStatistics(java.nio.file.Path.of(key));
                assertTrue(
                        key.startsWith("shards/")
                                && !file.startsWith(".")
                                && (metadata || file.matches(SHARD_NAME + "\\.tfrecord.*"))
                                && metadata == key.startsWith("shards/_tfstream/"),
                        "only shards, and manifests, markers and statistics in the metadata tree,"
                                + " on S3: "
                                + key);
            }
            // What the killed attempt opened after its last checkpoint was aborted by the
            // failover's writers (their open-shard entries named it): no upload is left, and the
            // CLI finds none either.
            assertEquals(
                    List.of(),
                    client.listMultipartUploads(b -> b.bucket("tfstream")).uploads(),
                    "no multipart upload left");
            String listing = ShardRunChecks.uploads(shardsPath, s3.endpoint(), credentials);
            assertTrue(listing.contains(": 0 incomplete uploads"), listing);
        }
        try (Stream<Path> files = Files.walk(s3.bucketDir("tfstream"))) {
            assertEquals(
                    List.of(),
                    files.filter(p -> p.getFileName().toString().startsWith(".mpus-")).toList(),
                    "no S3Proxy part files left");
        }
    }

    /** A local directory holding what is under the shard path now (a copy off HDFS). */
    @FunctionalInterface
    private interface LocalView {
        Path now() throws Exception;
    }

    private void run(
            MiniCluster cluster,
            String name,
            String shardsPath,
            LocalView view,
            Map<String, Object> extra,
            int n,
            int hours,
            S3Client s3)
            throws Exception {
        String compression = (String) extra.get("shards.compression");
        TfxSplits splits =
                extra.containsKey("shards.splits")
                        ? TfxSplits.parse((String) extra.get("shards.splits"))
                        : null;
        String splitFeature = (String) extra.get("shards.split-feature");
        Path spec = topicsAndSpec(name);
        List<InputCorpus.Input> inputs = inputs(n, 3);
        long start = JobTestSupport.hoursAgo(3);
        long step = Duration.ofHours(hours).toMillis() / n;

        // Shards live on across checkpoints: they close with their bucket, or at the drain.
        Map<String, Object> settings =
                JobTestSupport.openShardSettings(name, kafka.bootstrapServers(), spec, shardsPath);
        settings.putAll(extra);
        JobLauncher.Prepared job = JobLauncher.prepare(JobConfig.of(settings));
        JobClient client = JobTestSupport.startPipeline(job, name);
        JobID id = client.getJobID();

        long checkpoints;
        try {
            CompletableFuture<Void> producing =
                    CompletableFuture.runAsync(() -> produce(name + "-in", inputs, start, step));
            // Kill while shards are open, after two checkpoints persisted them (on S3 with an
            // upload of one part or more when one is expected: the shard is then mid-part).
            waitFor(() -> shardsOpen(view.now(), s3, n), Duration.ofMinutes(3), "an open shard");
            long seenAt = completedCheckpoints(cluster, id);
            waitFor(
                    () -> completedCheckpoints(cluster, id) >= seenAt + 2,
                    Duration.ofMinutes(3),
                    "two more checkpoints");
            cluster.terminateTaskManager(liveTaskManager++).get(60, TimeUnit.SECONDS);
            cluster.startTaskManager();
            producing.get(2, TimeUnit.MINUTES);
            // Shards stay open, so nothing on disk says the input was read: the source's offsets
            // do.
            JobTestSupport.waitForConsumed(
                    kafka.bootstrapServers(), "tfstream", name + "-in", Duration.ofMinutes(3));
            if (hours > 1) {
                // The watermark passes the first hour's end: its shards close, its bucket is
                // complete while the job runs.
                Path firstHour = view.now().resolve(BUCKET.format(Instant.ofEpochMilli(start)));
                Path marked = ShardRunChecks.metadataDir(view.now(), firstHour);
                waitFor(
                        () -> Files.exists(marked.resolve(ShardSuccessMarker.FILE_NAME)),
                        Duration.ofMinutes(2),
                        "the _SUCCESS marker of the first hour while the job runs");
            }
            checkpoints = completedCheckpoints(cluster, id);
            // Drain: the source ends, every open shard is finished and committed.
            stopWithDrain(client, dir.resolve(name + "-sp"));
        } finally {
            cancelIfRunning(client);
        }

        // Records may repeat byte for byte: compare (record, bucket) multisets.
        Map<String, Integer> expected = new HashMap<>();
        long good = 0;
        for (int i = 0; i < inputs.size(); i++) {
            if (inputs.get(i).reason() == null) {
                good++;
                String bucket = BUCKET.format(Instant.ofEpochMilli(start + i * step));
                if (splits != null) {
                    // the split TFX's ExampleGen gives the record (or its partition feature)
                    bucket +=
                            "/"
                                    + TfxSplits.directory(
                                            splits.of(inputs.get(i).value(), splitFeature, false));
                }
                expected.merge(ShardRunChecks.key(inputs.get(i).value(), bucket), 1, Integer::sum);
            }
        }
        Path base = view.now();
        List<Path> shards = finishedShards(base);
        Map<String, Integer> seen = new HashMap<>();
        int segments = 0;
        String suffix =
                compression.equals("none")
                        ? ".tfrecord"
                        : compression.equals("gzip") ? ".tfrecord.gz" : ".tfrecord.zz";
        for (Path shard : shards) {
            String file = shard.getFileName().toString();
            assertTrue(file.matches(SHARD_NAME + java.util.regex.Pattern.quote(suffix)), file);
            String bucket = base.relativize(shard.getParent()).toString();
            long records = 0;
            try (TfRecordReader r =
                    TfRecordFiles.openReader(shard, TfRecordReadOptions.defaults())) {
                while (r.next()) {
                    seen.merge(ShardRunChecks.key(r.copy(), bucket), 1, Integer::sum);
                    records++;
                }
            }
            segments =
                    Math.max(
                            segments,
                            ShardRunChecks.checkManifest(
                                    shard,
                                    bucket,
                                    records,
                                    name + "-in",
                                    job.schema().fingerprint()));
        }
        assertTrue(segments >= 3, "a shard lived across two checkpoints at least: " + segments);
        assertEquals(
                good,
                seen.values().stream().mapToLong(Integer::longValue).sum(),
                "records in shards");
        assertEquals(expected, seen, "each good record once, in the bucket of its event time");
        ShardRunChecks.checkMarkers(base, shards);
        if (Boolean.TRUE.equals(extra.get("shards.statistics"))) {
            ShardRunChecks.checkStatistics(
                    base,
                    shards,
                    splits == null
                            ? List.of()
                            : splits.splits().stream().map(TfxSplits.Split::name).toList(),
                    true);
        }
        assertTrue(
                shards.size() < checkpoints,
                shards.size() + " shards, " + checkpoints + " checkpoints");
        List<String> others = new ArrayList<>();
        List<String> crashLeftovers = new ArrayList<>();
        TestFiles.regularFiles(base).stream()
                .filter(p -> !shards.contains(p))
                .filter(p -> !shards.contains(ShardRunChecks.manifestShard(base, p)))
                .filter(p -> !p.getFileName().toString().equals(ShardSuccessMarker.FILE_NAME))
                .filter(p -> !ShardRunChecks.isStatistics(p))
                .forEach(
                        p -> {
                            String f = p.getFileName().toString();
                            (f.matches("\\." + SHARD_NAME + ".*\\.inprogress\\.[0-9a-f-]{36}")
                                            ? crashLeftovers
                                            : others)
                                    .add(base.relativize(p).toString());
                        });
        assertEquals(List.of(), others, "nothing but finished shards under the base path");
        // the killed attempt's shards opened after the last checkpoint were removed by the
        // failover's writers (their open-shard entries named them): nothing is left
        assertEquals(List.of(), crashLeftovers, "nothing of the killed attempt is left");
        assertEquals(inputs.size() - good, kafka.readCommitted(name + "-dlq").size());
    }

    /**
     * Cancels a failed test's job and waits until it is gone: until then its tasks hold the shared
     * cluster's slots (and, on S3, must not outlive S3Proxy: a stuck S3 client keeps them
     * cancelling for minutes).
     */
    private static void cancelIfRunning(JobClient client) throws Exception {
        if (!client.getJobStatus().get().isGloballyTerminalState()) {
            client.cancel().get(1, TimeUnit.MINUTES);
            waitFor(
                    () -> client.getJobStatus().get().isGloballyTerminalState(),
                    Duration.ofMinutes(2),
                    "the failed test's job to be cancelled");
        }
    }

    /** The input and dead-letter topics of run {@code name}, and the seed-001 spec it parses. */
    private static Path topicsAndSpec(String name) throws Exception {
        kafka.createTopic(name + "-in", 3);
        kafka.createTopic(name + "-dlq", 1);
        Path spec = dir.resolve(name + ".json");
        Files.writeString(spec, SpecJsonWriter.write(Seed001Corpus.spec()));
        return spec;
    }

    /** {@code n} seed-001 Examples of up to 256 bytes, 1% broken, from seed {@code seed}. */
    private static List<InputCorpus.Input> inputs(int n, long seed) {
        return InputCorpus.examples(
                n, seed, Seed001Corpus.spec(), ParseLimits.defaults().withMaxRecordBytes(256));
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

    private static List<Path> finishedShards(Path base) throws Exception {
        return TestFiles.regularFiles(base).stream()
                .filter(
                        p ->
                                !p.getFileName().toString().startsWith(".")
                                        && !p.getFileName().toString().startsWith("_")
                                        && SHARD_FILE.matcher(p.getFileName().toString()).matches())
                .toList();
    }

    /**
     * Whether shards are open: on {@code file://} an in-progress file is there; on S3 records have
     * been written for a while, and with enough bytes per shard for a part a multipart upload is
     * listed.
     */
    private static boolean shardsOpen(Path base, S3Client s3, int records) throws Exception {
        if (s3 == null) {
            return TestFiles.regularFiles(base).stream()
                    .anyMatch(p -> p.getFileName().toString().contains(".inprogress."));
        }
        if (records > 100_000) {
            return !s3.listMultipartUploads(b -> b.bucket("tfstream")).uploads().isEmpty();
        }
        return producedSoFar.get() > records / 10;
    }

    private static void produce(
            String topic, List<InputCorpus.Input> inputs, long start, long step) {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.setProperty(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            producedSoFar.set(0);
            int chunk = Math.max(1, inputs.size() / 80);
            for (int i = 0; i < inputs.size(); i++) {
                InputCorpus.Input in = inputs.get(i);
                producer.send(
                        new ProducerRecord<>(topic, i % 3, start + i * step, in.key(), in.value()));
                if (i % chunk == chunk - 1) {
                    producer.flush();
                    producedSoFar.set(i + 1);
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
