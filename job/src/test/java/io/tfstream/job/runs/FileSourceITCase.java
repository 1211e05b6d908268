package io.tfstream.job.runs;

import static io.tfstream.testkit.MiniClusters.completedCheckpoints;
import static io.tfstream.testkit.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.job.InputCorpus;
import io.tfstream.job.JobConfig;
import io.tfstream.job.JobLauncher;
import io.tfstream.job.JobTestSupport;
import io.tfstream.job.TfstreamPipeline;
import io.tfstream.operators.deadletter.DeadLetterHeaders;
import io.tfstream.parse.ParseLimits;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testkit.KafkaTestBase;
import io.tfstream.testkit.MiniClusters;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import io.tfstream.tfrecord.TfRecordWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job with {@code source.type: files}: a bounded backfill over months-old shards of every
 * compression, one of them damaged, with the TaskManager killed mid-file after two checkpoints,
 * ends with every intact record once in the TFRecord shards (in the bucket of its file's
 * modification time) and the damaged region once in the dead-letter topic with its file and byte
 * offset; files are read from S3; a continuous source picks up files added while it runs and stays
 * exactly once across a killed TaskManager.
 */
class FileSourceITCase extends KafkaTestBase {
    private static final int PARALLELISM = 2;
    private static final DateTimeFormatter BUCKET =
            DateTimeFormatter.ofPattern("'dt='yyyy-MM-dd/'hour='HH").withZone(ZoneOffset.UTC);

    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(PARALLELISM);

    private static int liveTaskManager;

    @TempDir static Path dir;

    /** What a file holds: its inputs by byte offset. */
    private record Written(Path file, Map<Long, InputCorpus.Input> byOffset) {}

    private static Written write(Path file, List<InputCorpus.Input> inputs, Compression c)
            throws Exception {
        Map<Long, InputCorpus.Input> at = new HashMap<>();
        long offset = 0;
        Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
        try (TfRecordWriter w = TfRecordFiles.newWriter(tmp, c)) {
            for (InputCorpus.Input i : inputs) {
                w.write(i.value());
                at.put(offset, i);
                offset += i.value().length + 16;
            }
        }
        // Appears whole: the continuous source must not see a file being written.
        Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        return new Written(file, at);
    }

    private static Map<String, Object> settings(String name, Path input, Path spec) {
        Map<String, Object> m =
                JobTestSupport.failureTestSettings(
                        name, kafka.bootstrapServers(), "unused", spec, name + "-dlq");
        m.remove("source.topics");
        m.put("source.type", "files");
        m.put("source.files.paths", List.of(input.toUri().toString()));
        m.put("output.records.topic", name + "-records");
        return m;
    }

    /**
     * The dead-letter and records topics of a backfill. The records topic's Kafka timestamps are
     * the files' months-old modification times, which Kafka's time-based retention would delete.
     */
    private static void createBackfillTopics(String name) throws Exception {
        kafka.createTopic(name + "-dlq", 2);
        kafka.createTopic(name + "-records", 2, Map.of("retention.ms", "-1"));
    }

    private static Path writeSpec(String name) throws Exception {
        Path spec = dir.resolve(name + "-spec.json");
        Files.writeString(spec, SpecJsonWriter.write(Seed001Corpus.spec()));
        return spec;
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        var h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    /** "{bucket} {record hex}" of every record in the finished shards under {@code base}. */
    private static Map<String, Integer> shardRecords(Path base) throws Exception {
        Map<String, Integer> seen = new HashMap<>();
        for (Path shard : JobTestSupport.finishedShards(base)) {
            String bucket = base.relativize(shard.getParent()).toString();
            try (TfRecordReader r =
                    TfRecordFiles.openReader(shard, TfRecordReadOptions.defaults())) {
                while (r.next()) {
                    seen.merge(bucket + " " + hex(r.copy()), 1, Integer::sum);
                }
            }
        }
        return seen;
    }

    @AfterEach
    void releaseHeldReads() {
        GatedFiles.release();
    }

    private static boolean restarted(MiniCluster cluster, JobID id) throws Exception {
        return cluster.getExecutionGraph(id).get().getStatusTimestamp(JobStatus.RESTARTING) > 0;
    }

    @Test
    void aBackfillOfOldShardsIsExactlyOnceAcrossATaskManagerKillMidFile(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        String name = "backfill";
        createBackfillTopics(name);
        Path input = Files.createDirectories(dir.resolve(name + "-in/dt=2026-08-01"));
        Path spec = writeSpec(name);
        int perFile = 10_000;
        List<InputCorpus.Input> all =
                InputCorpus.examples(5 * perFile, 21, Seed001Corpus.spec(), ParseLimits.defaults());
        // "e" is gzip without a suffix: detected by its magic bytes.
        String[] names = {"a.tfrecord", "b.tfrecord.gz", "c.tfrecord.zz", "d.tfrecord", "e"};
        Compression[] cs = {
            Compression.NONE, Compression.GZIP, Compression.ZLIB, Compression.NONE, Compression.GZIP
        };
        List<Written> files = new ArrayList<>();
        for (int f = 0; f < 5; f++) {
            files.add(
                    write(
                            input.resolve(names[f]),
                            all.subList(f * perFile, (f + 1) * perFile),
                            cs[f]));
        }
        // Hidden and marker files are not read.
        write(input.resolve(".hidden.tfrecord"), all.subList(0, 10), Compression.NONE);
        Files.writeString(input.resolve("_SUCCESS"), "");
        // Damage d.tfrecord: flip a data byte of its record 100 (the region is that record).
        Written d = files.get(3);
        long damagedAt =
                d.byOffset().keySet().stream().sorted().skip(100).findFirst().orElseThrow();
        byte[] bytes = Files.readAllBytes(d.file());
        bytes[(int) damagedAt + 13] ^= 0x40;
        Files.write(d.file(), bytes);
        // Three months old, an hour apart: far beyond a Kafka source's 7-day bucket skew, and each
        // file's records (event time: its modification time) in a bucket of their own.
        long[] modified = new long[5];
        long oldest =
                Instant.now()
                        .truncatedTo(ChronoUnit.HOURS)
                        .minus(Duration.ofDays(90))
                        .toEpochMilli();
        for (int f = 0; f < 5; f++) {
            modified[f] = oldest + Duration.ofMinutes(60 * f + 30).toMillis();
            Files.setLastModifiedTime(files.get(f).file(), FileTime.fromMillis(modified[f]));
        }
        // Intact good records per file, by the file's modification time.
        Map<Long, Long> goodPerFile = new HashMap<>();
        for (int f = 0; f < 5; f++) {
            Written w = files.get(f);
            goodPerFile.put(
                    modified[f],
                    w.byOffset().entrySet().stream()
                            .filter(e -> e.getValue().reason() == null)
                            .filter(e -> w != d || e.getKey() != damagedAt)
                            .count());
        }

        Map<String, Object> m = settings(name, dir.resolve(name + "-in"), spec);
        // Read through gated://, held halfway into every file until the kill: the bounded job
        // cannot finish first, so the kill always falls mid-file.
        m.put("source.files.paths", List.of(GatedFiles.uri(dir.resolve(name + "-in"))));
        long smallest = Long.MAX_VALUE;
        for (Written w : files) {
            smallest = Math.min(smallest, Files.size(w.file()));
        }
        GatedFiles.holdReadsAt(smallest / 2);
        Path shards = dir.resolve(name + "-shards");
        m.put("shards.path", shards.toUri().toString());
        // Small batches and frequent checkpoints: the kill falls while files are half read.
        m.put("batch.max-records", 10);
        m.put("checkpoint.interval", "200 ms");
        JobLauncher.Prepared job = JobLauncher.prepare(JobConfig.of(m));
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(
                        JobLauncher.flinkConfiguration(job.config()));
        TfstreamPipeline.build(env, job.config(), job.schema());
        JobClient client = env.executeAsync(name);
        JobID id = client.getJobID();
        // The kill falls mid-file: after two checkpoints, with a read held, once some file's
        // records are committed in part (a record's Kafka timestamp is its file's modification
        // time).
        Map<Long, Long> committed = new HashMap<>();
        waitFor(
                () -> {
                    if (client.getJobStatus().get().isGloballyTerminalState()) {
                        throw new AssertionError("the backfill ended before it was killed");
                    }
                    if (completedCheckpoints(cluster, id) < 2 || GatedFiles.waiting() == 0) {
                        return false;
                    }
                    committed.clear();
                    for (ConsumerRecord<byte[], byte[]> r :
                            kafka.readCommitted(name + "-records")) {
                        if (!goodPerFile.containsKey(r.timestamp())) {
                            throw new AssertionError(
                                    "a record's timestamp is no file's modification time: "
                                            + r.timestamp());
                        }
                        committed.merge(r.timestamp(), 1L, Long::sum);
                    }
                    return committed.entrySet().stream()
                            .anyMatch(e -> e.getValue() < goodPerFile.get(e.getKey()));
                },
                Duration.ofMinutes(1),
                "two checkpoints and a file partly committed");
        // Released once the job restarts: the source's shutdown does not interrupt a held read.
        var stopped = cluster.terminateTaskManager(liveTaskManager++);
        try {
            waitFor(() -> restarted(cluster, id), Duration.ofMinutes(1), "the job restarting");
        } finally {
            GatedFiles.release();
        }
        stopped.get(60, TimeUnit.SECONDS);
        cluster.startTaskManager();
        client.getJobExecutionResult().get(3, TimeUnit.MINUTES); // bounded: it finishes

        Map<String, Integer> expected = new HashMap<>();
        Map<String, Integer> expectedRecords = new HashMap<>();
        Map<String, Integer> expectedBad = new HashMap<>();
        for (int f = 0; f < 5; f++) {
            Written w = files.get(f);
            for (Map.Entry<Long, InputCorpus.Input> e : w.byOffset().entrySet()) {
                if (w == d && e.getKey() == damagedAt) {
                    continue; // in the dead-letter topic as the damaged region
                }
                InputCorpus.Input in = e.getValue();
                if (in.reason() == null) {
                    String record = hex(in.value());
                    expected.merge(
                            BUCKET.format(Instant.ofEpochMilli(modified[f])) + " " + record,
                            1,
                            Integer::sum);
                    expectedRecords.merge(record, 1, Integer::sum);
                } else {
                    expectedBad.merge(
                            names[f] + "@" + e.getKey() + " " + in.reason().code(),
                            1,
                            Integer::sum);
                }
            }
        }
        assertEquals(
                expected,
                shardRecords(shards),
                "every intact good record once in the shards, in its file's bucket");
        Map<String, Integer> records = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : kafka.readCommitted(name + "-records")) {
            records.merge(hex(r.value()), 1, Integer::sum);
        }
        assertEquals(expectedRecords, records, "and once in the records topic");

        long corrupt = 0;
        Map<String, Integer> bad = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : kafka.readCommitted(name + "-dlq")) {
            String file = header(r, DeadLetterHeaders.SOURCE_FILE);
            long offset = Long.parseLong(header(r, DeadLetterHeaders.SOURCE_BYTE_OFFSET));
            assertEquals(null, header(r, DeadLetterHeaders.SOURCE_TOPIC));
            String reason = header(r, DeadLetterHeaders.REASON);
            if ("corrupt_input".equals(reason)) {
                corrupt++;
                assertTrue(file.endsWith("/d.tfrecord"), file);
                assertEquals(damagedAt, offset);
                assertTrue(
                        header(r, DeadLetterHeaders.ERROR)
                                .contains("damaged at byte " + damagedAt + ": data CRC mismatch"),
                        header(r, DeadLetterHeaders.ERROR));
            } else {
                String fileName = file.substring(file.lastIndexOf('/') + 1);
                Written w = files.get(List.of(names).indexOf(fileName));
                assertEquals(hex(w.byOffset().get(offset).value()), hex(r.value()));
                bad.merge(fileName + "@" + offset + " " + reason, 1, Integer::sum);
            }
        }
        assertEquals(1, corrupt, "the damaged region once");
        assertEquals(expectedBad, bad, "every bad record once, with its file and offset");
    }

    /**
     * Regression: a file record's event time is the file's modification time, and the 7-day bucket
     * skew that guards a Kafka source dead-lettered every record of an older file.
     */
    @Test
    void anOldFilesRecordsLandInTheShardBucketOfItsModificationTime() throws Exception {
        String name = "old-files";
        createBackfillTopics(name);
        Path input = Files.createDirectories(dir.resolve(name + "-in"));
        Path spec = writeSpec(name);
        List<InputCorpus.Input> all =
                InputCorpus.examples(1_000, 25, Seed001Corpus.spec(), ParseLimits.defaults());
        long lastYear = Instant.parse("2025-06-30T17:20:00Z").toEpochMilli();
        long lastMonth =
                Instant.now()
                        .truncatedTo(ChronoUnit.SECONDS)
                        .minus(Duration.ofDays(30))
                        .toEpochMilli();
        Written a = write(input.resolve("a.tfrecord"), all.subList(0, 500), Compression.NONE);
        Written b = write(input.resolve("b.tfrecord.gz"), all.subList(500, 1000), Compression.GZIP);
        Files.setLastModifiedTime(a.file(), FileTime.fromMillis(lastYear));
        Files.setLastModifiedTime(b.file(), FileTime.fromMillis(lastMonth));
        Map<String, Object> m = settings(name, input, spec);
        Path shards = dir.resolve(name + "-shards");
        m.put("shards.path", shards.toUri().toString());
        JobLauncher.Prepared job = JobLauncher.prepare(JobConfig.of(m));
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(
                        JobLauncher.flinkConfiguration(job.config()));
        TfstreamPipeline.build(env, job.config(), job.schema());
        env.execute(name);

        Map<String, Integer> expected = new HashMap<>();
        long bad = 0;
        for (Written w : List.of(a, b)) {
            String bucket = BUCKET.format(Instant.ofEpochMilli(w == a ? lastYear : lastMonth));
            for (InputCorpus.Input i : w.byOffset().values()) {
                if (i.reason() == null) {
                    expected.merge(bucket + " " + hex(i.value()), 1, Integer::sum);
                } else {
                    bad++;
                }
            }
        }
        assertEquals(expected, shardRecords(shards), "each record in its file's bucket");
        List<ConsumerRecord<byte[], byte[]>> dead = kafka.readCommitted(name + "-dlq");
        assertEquals(
                List.of(),
                dead.stream()
                        .filter(r -> "validation".equals(header(r, DeadLetterHeaders.REASON)))
                        .map(r -> header(r, DeadLetterHeaders.ERROR))
                        .toList(),
                "no record dead-lettered for its event time");
        assertEquals(bad, dead.size());
    }

    @Test
    void aBoundedRunReadsItsFilesFromS3() throws Exception {
        String name = "s3files";
        kafka.createTopic(name + "-dlq", 1);
        kafka.createTopic(name + "-records", 1);
        Path spec = dir.resolve("s3files-spec.json");
        Files.writeString(spec, SpecJsonWriter.write(Seed001Corpus.spec()));
        List<InputCorpus.Input> all =
                InputCorpus.examples(2_000, 23, Seed001Corpus.spec(), ParseLimits.defaults());
        try (io.tfstream.embedded.S3ProxyProcess s3 =
                io.tfstream.embedded.S3ProxyProcess.start(dir.resolve("s3files"))) {
            s3.createBucket("input");
            Path local = Files.createDirectories(dir.resolve("s3files-local"));
            write(local.resolve("a.tfrecord.gz"), all.subList(0, 1000), Compression.GZIP);
            write(local.resolve("b.tfrecord"), all.subList(1000, 2000), Compression.NONE);
            Path credentials = s3.writeCredentials(dir.resolve("s3files.properties"));
            Map<String, Object> m = settings(name, dir, spec);
            m.put("source.files.paths", List.of("s3://input/shards/dt=*/*"));
            m.put("s3.endpoint", s3.endpoint());
            m.put("s3.path-style-access", "true");
            m.put("s3.credentials-file", credentials.toString());
            m.put("flink.restart-strategy.type", "none");
            JobLauncher.Prepared job = JobLauncher.prepare(JobConfig.of(m));
            var flink = JobLauncher.flinkConfiguration(job.config());
            JobLauncher.initializeFileSystems(job.config(), flink);
            // Uploaded through the S3 API, as any writer would (objects get their ETags).
            for (String f : List.of("a.tfrecord.gz", "b.tfrecord")) {
                var target =
                        new org.apache.flink.core.fs.Path("s3://input/shards/dt=2026-11-01/" + f);
                try (var out =
                        target.getFileSystem()
                                .create(
                                        target,
                                        org.apache.flink.core.fs.FileSystem.WriteMode.OVERWRITE)) {
                    out.write(Files.readAllBytes(local.resolve(f)));
                }
            }
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.getExecutionEnvironment(flink);
            TfstreamPipeline.build(env, job.config(), job.schema());
            env.execute(name);
        }
        Map<String, Integer> expected = new HashMap<>();
        long bad = 0;
        for (InputCorpus.Input i : all) {
            if (i.reason() == null) {
                expected.merge(hex(i.value()), 1, Integer::sum);
            } else {
                bad++;
            }
        }
        Map<String, Integer> records = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : kafka.readCommitted(name + "-records")) {
            records.merge(hex(r.value()), 1, Integer::sum);
        }
        assertEquals(expected, records);
        List<ConsumerRecord<byte[], byte[]>> dead = kafka.readCommitted(name + "-dlq");
        assertEquals(bad, dead.size());
        for (ConsumerRecord<byte[], byte[]> r : dead) {
            assertTrue(
                    header(r, DeadLetterHeaders.SOURCE_FILE)
                            .startsWith("s3://input/shards/dt=2026-11-01/"),
                    header(r, DeadLetterHeaders.SOURCE_FILE));
        }
    }

    @Test
    void aContinuousSourcePicksUpNewFilesExactlyOnceAcrossATaskManagerKill(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        String name = "continuous";
        kafka.createTopic(name + "-dlq", 2);
        kafka.createTopic(name + "-records", 2);
        Path input = Files.createDirectories(dir.resolve("continuous-in"));
        Path spec = dir.resolve("continuous-spec.json");
        Files.writeString(spec, SpecJsonWriter.write(Seed001Corpus.spec()));
        List<InputCorpus.Input> all =
                InputCorpus.examples(30_000, 22, Seed001Corpus.spec(), ParseLimits.defaults());
        Map<String, Object> m = settings(name, input, spec);
        m.put("source.files.mode", "continuous");
        m.put("source.files.discovery-interval", "200 ms");
        JobLauncher.Prepared job = JobLauncher.prepare(JobConfig.of(m));
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(
                        JobLauncher.flinkConfiguration(job.config()));
        TfstreamPipeline.build(env, job.config(), job.schema());
        JobClient client = env.executeAsync(name);
        JobID id = client.getJobID();
        try {
            int perFile = 1_000;
            int file = 0;
            for (; file < 10; file++) {
                boolean gzip = file % 2 == 0;
                write(
                        input.resolve(
                                String.format("part-%02d.tfrecord%s", file, gzip ? ".gz" : "")),
                        all.subList(file * perFile, (file + 1) * perFile),
                        gzip ? Compression.GZIP : Compression.NONE);
                Thread.sleep(150);
            }
            waitFor(
                    () -> completedCheckpoints(cluster, id) >= 2,
                    Duration.ofMinutes(2),
                    "two checkpoints");
            cluster.terminateTaskManager(liveTaskManager++).get(60, TimeUnit.SECONDS);
            cluster.startTaskManager();
            // Files added after the failure are picked up too.
            for (; file < 30; file++) {
                write(
                        input.resolve(String.format("part-%02d.tfrecord", file)),
                        all.subList(file * perFile, (file + 1) * perFile),
                        Compression.NONE);
                Thread.sleep(50);
            }
            long good = all.stream().filter(i -> i.reason() == null).count();
            long bad = all.size() - good;
            waitFor(
                    () ->
                            kafka.readCommitted(name + "-records").size() >= good
                                    && kafka.readCommitted(name + "-dlq").size() >= bad,
                    Duration.ofMinutes(3),
                    "every record in an output");
            long done = completedCheckpoints(cluster, id);
            waitFor(
                    () -> completedCheckpoints(cluster, id) > done + 1,
                    Duration.ofMinutes(1),
                    "two more checkpoints");
            assertTrue(
                    cluster.getExecutionGraph(id)
                                    .get()
                                    .getStatusTimestamp(
                                            org.apache.flink.api.common.JobStatus.RESTARTING)
                            > 0,
                    "the job restarted");
        } finally {
            client.cancel().get(1, TimeUnit.MINUTES);
        }
        Map<String, Integer> expected = new HashMap<>();
        Map<String, Integer> expectedBad = new HashMap<>();
        for (InputCorpus.Input i : all) {
            (i.reason() == null ? expected : expectedBad).merge(hex(i.value()), 1, Integer::sum);
        }
        Map<String, Integer> records = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : kafka.readCommitted(name + "-records")) {
            records.merge(hex(r.value()), 1, Integer::sum);
        }
        Map<String, Integer> dead = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : kafka.readCommitted(name + "-dlq")) {
            dead.merge(hex(r.value()), 1, Integer::sum);
        }
        assertEquals(expected, records, "every good record exactly once");
        assertEquals(expectedBad, dead, "every bad record exactly once");
    }
}
