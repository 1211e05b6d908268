package io.tfstream.job.shards;

import static io.tfstream.testkit.MiniClusters.completedCheckpoints;
import static io.tfstream.testkit.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.job.InputCorpus;
import io.tfstream.job.JobTestSupport;
import io.tfstream.operators.deadletter.DeadLetterHeaders;
import io.tfstream.operators.shards.store.Leftovers;
import io.tfstream.parse.ParseLimits;
import io.tfstream.shards.ShardManifest;
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
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
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
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A savepoint without drain keeps open shards open: the job is stopped with a savepoint while its
 * shards are open (nothing is finished then), restored (at the same and at another parallelism)
 * with more input, and drained. Each shard open at the savepoint is finished once, holding records
 * from both sides of it; every good record is in exactly one shard. Also a chain of rescales 4 → 2
 * → 3 with shards open at each savepoint.
 */
class ShardsSavepointITCase extends KafkaTestBase {
    /**
     * Four for the rescale to 4, and two more: the blue/green test runs two jobs of parallelism 2
     * at once, and on a loaded machine a slot of the test before may still be held when it starts
     * (seen in full builds: the second job starved of slots for minutes).
     */
    private static final int SLOTS = 6;

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(SLOTS);

    /** The tests share the cluster's slots: none may inherit a job another one left behind. */
    @org.junit.jupiter.api.AfterEach
    void noJobLeftBehind(@InjectMiniCluster MiniCluster cluster) throws Exception {
        MiniClusters.cancelUnfinishedJobs(cluster);
    }

    @TempDir static Path dir;

    /** The index of the MiniCluster's live TaskManager: each kill starts the next one. */
    private static int liveTaskManager;

    @ParameterizedTest
    @CsvSource({"2,zlib", "3,gzip"})
    void openShardsAreResumedAfterASavepointAndFinishedAtTheDrain(
            int restoredParallelism, String compression, @InjectMiniCluster MiniCluster cluster)
            throws Exception {
        String name = "savepoint-" + restoredParallelism + "-" + compression;
        int n = 4000;
        // one hour bucket, long past: the first half in its first half hour, the rest after
        Setup setup = setUp(name, 3, n, 7, 5, 59);
        List<InputCorpus.Input> inputs = setup.inputs();
        long start = setup.start();
        long step = setup.step();
        long middle = start + (n / 2) * step;
        Path base = setup.base();
        Map<String, Object> settings = setup.settings();
        settings.put("shards.compression", compression);

        produce(name + "-in", inputs, 0, n / 2, start, step, 3);
        JobClient first = startWithOpenShards(cluster, settings, base.toUri().toString());
        String savepoint = stopKeepingShardsOpen(first, name);
        assertEquals(List.of(), JobTestSupport.finishedShards(base), "no shard finished yet");
        String firstJob = first.getJobID().toHexString();

        produce(name + "-in", inputs, n / 2, n, start, step, 3);
        settings.put("parallelism", restoredParallelism);
        JobClient second = start(settings, savepoint);
        JobID id = second.getJobID();
        JobTestSupport.waitForConsumed(
                kafka.bootstrapServers(), "tfstream", name + "-in", Duration.ofMinutes(2));
        second.stopWithSavepoint(
                        true,
                        dir.resolve(name + "-sp2").toUri().toString(),
                        SavepointFormatType.CANONICAL)
                .get(2, TimeUnit.MINUTES);

        Map<String, Integer> expected = goodRecords(inputs);
        Map<String, Integer> seen = new HashMap<>();
        int resumed = 0;
        for (Path shard : JobTestSupport.finishedShards(base)) {
            ShardManifest m = ShardRunChecks.readAndCheck(shard, seen);
            assertTrue(!m.shard().contains("-" + firstJob + "-"), "the first job finished none");
            if (m.minEventTimeMs() < middle && m.maxEventTimeMs() >= middle) {
                // a shard open at the savepoint, continued in a copy named by the second job
                resumed++;
                assertTrue(m.shard().contains("-" + id.toHexString() + "-"), m.toJson());
                assertTrue(m.segments() >= 4, "persisted across the checkpoints: " + m.toJson());
            }
        }
        assertEquals(expected, seen, "each good record once");
        assertTrue(resumed >= 1 && resumed <= 2, resumed + " shards continued");
        // the originals of the continued shards stay (the savepoint holds them), listed as
        // leftovers of the first job's runs
        List<io.tfstream.operators.shards.store.LeftoverUpload> left =
                io.tfstream.operators.shards.store.Leftovers.listFiles(
                        base.toUri().toString(), "part");
        assertEquals(resumed, left.size(), left.toString());
        for (io.tfstream.operators.shards.store.LeftoverUpload u : left) {
            assertEquals(firstJob, u.shard().jobId(), u.toString());
        }
    }

    /**
     * Blue/green: a savepoint taken while the first job keeps running, restored into a second job
     * (another job name, as two jobs on one Kafka cluster need) on the same shards path; both read
     * more input and are drained. The second job continues the shards open at the savepoint in
     * copies of its own, so no file is written by both: each job's shards hold every good record
     * exactly once, every shard reads back whole against its manifest, and nothing is left. The
     * second job runs with {@code output.adopt-transactions: false}: its Kafka sinks leave the
     * first job's transactions alone, so the first job never fails over and each job's dead letters
     * are on the topic exactly once.
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"file", "hdfs"})
    void aSavepointRestoredIntoASecondJobWhileTheFirstRunsGivesEachJobItsOwnShards(
            String fs, @InjectMiniCluster MiniCluster cluster) throws Exception {
        String name = "blue-green-" + fs;
        int n = 4000;
        Setup setup = setUp(name, 3, n, 11, 5, 59);
        List<InputCorpus.Input> inputs = setup.inputs();
        InProcessHdfs hdfs =
                fs.equals("hdfs") ? InProcessHdfs.start(dir.resolve(name + "-hdfs")) : null;
        try {
            String path = hdfs == null ? setup.base().toUri().toString() : hdfs.uri() + "/shards";
            Map<String, Object> blue = setup.settings();
            blue.put("shards.path", path);
            produce(name + "-in", inputs, 0, n / 2, setup.start(), setup.step(), 3);
            JobClient first = startWithOpenShards(cluster, blue, path);
            String savepoint =
                    first.triggerSavepoint(
                                    dir.resolve(name + "-sp").toUri().toString(),
                                    SavepointFormatType.CANONICAL)
                            .get(2, TimeUnit.MINUTES);

            Map<String, Object> green = new HashMap<>(blue);
            green.put("job.name", name + "-green");
            green.put("source.group-id", name + "-green");
            // the first job keeps running: its Kafka transactions in the savepoint stay its own
            green.put("output.adopt-transactions", false);
            JobClient second = start(green, savepoint);
            produce(name + "-in", inputs, n / 2, n, setup.start(), setup.step(), 3);
            for (String group : List.of("tfstream", name + "-green")) {
                try {
                    JobTestSupport.waitForConsumed(
                            kafka.bootstrapServers(), group, name + "-in", Duration.ofMinutes(3));
                } catch (AssertionError e) {
                    throw new AssertionError(
                            e.getMessage()
                                    + "; jobs: "
                                    + JobTestSupport.jobsState(cluster, first, second),
                            e);
                }
            }
            for (JobClient job : List.of(first, second)) {
                job.stopWithSavepoint(
                                true,
                                dir.resolve(name + "-end").toUri().toString(),
                                SavepointFormatType.CANONICAL)
                        .get(2, TimeUnit.MINUTES);
            }

            Path view =
                    hdfs == null
                            ? setup.base()
                            : hdfs.copyToLocal("/shards", dir.resolve(name + "-view"));
            Map<String, Integer> expected = goodRecords(inputs);
            long middle = setup.start() + (n / 2) * setup.step();
            int continued = 0;
            for (JobClient job : List.of(first, second)) {
                String id = "-" + job.getJobID().toHexString() + "-";
                Map<String, Integer> seen = new HashMap<>();
                for (Path shard : JobTestSupport.finishedShards(view)) {
                    if (!shard.getFileName().toString().contains(id)) {
                        continue;
                    }
                    ShardManifest m = ShardRunChecks.readAndCheck(shard, seen);
                    if (job == second
                            && m.minEventTimeMs() < middle
                            && m.maxEventTimeMs() >= middle) {
                        continued++;
                        assertTrue(
                                m.segments() >= 4, "continued from the savepoint: " + m.toJson());
                    }
                }
                assertEquals(expected, seen, "each good record once in the shards of " + id);
            }
            assertTrue(continued >= 1, "the second job continued the shards open at the savepoint");
            assertEquals(
                    List.of(),
                    Leftovers.listFiles(path, "part"),
                    () ->
                            "the first job finished its own shards; the second its copies; "
                                    + JobTestSupport.jobsState(cluster, first, second)
                                    + "; files: "
                                    + listing(view));
            assertEquals(
                    null,
                    cluster.getExecutionGraph(first.getJobID()).get().getFailureInfo(),
                    "the second job left the first job's transactions alone: no failover");
            checkDeadLettersOfBothJobs(inputs, kafka.readCommitted(name + "-dlq"));
        } finally {
            if (hdfs != null) {
                hdfs.close();
            }
        }
    }

    /** Starts a job and waits until shards are open under {@code path} and persisted 3 times. */
    private static JobClient startWithOpenShards(
            MiniCluster cluster, Map<String, Object> settings, String path) throws Exception {
        JobClient job = start(settings, null);
        JobTestSupport.awaitOpenShards(cluster, job, path);
        return job;
    }

    /**
     * A rescale 4 → 2 → 3 through savepoints with shards open each time (writer state is split list
     * state: after 4 → 2 some subtasks get two subtasks' shards, after 2 → 3 one gets none), then a
     * drain: every good record once, every shard name used once and carrying the job that opened
     * it, and each bucket's marker lists the shards of all three jobs.
     */
    @org.junit.jupiter.api.Test
    void aRescaleFourTwoThreeWithShardsOpenKeepsEveryRecordOnce(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        String name = "rescale-4-2-3";
        int n = 6000;
        // two hour buckets, long past
        Setup setup = setUp(name, 4, n, 11, 6, 119);
        List<InputCorpus.Input> inputs = setup.inputs();
        long start = setup.start();
        long step = setup.step();
        Path base = setup.base();
        Map<String, Object> settings = setup.settings();
        // each shard's statistics go through the savepoints and the rescales with it
        settings.put("shards.statistics", true);
        settings.put(
                "flink.execution.checkpointing.dir",
                dir.resolve(name + "-checkpoints").toUri().toString());

        String savepoint = null;
        List<String> jobs = new java.util.ArrayList<>();
        int[] parallelisms = {4, 2, 3};
        for (int phase = 0; phase < 3; phase++) {
            produce(name + "-in", inputs, phase * n / 3, (phase + 1) * n / 3, start, step, 4);
            settings.put("parallelism", parallelisms[phase]);
            JobClient job = start(settings, savepoint);
            jobs.add(job.getJobID().toHexString());
            try {
                JobTestSupport.waitForConsumed(
                        kafka.bootstrapServers(), "tfstream", name + "-in", Duration.ofMinutes(2));
            } catch (AssertionError e) {
                var graph = cluster.getExecutionGraph(job.getJobID()).get();
                throw new AssertionError(
                        "phase "
                                + phase
                                + ": job "
                                + graph.getState()
                                + ", failure: "
                                + (graph.getFailureInfo() == null
                                        ? "none"
                                        : graph.getFailureInfo().getExceptionAsString()),
                        e);
            }
            long seenAt = completedCheckpoints(cluster, job.getJobID());
            waitFor(
                    () -> completedCheckpoints(cluster, job.getJobID()) >= seenAt + 2,
                    Duration.ofMinutes(2),
                    "two more checkpoints");
            boolean last = phase == 2;
            savepoint =
                    job.stopWithSavepoint(
                                    last,
                                    dir.resolve(name + "-sp" + phase).toUri().toString(),
                                    SavepointFormatType.CANONICAL)
                            .get(2, TimeUnit.MINUTES);
            if (phase == 0) {
                assertEquals(List.of(), JobTestSupport.finishedShards(base), "shards stay open");
            }
            if (!last) {
                // (after 4 → 2 a subtask that receives two open shards of one bucket finishes one)
                assertTrue(inProgress(base) > 0, "open shards in the savepoint");
            }
        }

        Map<String, Integer> expected = goodRecords(inputs);
        Map<String, Integer> seen = new HashMap<>();
        java.util.Set<String> names = new java.util.HashSet<>();
        List<Path> shards = JobTestSupport.finishedShards(base);
        for (Path shard : shards) {
            String file = shard.getFileName().toString();
            assertTrue(names.add(file), "a name used twice: " + file);
            var parsed =
                    io.tfstream.operators.shards.store.ShardName.parse(file, "part").orElseThrow();
            assertTrue(jobs.contains(parsed.jobId()), file + " is not of " + jobs);
            try (TfRecordReader r =
                    TfRecordFiles.openReader(shard, TfRecordReadOptions.defaults())) {
                while (r.next()) {
                    seen.merge(HexFormat.of().formatHex(r.copy()), 1, Integer::sum);
                }
            }
        }
        assertEquals(expected, seen, "each good record once");
        // shards open at a savepoint went on in copies; the originals stay (the savepoints hold
        // them), listed for tfstream shards uploads as the first two jobs'
        List<io.tfstream.operators.shards.store.LeftoverUpload> left =
                Leftovers.listFiles(base.toUri().toString(), "part");
        assertTrue(!left.isEmpty(), "the originals of continued shards");
        for (var u : left) {
            assertTrue(jobs.subList(0, 2).contains(u.shard().jobId()), u.toString());
        }
        ShardRunChecks.checkMarkers(base, shards);
        ShardRunChecks.checkStatistics(base, shards, List.of());
        for (Path marker : TestFiles.regularFiles(base)) {
            if (marker.getFileName().toString().equals("_SUCCESS")) {
                var m = io.tfstream.shards.ShardSuccessMarker.fromJson(Files.readString(marker));
                List<String> sorted = new java.util.ArrayList<>(jobs);
                java.util.Collections.sort(sorted);
                assertEquals(sorted, m.jobs(), "the history's three jobs");
            }
        }
    }

    /**
     * An older retained checkpoint restored after the history went on and committed its shards: the
     * shards that checkpoint held open continue in copies of their committed files' first bytes, so
     * the restored history is whole (every good record once in its own shards) and no committed
     * shard is replaced. Once those files are removed as well, the shards are lost: the restore
     * fails naming them, or with {@code shards.on-lost-shard: drop} goes on without them.
     */
    @org.junit.jupiter.api.Test
    void anOlderCheckpointRestoredContinuesItsShardsOrFailsOrDropsThemOnceTheyAreGone(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        String name = "older-checkpoint";
        int n = 4000;
        Setup setup = setUp(name, 3, n, 13, 5, 59);
        List<InputCorpus.Input> inputs = setup.inputs();
        long start = setup.start();
        long step = setup.step();
        Path base = setup.base();
        Map<String, Object> settings = setup.settings();
        Path checkpoints = retainCheckpoints(name, settings);

        produce(name + "-in", inputs, 0, n / 2, start, step, 3);
        JobClient first = startAndSettle(cluster, settings, name + "-in");
        assertTrue(inProgress(base) > 0, "shards open at the checkpoint kept");
        // kept aside: the cluster retains only its newest checkpoint (its own num-retained)
        Path older = dir.resolve(name + "-older");
        for (int attempt = 1; ; attempt++) {
            try {
                TestFiles.copyTree(
                        latestCheckpoint(checkpoints.resolve(first.getJobID().toHexString())),
                        older);
                break;
            } catch (java.nio.file.NoSuchFileException e) {
                // subsumed while copied: take the next one
                if (attempt == 10) {
                    throw e;
                }
                TestFiles.deleteTree(older);
            }
        }

        // The history goes on past it: more input, then a drain commits every shard.
        produce(name + "-in", inputs, n / 2, n, start, step, 3);
        JobTestSupport.waitForConsumed(
                kafka.bootstrapServers(), "tfstream", name + "-in", Duration.ofMinutes(2));
        first.stopWithSavepoint(
                        true,
                        dir.resolve(name + "-sp").toUri().toString(),
                        SavepointFormatType.CANONICAL)
                .get(2, TimeUnit.MINUTES);
        Map<Path, byte[]> committed = new HashMap<>();
        for (Path shard : JobTestSupport.finishedShards(base)) {
            committed.put(shard, Files.readAllBytes(shard));
        }
        assertTrue(!committed.isEmpty());

        // Restored with the default: its open shards continue from the committed files.
        String second = restoreAndDrain(settings, older, name + "-again");
        assertUnchanged(committed);
        assertEquals(
                goodRecords(inputs),
                recordsOf(base, second),
                "the restored history: each good record once");

        // The abandoned history's shards removed: the checkpoint's open shards are lost.
        for (Path shard : committed.keySet()) {
            Files.delete(shard);
        }
        Map<String, Object> failing = new HashMap<>(settings);
        failing.put("flink.restart-strategy.type", "none");
        failing.put("source.group-id", name + "-failing");
        JobClient third = start(failing, older.toUri().toString());
        Throwable failure =
                org.junit.jupiter.api.Assertions.assertThrows(
                        java.util.concurrent.ExecutionException.class,
                        () -> third.getJobExecutionResult().get(2, TimeUnit.MINUTES));
        String text = org.apache.flink.util.ExceptionUtils.stringifyException(failure);
        assertTrue(text.contains("is lost"), text);
        assertTrue(text.contains("shards.on-lost-shard: drop"), text);

        // With drop it goes on; what it reads after the checkpoint lands in new shards.
        Map<String, Object> dropping = new HashMap<>(settings);
        dropping.put("shards.on-lost-shard", "drop");
        Map<String, Integer> seen =
                recordsOf(base, restoreAndDrain(dropping, older, name + "-dropping"));
        assertTrue(
                seen.values().stream().allMatch(c -> c == 1), "no record twice in the new shards");
        for (InputCorpus.Input in : inputs.subList(n / 2, n)) {
            if (in.reason() == null) {
                assertEquals(
                        1,
                        seen.getOrDefault(HexFormat.of().formatHex(in.value()), 0),
                        "a record read after the checkpoint is in the new shards once");
            }
        }
    }

    /**
     * A rollback: savepoint S while the first job runs with shards rolling, the first job goes on,
     * commits more shards and is drained (its markers list them), then a second job of the same
     * name on the same path starts from S and is drained. The shards the final markers list hold
     * every good record exactly once: the first job's shards committed before S are in the restored
     * history, those it committed after S are not (a glob still sees them).
     */
    @org.junit.jupiter.api.Test
    void aRollbackToAnOlderSavepointListsEveryRecordOnceInTheMarkers(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        String name = "rollback";
        Setup setup = setUp(name, 3, 4000, 17, 5, 59);
        Path base = setup.base();
        Map<String, Object> settings = setup.settings();
        // shards roll while the first half is read: some are committed before the savepoint
        settings.put("shards.target-size", "32 kb");

        produce(name + "-in", setup.inputs(), 0, 2000, setup.start(), setup.step(), 3);
        // the rolled shards committed by the two checkpoints after the input was read
        JobClient first = startAndSettle(cluster, settings, name + "-in");
        int beforeSavepoint = JobTestSupport.finishedShards(base).size();
        assertTrue(beforeSavepoint > 0, "shards committed before the savepoint");
        String savepoint =
                first.triggerSavepoint(
                                dir.resolve(name + "-sp").toUri().toString(),
                                SavepointFormatType.CANONICAL)
                        .get(2, TimeUnit.MINUTES);

        produce(name + "-in", setup.inputs(), 2000, 4000, setup.start(), setup.step(), 3);
        drainOnceRead(first, "tfstream", name + "-in", name + "-end");
        Map<String, Integer> expected = goodRecords(setup.inputs());
        assertEquals(expected, listedRecords(base), "the first job's markers, before the rollback");

        // the rollback: same job name and path, from S (a new group only to see it consumed)
        String second = restoreAndDrain(settings, Path.of(java.net.URI.create(savepoint)), name);
        Map<String, Integer> listed = listedRecords(base);
        long twice = listed.values().stream().filter(c -> c > 1).count();
        assertEquals(0, twice, "records listed more than once after the rollback");
        assertEquals(expected, listed, "every good record listed once after the rollback");
        String firstJob = "-" + first.getJobID().toHexString() + "-";
        long firstJobsShards =
                JobTestSupport.finishedShards(base).stream()
                        .filter(p -> p.getFileName().toString().contains(firstJob))
                        .count();
        assertTrue(
                firstJobsShards > beforeSavepoint,
                "the first job committed shards after the savepoint, left out of the markers");
        assertTrue(!recordsOf(base, second).isEmpty(), "the second job wrote shards");
    }

    /**
     * A job started from a savepoint of another job fails over before its first checkpoint: the
     * failover restores that savepoint again. The shards it holds belong to the other job's
     * history, so the failover neither retires their files nor stays in that history, and the
     * savepoint stays restorable: a third job restored from it later holds every good record once.
     * Before, the failover took them for its own and removed them at the drain, and the third job
     * met lost shards.
     */
    @org.junit.jupiter.api.Test
    void aFailoverBeforeTheFirstCheckpointOfARestoredJobKeepsItsSavepointRestorable(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        String name = "restored-failover";
        Setup setup = setUp(name, 3, 3000, 19, 5, 59);
        produce(name + "-in", setup.inputs(), 0, 1500, setup.start(), setup.step(), 3);
        Path base = setup.base();
        JobClient first = startWithOpenShards(cluster, setup.settings(), base.toUri().toString());
        String savepoint = stopKeepingShardsOpen(first, name);
        List<Path> held = inProgressFiles(base);
        assertTrue(!held.isEmpty(), "the savepoint holds open shards");
        produce(name + "-in", setup.inputs(), 1500, 3000, setup.start(), setup.step(), 3);

        // no periodic checkpoint: the kill comes before the first one, checkpoints on demand after
        Map<String, Object> second = new HashMap<>(setup.settings());
        second.put("checkpoint.interval", "1 h");
        second.put("source.group-id", name + "-second");
        JobClient job = start(second, savepoint);
        String id = "-" + job.getJobID().toHexString() + "-";
        waitFor(
                () ->
                        inProgressFiles(base).stream()
                                .anyMatch(p -> p.getFileName().toString().contains(id)),
                Duration.ofMinutes(2),
                "the restored job's copies of the open shards");
        cluster.terminateTaskManager(liveTaskManager++).get(60, TimeUnit.SECONDS);
        cluster.startTaskManager();
        // checkpoints commit the source's offsets: taken until they say the input was read (a
        // trigger fails while the job restarts)
        waitFor(
                () -> {
                    try {
                        cluster.triggerCheckpoint(job.getJobID()).get(2, TimeUnit.MINUTES);
                        JobTestSupport.waitForConsumed(
                                kafka.bootstrapServers(),
                                name + "-second",
                                name + "-in",
                                Duration.ofSeconds(5));
                        return true;
                    } catch (java.util.concurrent.ExecutionException | AssertionError e) {
                        return false;
                    }
                },
                Duration.ofMinutes(3),
                "the restored job to read its input after the failover");
        job.stopWithSavepoint(
                        true,
                        dir.resolve(name + "-second-end").toUri().toString(),
                        SavepointFormatType.CANONICAL)
                .get(2, TimeUnit.MINUTES);
        for (Path p : held) {
            assertTrue(Files.exists(p), "still held by the savepoint: " + p);
        }
        assertEquals(
                goodRecords(setup.inputs()),
                recordsOf(base, job.getJobID().toHexString()),
                "the restored job after its failover: each good record once");

        restoreHoldsEveryRecordOnce(
                setup,
                setup.settings(),
                savepoint,
                name + "-third",
                "the savepoint restored once more");
    }

    /**
     * {@code tfstream shards uploads --older-than 0s --abort} beside a live job, given the job's
     * checkpoint directory, removes only the leftovers: an hour-old in-progress file of another job
     * and one of a dead run of this job. It keeps every file the job's checkpoints hold, and one of
     * this job opened since its latest checkpoint began (its running writer may hold it), saying
     * why. After a stop with a savepoint, the same command given that savepoint keeps everything it
     * holds, and a job restored from it drains with every good record once.
     */
    @org.junit.jupiter.api.Test
    void theCleanupCommandBesideALiveJobKeepsWhatItsCheckpointsAndSavepointsHold(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        Setup setup = setUp("cleanup", 3, 4000, 29, 5, 59);
        Path checkpoints = retainCheckpoints("cleanup", setup.settings());
        String name = "cleanup";
        Map<String, Object> settings = setup.settings();
        Path base = setup.base();
        int n = setup.inputs().size();
        produce(name + "-in", setup.inputs(), 0, n / 2, setup.start(), setup.step(), 3);
        JobClient first = startWithOpenShards(cluster, settings, base.toUri().toString());
        List<Path> live = inProgressFiles(base);
        assertTrue(!live.isEmpty(), "shards open");
        String job = first.getJobID().toHexString();
        Path sample = live.get(0);
        String sampleName = sample.getFileName().toString();
        String otherJob = "0123456789abcdef0123456789abcdef";
        Path foreign = sample.resolveSibling(sampleName.replace(job, otherJob));
        Path deadRun =
                sample.resolveSibling(
                        sampleName.replaceFirst(
                                job + "-[0-9a-f]{16}-", job + "-00000000000000aa-"));
        Path opened =
                sample.resolveSibling(
                        sampleName.replaceFirst(
                                job + "-[0-9a-f]{16}-", job + "-00000000000000bb-"));
        for (Path p : List.of(foreign, deadRun, opened)) {
            Files.write(p, new byte[] {1, 2, 3});
        }
        java.nio.file.attribute.FileTime hourAgo =
                java.nio.file.attribute.FileTime.from(
                        java.time.Instant.now().minus(Duration.ofHours(1)));
        Files.setLastModifiedTime(foreign, hourAgo);
        Files.setLastModifiedTime(deadRun, hourAgo);

        String listing = abortAllBut(base, "--checkpoints", checkpoints.toUri().toString());
        assertTrue(listing.contains(", 2 aborted, "), listing);
        assertTrue(!Files.exists(foreign) && !Files.exists(deadRun), listing);
        for (Path p : live) {
            assertTrue(Files.exists(p), "kept " + p + ":\n" + listing);
        }
        assertTrue(Files.exists(opened), listing);
        assertTrue(listing.contains("held by checkpoint "), listing);
        assertTrue(listing.contains("the job's running writer may hold it"), listing);
        Files.delete(opened);

        produce(name + "-in", setup.inputs(), n / 2, n, setup.start(), setup.step(), 3);
        JobTestSupport.waitForConsumed(
                kafka.bootstrapServers(), "tfstream", name + "-in", Duration.ofMinutes(2));
        String savepoint = stopKeepingShardsOpen(first, name);
        List<Path> held = inProgressFiles(base);
        assertTrue(!held.isEmpty(), "shards open at the savepoint");
        String kept = abortAllBut(base, "--keep-savepoint", savepoint);
        assertTrue(kept.contains(", 0 aborted, " + held.size() + " kept"), kept);
        assertEquals(held, inProgressFiles(base), kept);

        restoreHoldsEveryRecordOnce(setup, settings, savepoint, name + "-2", "the restored job");
    }

    /**
     * The same on S3, checkpoints on S3 too: one subtask with more than a part per shard, so its
     * checkpoints hold multipart uploads. {@code --older-than 0s --abort --checkpoints} beside the
     * live job aborts the upload of another job and keeps every upload of the job, then the job
     * drains FINISHED with every good record once.
     */
    @org.junit.jupiter.api.Test
    void onS3TheCleanupCommandBesideALiveJobAbortsNothingTheJobHolds(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        // about 9 MB of records for one subtask: one part uploaded, the rest in its tail
        Setup setup = setUp("cleanup-s3", 1, 60_000, 31, 5, 59);
        String name = "cleanup-s3";
        int n = setup.inputs().size();
        Map<String, Object> settings = setup.settings();
        try (io.tfstream.embedded.S3ProxyProcess s3 =
                io.tfstream.embedded.S3ProxyProcess.start(dir.resolve(name + "-s3proxy"))) {
            s3.createBucket("tfstream");
            Path credentials = s3.writeCredentials(dir.resolve(name + "-s3.properties"));
            String shards = "s3://tfstream/" + name;
            String checkpoints = "s3://tfstream/checkpoints";
            settings.put("parallelism", 1);
            settings.put("shards.path", shards);
            settings.put("shards.compression", "none");
            settings.put("s3.endpoint", s3.endpoint());
            settings.put("s3.path-style-access", "true");
            settings.put("s3.credentials-file", credentials.toString());
            settings.put("flink.execution.checkpointing.dir", checkpoints);
            produce(name + "-in", setup.inputs(), 0, n, setup.start(), setup.step(), 1);
            try (software.amazon.awssdk.services.s3.S3Client client =
                    ShardRunChecks.s3ProxyStore(shards, s3.endpoint(), credentials).newClient()) {
                JobClient job = start(settings, null);
                waitFor(
                        () -> !Leftovers.listS3(client, shards, "part").isEmpty(),
                        Duration.ofMinutes(2),
                        "a part uploaded");
                JobTestSupport.awaitMoreCheckpoints(cluster, job, 2);
                var live = Leftovers.listS3(client, shards, "part");
                String foreignKey =
                        name
                                + "/"
                                + live.get(0)
                                        .uri()
                                        .substring(
                                                live.get(0).uri().indexOf(name + "/")
                                                        + name.length()
                                                        + 1)
                                        .replace(
                                                job.getJobID().toHexString(),
                                                "0123456789abcdef0123456789abcdef");
                client.createMultipartUpload(b -> b.bucket("tfstream").key(foreignKey));

                String listing =
                        ShardRunChecks.uploads(
                                shards,
                                s3.endpoint(),
                                credentials,
                                "--older-than",
                                "0s",
                                "--abort",
                                "--checkpoints",
                                checkpoints);
                assertTrue(listing.contains(", 1 aborted, " + live.size() + " kept"), listing);
                for (var u : live) {
                    assertTrue(
                            listing.contains("upload " + u.id() + "  (held by checkpoint "),
                            listing);
                }
                assertEquals(
                        live.stream().map(u -> u.id()).sorted().toList(),
                        Leftovers.listS3(client, shards, "part").stream()
                                .map(u -> u.id())
                                .sorted()
                                .toList(),
                        listing);

                drainOnceRead(job, "tfstream", name + "-in", name + "-end");
                assertEquals(
                        org.apache.flink.api.common.JobStatus.FINISHED,
                        job.getJobStatus().get(1, TimeUnit.MINUTES));
                Map<String, Integer> seen = new HashMap<>();
                for (Path shard :
                        JobTestSupport.finishedShards(s3.bucketDir("tfstream").resolve(name))) {
                    ShardRunChecks.readAndCheck(shard, seen);
                }
                assertEquals(goodRecords(setup.inputs()), seen, "every good record once");
            }
        }
    }

    /**
     * {@code tfstream shards uploads BASE --older-than 0s --abort} sparing the snapshot {@code
     * option} names; returns what it printed.
     */
    private static String abortAllBut(Path base, String option, String snapshot) {
        return ShardRunChecks.cleanUploads(
                base.toString(), null, "--older-than", "0s", "--abort", option, snapshot);
    }

    /**
     * Checkpoints of test {@code name} under their own directory, retained on cancellation, set
     * into {@code settings}; returns the directory.
     */
    private static Path retainCheckpoints(String name, Map<String, Object> settings) {
        Path checkpoints = dir.resolve(name + "-cp");
        settings.put("flink.execution.checkpointing.dir", checkpoints.toUri().toString());
        settings.put(
                "flink.execution.checkpointing.externalized-checkpoint-retention",
                "RETAIN_ON_CANCELLATION");
        return checkpoints;
    }

    /** Stops {@code job} with a savepoint without drain (its open shards stay open in it). */
    private static String stopKeepingShardsOpen(JobClient job, String name) throws Exception {
        return job.stopWithSavepoint(
                        false,
                        dir.resolve(name + "-sp").toUri().toString(),
                        SavepointFormatType.CANONICAL)
                .get(2, TimeUnit.MINUTES);
    }

    /** The hidden in-progress files under {@code base}. */
    private static List<Path> inProgressFiles(Path base) throws Exception {
        return TestFiles.regularFiles(base).stream()
                .filter(p -> p.getFileName().toString().contains(".inprogress."))
                .toList();
    }

    /**
     * Starts a job, waits until it has read topic {@code topic} to its end (group {@code tfstream})
     * and completed two more checkpoints.
     */
    private static JobClient startAndSettle(
            MiniCluster cluster, Map<String, Object> settings, String topic) throws Exception {
        JobClient job = start(settings, null);
        JobTestSupport.waitForConsumed(
                kafka.bootstrapServers(), "tfstream", topic, Duration.ofMinutes(2));
        long seenAt = completedCheckpoints(cluster, job.getJobID());
        waitFor(
                () -> completedCheckpoints(cluster, job.getJobID()) >= seenAt + 2,
                Duration.ofMinutes(2),
                "two more checkpoints");
        return job;
    }

    /**
     * Every good record in the shards the {@code _SUCCESS} markers under {@code base} list, counted
     * (hex-keyed), as a reader that waits for the markers sees them.
     */
    private static Map<String, Integer> listedRecords(Path base) throws Exception {
        Map<String, Integer> seen = new HashMap<>();
        for (Path shard : ShardRunChecks.listedShards(base)) {
            ShardRunChecks.readAndCheck(shard, seen);
        }
        return seen;
    }

    /**
     * Restores {@code snapshot} with consumer group {@code group}, reads the input to its end and
     * drains; returns the job's id.
     */
    private static String restoreAndDrain(Map<String, Object> settings, Path snapshot, String group)
            throws Exception {
        Map<String, Object> s = new HashMap<>(settings);
        s.put("source.group-id", group);
        JobClient job = start(s, snapshot.toUri().toString());
        String topic = ((List<?>) settings.get("source.topics")).get(0).toString();
        drainOnceRead(job, group, topic, group + "-end");
        return job.getJobID().toHexString();
    }

    /**
     * Restores savepoint {@code savepoint} (a URI) with {@code settings} and consumer group {@code
     * group}, drains, and checks that the restored job's shards hold every good record of {@code
     * setup} once.
     */
    private static void restoreHoldsEveryRecordOnce(
            Setup setup, Map<String, Object> settings, String savepoint, String group, String what)
            throws Exception {
        String id = restoreAndDrain(settings, Path.of(java.net.URI.create(savepoint)), group);
        assertEquals(
                goodRecords(setup.inputs()),
                recordsOf(setup.base(), id),
                what + ": each good record once");
    }

    /**
     * Waits until consumer group {@code group} has read {@code topic} to its end, then stops {@code
     * job} with a drain into savepoint directory {@code savepoint}.
     */
    private static void drainOnceRead(JobClient job, String group, String topic, String savepoint)
            throws Exception {
        JobTestSupport.waitForConsumed(
                kafka.bootstrapServers(), group, topic, Duration.ofMinutes(2));
        job.stopWithSavepoint(
                        true,
                        dir.resolve(savepoint).toUri().toString(),
                        SavepointFormatType.CANONICAL)
                .get(2, TimeUnit.MINUTES);
    }

    /** Records of the finished shards under {@code base} that job {@code jobId} wrote. */
    private static Map<String, Integer> recordsOf(Path base, String jobId) throws Exception {
        Map<String, Integer> seen = new HashMap<>();
        for (Path shard : JobTestSupport.finishedShards(base)) {
            if (shard.getFileName().toString().contains("-" + jobId + "-")) {
                ShardRunChecks.readAndCheck(shard, seen);
            }
        }
        return seen;
    }

    /** How often each good record of {@code inputs} occurs, hex-keyed. */
    private static Map<String, Integer> goodRecords(List<InputCorpus.Input> inputs) {
        Map<String, Integer> expected = new HashMap<>();
        for (InputCorpus.Input in : inputs) {
            if (in.reason() == null) {
                expected.merge(HexFormat.of().formatHex(in.value()), 1, Integer::sum);
            }
        }
        return expected;
    }

    private static void assertUnchanged(Map<Path, byte[]> committed) throws Exception {
        for (Map.Entry<Path, byte[]> e : committed.entrySet()) {
            assertArrayEquals(
                    e.getValue(), Files.readAllBytes(e.getKey()), "replaced: " + e.getKey());
        }
    }

    /** The newest retained checkpoint ({@code chk-N} with its metadata) of a job. */
    private static Path latestCheckpoint(Path jobDir) throws Exception {
        try (var dirs = Files.list(jobDir)) {
            return dirs.filter(p -> p.getFileName().toString().startsWith("chk-"))
                    .filter(p -> Files.exists(p.resolve("_metadata")))
                    .max(
                            java.util.Comparator.comparingLong(
                                    p -> Long.parseLong(p.getFileName().toString().substring(4))))
                    .orElseThrow();
        }
    }

    /** The topics, spec, input corpus and job settings of one test run. */
    private record Setup(
            List<InputCorpus.Input> inputs,
            long start,
            long step,
            Path base,
            Map<String, Object> settings) {}

    /**
     * Topics of {@code partitions} partitions, {@code n} records (seed {@code seed}) whose event
     * times start {@code hoursBack} whole hours ago and span {@code minutes}; shards kept open (1 h
     * max age, 1 GB target, buckets never complete while the job runs).
     */
    private Setup setUp(String name, int partitions, int n, long seed, int hoursBack, int minutes)
            throws Exception {
        kafka.createTopic(name + "-in", partitions);
        kafka.createTopic(name + "-dlq", 1);
        Path spec = dir.resolve(name + ".json");
        Files.writeString(spec, SpecJsonWriter.write(Seed001Corpus.spec()));
        List<InputCorpus.Input> inputs =
                InputCorpus.examples(
                        n,
                        seed,
                        Seed001Corpus.spec(),
                        ParseLimits.defaults().withMaxRecordBytes(256));
        long start = JobTestSupport.hoursAgo(hoursBack);
        Path base = dir.resolve(name);
        Map<String, Object> settings =
                JobTestSupport.openShardSettings(
                        name, kafka.bootstrapServers(), spec, base.toUri().toString());
        // buckets must not close while the job runs: shards stay open across savepoints
        settings.put("shards.success-delay", "100 d");
        return new Setup(inputs, start, Duration.ofMinutes(minutes).toMillis() / n, base, settings);
    }

    private static JobClient start(Map<String, Object> settings, String savepoint)
            throws Exception {
        Map<String, Object> s = new HashMap<>(settings);
        if (savepoint != null) {
            s.put("flink.execution.state-recovery.path", savepoint);
        }
        return JobTestSupport.startPipeline(s, (String) settings.get("job.name"));
    }

    /**
     * Each job wrote its dead letters exactly once: the first job one of every bad record, the
     * second one of every bad record after the savepoint's offsets. So per source partition the
     * offsets seen once come before those seen twice, and every bad record is there.
     */
    private static void checkDeadLettersOfBothJobs(
            List<InputCorpus.Input> inputs,
            List<org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]>> deadLetters) {
        Map<Integer, java.util.TreeMap<Long, Integer>> byPartition = new HashMap<>();
        for (var r : deadLetters) {
            int partition =
                    Integer.parseInt(
                            new String(
                                    r.headers()
                                            .lastHeader(DeadLetterHeaders.SOURCE_PARTITION)
                                            .value(),
                                    java.nio.charset.StandardCharsets.UTF_8));
            long offset =
                    Long.parseLong(
                            new String(
                                    r.headers().lastHeader(DeadLetterHeaders.SOURCE_OFFSET).value(),
                                    java.nio.charset.StandardCharsets.UTF_8));
            byPartition
                    .computeIfAbsent(partition, k -> new java.util.TreeMap<>())
                    .merge(offset, 1, Integer::sum);
        }
        long bad = inputs.stream().filter(i -> i.reason() != null).count();
        assertEquals(
                bad,
                byPartition.values().stream().mapToLong(java.util.Map::size).sum(),
                "every bad record dead-lettered");
        for (var e : byPartition.entrySet()) {
            boolean twice = false;
            for (var o : e.getValue().entrySet()) {
                assertTrue(o.getValue() <= 2, "once per job: " + e.getKey() + "/" + o);
                assertTrue(
                        !twice || o.getValue() == 2,
                        "the second job's from the savepoint's offset on: " + e);
                twice |= o.getValue() == 2;
            }
        }
    }

    /** Every file under {@code base} with its size and modification time, for a failure text. */
    private static String listing(Path base) {
        try {
            StringBuilder out = new StringBuilder();
            for (Path p : TestFiles.regularFiles(base)) {
                out.append("\n  ")
                        .append(base.relativize(p))
                        .append(' ')
                        .append(Files.size(p))
                        .append(' ')
                        .append(Files.getLastModifiedTime(p));
            }
            return out.toString();
        } catch (java.io.IOException e) {
            return "(not listed: " + e + ")";
        }
    }

    private static long inProgress(Path base) throws Exception {
        return inProgressFiles(base).size();
    }

    private static void produce(
            String topic,
            List<InputCorpus.Input> inputs,
            int from,
            int to,
            long start,
            long step,
            int partitions) {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.setProperty(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = from; i < to; i++) {
                InputCorpus.Input in = inputs.get(i);
                producer.send(
                        new ProducerRecord<>(
                                topic, i % partitions, start + i * step, in.key(), in.value()));
            }
            producer.flush();
        }
    }
}
