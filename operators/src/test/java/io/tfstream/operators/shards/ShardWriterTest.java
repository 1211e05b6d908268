package io.tfstream.operators.shards;

import static io.tfstream.operators.shards.ShardTesting.JOB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.model.LostShardAction;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.shards.store.ShardName;
import io.tfstream.operators.shards.store.ShardStore;
import io.tfstream.shards.ShardManifest;
import io.tfstream.shards.TfxSplits;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The shard writer on a real local store: shards stay open across checkpoints and are finished by
 * size, age, bucket close, the open-shard cap and the end of input; a restore resumes them with
 * what the checkpoint held, and nothing written after it.
 */
class ShardWriterTest {
    private static final long HOUR_10 = Instant.parse("2026-11-24T10:00:00Z").toEpochMilli();
    private static final long HOUR = 3_600_000;

    @TempDir Path base;
    private long now = HOUR_10;

    private ShardWriter writer(ShardSettings s, Collection<ShardWriterState> state)
            throws Exception {
        return writer(s, state, 0, -1);
    }

    private static SourceRecord record(int i, long t) {
        return SourceRecord.of(("record-" + i).getBytes(), "examples", 0, i, t);
    }

    private static void write(ShardWriter w, int from, int to, long t) throws Exception {
        for (int i = from; i < to; i++) {
            w.write(record(i, t), new ShardTesting.Context(t, Long.MIN_VALUE));
        }
    }

    private List<String> commit(ShardSettings s, Collection<ShardCommittable> cs) throws Exception {
        ShardCommitter c = new ShardCommitter(s, new UnregisteredMetricsGroup());
        List<org.apache.flink.api.connector.sink2.Committer.CommitRequest<ShardCommittable>> rs =
                new ArrayList<>();
        cs.forEach(x -> rs.add(new ShardCommitterTest.Request(x)));
        c.commit(rs);
        c.close();
        return cs.stream().map(x -> ((ShardCommittable.Shard) x).name()).toList();
    }

    private static List<String> read(Path shard) throws Exception {
        List<String> out = new ArrayList<>();
        try (TfRecordReader r = TfRecordFiles.openReader(shard, TfRecordReadOptions.defaults())) {
            while (r.next()) {
                out.add(new String(r.copy()));
            }
        }
        return out;
    }

    private static List<String> names(int from, int to) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add("record-" + i);
        }
        return out;
    }

    private List<Path> visible() throws Exception {
        try (Stream<Path> files = Files.walk(base)) {
            // as readers list: no name below base starting with '.' or '_' (the metadata tree)
            return files.filter(Files::isRegularFile)
                    .filter(
                            p -> {
                                for (Path part : base.relativize(p)) {
                                    String n = part.toString();
                                    if (n.startsWith(".") || n.startsWith("_")) {
                                        return false;
                                    }
                                }
                                return true;
                            })
                    .sorted()
                    .toList();
        }
    }

    @ParameterizedTest
    @EnumSource(Compression.class)
    void aShardLivesAcrossCheckpointsAndIsFinishedAtMaxAge(Compression c) throws Exception {
        ShardSettings s = ShardTesting.settings(base, c, 1 << 30, Duration.ofMinutes(10), false);
        ShardWriter w = writer(s, List.of());
        write(w, 0, 10, HOUR_10);
        assertEquals(List.of(), w.prepareCommit());
        w.snapshotState(1);
        write(w, 10, 20, HOUR_10);
        now += Duration.ofMinutes(5).toMillis();
        assertEquals(List.of(), w.prepareCommit());
        w.snapshotState(2);
        write(w, 20, 30, HOUR_10);
        assertEquals(List.of(), visible(), "nothing visible before the commit");
        now += Duration.ofMinutes(5).toMillis();
        Collection<ShardCommittable> done = w.prepareCommit();
        assertEquals(1, done.size());
        ShardCommittable.Shard shard = (ShardCommittable.Shard) done.iterator().next();
        assertEquals(3, shard.segments());
        assertEquals(30, shard.stats().records());
        assertEquals(0, w.openShards());
        ShardName name = ShardName.parse(shard.name(), "part", s.suffix()).orElseThrow();
        assertEquals(
                new ShardName("part", JOB, name.run(), 0, 0, s.suffix()),
                name,
                "this job, a run of its own, subtask 0, the first counter");
        commit(s, done);
        Path file = base.resolve("dt=2026-11-24/hour=10").resolve(shard.name());
        assertEquals(names(0, 30), read(file));
        assertEquals(Files.size(file), shard.fileBytes());
        w.close();
    }

    @Test
    void aShardIsFinishedAtTheTargetSizeAndTheNextOneNamedAfterIt() throws Exception {
        // 9 records of 8 bytes, framed 24 bytes each: the target size exactly
        ShardSettings s =
                ShardTesting.settings(base, Compression.NONE, 216, Duration.ofHours(1), false);
        ShardWriter w = writer(s, List.of());
        write(w, 0, 8, HOUR_10);
        assertEquals(1, w.openShards());
        write(w, 8, 9, HOUR_10);
        assertEquals(0, w.openShards(), "full: finished at once");
        w.snapshotState(7);
        write(w, 9, 10, HOUR_10);
        List<String> committed = commit(s, w.prepareCommit());
        ShardName first = ShardName.parse(committed.get(0), "part", ".tfrecord").orElseThrow();
        assertEquals(1, committed.size());
        assertEquals(0, first.counter());
        assertEquals(
                names(0, 9), read(base.resolve("dt=2026-11-24/hour=10").resolve(committed.get(0))));
        w.flush(true);
        assertEquals(
                List.of(new ShardName("part", JOB, first.run(), 0, 1, ".tfrecord").format()),
                commit(s, w.prepareCommit()),
                "the next one of the same run");
        w.close();
    }

    /**
     * A graceful cancel (close with no checkpoint after it): the shard opened since the last
     * checkpoint and the finished shard not yet passed on leave no file; the shard a checkpoint
     * persisted and the finished shard passed on to the commit path keep theirs. Before the store
     * tracked what it handed out, both unsnapshotted files stayed behind.
     */
    @Test
    void aGracefulCancelRemovesWhatNoSnapshotHoldsAndKeepsTheRest() throws Exception {
        // 9 records of 8 bytes, framed 24 bytes each: the target size exactly
        ShardSettings s =
                ShardTesting.settings(base, Compression.NONE, 216, Duration.ofHours(1), false);
        ShardWriter w = writer(s, List.of());
        write(w, 0, 9, HOUR_10); // full: finished
        Collection<ShardCommittable> passed = w.prepareCommit();
        assertEquals(1, passed.size());
        write(w, 10, 12, HOUR_10 + HOUR);
        w.snapshotState(1); // the hour-11 shard is held by the checkpoint
        write(w, 20, 29, HOUR_10 + 2 * HOUR); // full: finished, not passed on
        write(w, 30, 32, HOUR_10 + 3 * HOUR); // opened since the checkpoint
        assertEquals(4, inProgress().size(), inProgress().toString());
        w.close();
        List<String> left =
                inProgress().stream().map(p -> base.relativize(p.getParent()).toString()).toList();
        assertEquals(List.of("dt=2026-11-24/hour=10", "dt=2026-11-24/hour=11"), left);
        List<String> committed = commit(s, passed);
        assertEquals(
                names(0, 9), read(base.resolve("dt=2026-11-24/hour=10").resolve(committed.get(0))));
    }

    /** A writer restored with {@code state} of checkpoint {@code checkpoint} on {@code attempt}. */
    private ShardWriter writer(
            ShardSettings s, Collection<ShardWriterState> state, int attempt, long checkpoint)
            throws Exception {
        return ShardTesting.writer(s, 0, state, attempt, checkpoint, () -> now);
    }

    /**
     * A crash loop: two failovers restore the same checkpoint, the first dies before its next one.
     * The copy is named after the original and the checkpoint, so the second attempt replaces the
     * first attempt's copy instead of adding one; it names the original for retirement, and the
     * committer removes it. Nothing grows with the number of failures: one original and one copy
     * until the retirement, then the copy alone, committed whole.
     */
    @Test
    void aCrashLoopReplacesTheEarlierAttemptsCopyAndRetiresTheOriginal() throws Exception {
        ShardSettings s = longLived();
        List<ShardWriterState> state = oneOpenShardAtCheckpoint5(s);
        Path original = inProgress().get(0);
        // killed: no close

        ShardWriter first = writer(s, state, 1, 5);
        write(first, 10, 12, HOUR_10);
        assertEquals(2, inProgress().size(), "the original and the first attempt's copy");
        // killed again before its next checkpoint

        ShardWriter second = writer(s, state, 2, 5);
        List<Path> files = inProgress();
        assertEquals(2, files.size(), "the earlier copy replaced, not added to: " + files);
        assertTrue(files.contains(original));
        List<ShardCommittable> out = new ArrayList<>(second.prepareCommit());
        String originalName = ((ShardWriterState.Open) state.get(0)).name();
        assertEquals(
                List.of(
                        new ShardCommittable.Retire(
                                "dt=2026-11-24/hour=10",
                                originalName,
                                ((ShardWriterState.Open) state.get(0)).persisted(),
                                5,
                                JOB)),
                out,
                "the original named for retirement with the first committables");
        ShardCommitter committer = new ShardCommitter(s, new UnregisteredMetricsGroup());
        committer.commit(List.of(new ShardCommitterTest.Request(out.get(0))));
        assertEquals(1, committer.retired.getCount());
        assertTrue(!Files.exists(original), "the superseded original removed");
        second.flush(true);
        List<String> committed = commit(s, second.prepareCommit());
        assertEquals(List.of(), inProgress());
        assertEquals(
                names(0, 10),
                read(base.resolve("dt=2026-11-24/hour=10").resolve(committed.get(0))),
                "what the checkpoint held, nothing of the failed attempts");
        ShardName copy = ShardName.parse(committed.get(0), "part", ".tfrecord").orElseThrow();
        assertTrue(!committed.get(0).equals(originalName));
        assertEquals(0, copy.counter());
        committer.close();
        second.close();
    }

    /**
     * A start from a snapshot (attempt 0) or a failover of a job that took a savepoint keeps every
     * file it copies from, and names none for retirement: a savepoint may restore them again.
     */
    @Test
    void aStartFromASnapshotOrAJobWithASavepointRetiresNothing() throws Exception {
        ShardSettings s = longLived();
        List<ShardWriterState> state = oneOpenShardAtCheckpoint5(s);

        ShardWriter started = writer(s, state, 0, 5);
        assertEquals(List.of(), started.prepareCommit(), "a start from a snapshot");
        started.close();

        SavepointNotes.write(base.toUri().toString(), JOB, 4);
        ShardWriter first = writer(s, state, 1, 5);
        ShardWriter second = writer(s, state, 2, 5);
        assertEquals(List.of(), second.prepareCommit(), "a job with a savepoint");
        assertEquals(3, inProgress().size(), "both attempts' copies kept: " + inProgress());
        first.close();
        second.close();
    }

    /** Uncompressed shards that stay open: a 1 GiB target, an hour's age. */
    /**
     * What a killed attempt opened after the checkpoint a failover restores (a shard of a new
     * bucket, in no checkpoint) is removed by the failover's writer, every time: a crash loop
     * leaves nothing of it. With a savepoint note of the job it stays, since that savepoint may
     * hold it. Before the open-shard entries, every failover left one such file per shard opened
     * since the checkpoint.
     */
    @Test
    void aFailoverRemovesWhatAKilledAttemptOpenedAfterTheRestoredCheckpoint() throws Exception {
        ShardSettings s = longLived();
        ShardWriter killed = writer(s, List.of());
        write(killed, 0, 10, HOUR_10);
        killed.prepareCommit();
        List<ShardWriterState> state = killed.snapshotState(5);
        write(killed, 10, 12, HOUR_10 + HOUR); // a new bucket after the barrier: in no checkpoint
        assertEquals(2, inProgress().size());
        Path original = inProgress().get(0);

        for (int attempt = 1; attempt <= 3; attempt++) {
            ShardWriter again = writer(s, state, attempt, 5);
            List<Path> files = inProgress();
            assertTrue(files.contains(original), "the checkpoint's shard stays: " + files);
            assertTrue(
                    files.stream().noneMatch(p -> p.toString().contains("hour=11")),
                    "attempt "
                            + attempt
                            + ": the shard opened after the checkpoint is gone: "
                            + files);
            write(again, 20, 22, HOUR_10 + 2 * HOUR); // and dies too, after the barrier
        }
        Path journal = base.resolve("_tfstream").resolve(OpenShardJournal.DIR);
        try (Stream<Path> entries = Files.walk(journal)) {
            assertEquals(
                    2,
                    entries.filter(Files::isRegularFile).count(),
                    "the checkpoint's shard and the last attempt's hour-12 shard (a failover's"
                            + " copies have none: the next failover finds them by name)");
        }

        SavepointNotes.write(base.toUri().toString(), JOB, 6);
        writer(s, state, 4, 5);
        assertTrue(
                inProgress().stream().anyMatch(p -> p.toString().contains("hour=12")),
                "a savepoint of the job may hold it: kept");
    }

    private ShardSettings longLived() {
        return ShardTesting.settings(base, Compression.NONE, 1 << 30, Duration.ofHours(1), false);
    }

    /**
     * The state at checkpoint 5 of a writer with one open shard of records 0 to 9 (hour 10); the
     * writer is left as a kill leaves it, unclosed.
     */
    private List<ShardWriterState> oneOpenShardAtCheckpoint5(ShardSettings s) throws Exception {
        ShardWriter w = writer(s, List.of());
        write(w, 0, 10, HOUR_10);
        w.prepareCommit();
        return w.snapshotState(5);
    }

    private List<Path> inProgress() throws Exception {
        try (Stream<Path> files = Files.walk(base)) {
            return files.filter(Files::isRegularFile)
                    .filter(p -> p.getFileName().toString().contains(".inprogress."))
                    .sorted()
                    .toList();
        }
    }

    /**
     * With TFX data splits each record goes to {@code <bucket>/Split-<name>/}, the split TFX's
     * ExampleGen gives its bytes, one open shard per bucket and split.
     */
    @Test
    void withSplitsEachRecordIsInTheSplitDirectoryTfxGivesIt() throws Exception {
        ShardSettings plain =
                ShardTesting.settings(base, Compression.NONE, 1 << 30, Duration.ofHours(1), false);
        TfxSplits splits = TfxSplits.parse("train:2,eval:1");
        ShardSettings s = plain.withSplits(splits, null, false);
        ShardWriter w = writer(s, List.of());
        write(w, 0, 300, HOUR_10);
        assertEquals(2, w.openShards(), "one open shard per split");
        w.flush(true);
        List<ShardCommittable> done = new ArrayList<>(w.prepareCommit());
        commit(s, done);
        Map<String, List<String>> bySplit = new java.util.TreeMap<>();
        for (ShardCommittable c : done) {
            ShardCommittable.Shard shard = (ShardCommittable.Shard) c;
            Path file = base.resolve(shard.bucket()).resolve(shard.name());
            bySplit.put(shard.bucket(), read(file));
        }
        Map<String, List<String>> expected = new java.util.TreeMap<>();
        for (String r : names(0, 300)) {
            String dir =
                    "dt=2026-11-24/hour=10/"
                            + TfxSplits.directory(splits.of(r.getBytes(StandardCharsets.UTF_8)));
            expected.computeIfAbsent(dir, k -> new ArrayList<>()).add(r);
        }
        assertEquals(expected, bySplit);
        assertEquals(
                java.util.Set.of(
                        "dt=2026-11-24/hour=10/Split-train", "dt=2026-11-24/hour=10/Split-eval"),
                bySplit.keySet());
        w.close();
    }

    @Test
    void aShardIsFinishedAtTheCheckpointAfterTheWatermarkClosedItsBucket() throws Exception {
        ShardSettings s =
                ShardTesting.settings(base, Compression.GZIP, 1 << 30, Duration.ofHours(5), false);
        ShardWriter w = writer(s, List.of());
        write(w, 0, 5, HOUR_10);
        write(w, 5, 10, HOUR_10 + HOUR);
        w.writeWatermark(new Watermark(HOUR_10 + HOUR + 59_999));
        assertEquals(List.of(), w.prepareCommit(), "the delay has not passed");
        w.writeWatermark(new Watermark(HOUR_10 + HOUR + 60_000));
        Collection<ShardCommittable> done = w.prepareCommit();
        assertEquals(
                List.of("dt=2026-11-24/hour=10"),
                done.stream().map(ShardCommittable::bucket).toList());
        assertEquals(1, w.openShards());
        w.flush(true);
        assertEquals(1, w.prepareCommit().size(), "the end of input finishes the rest");
        w.close();
    }

    @Test
    void beyondTheCapTheOldestOpenShardIsFinished() throws Exception {
        ShardSettings s =
                ShardTesting.settings(base, Compression.NONE, 1 << 30, Duration.ofHours(5), false);
        ShardWriter w = writer(s, List.of());
        for (int b = 0; b <= ShardWriter.MAX_OPEN_SHARDS; b++) {
            write(w, b, b + 1, HOUR_10 + b * HOUR);
        }
        assertEquals(ShardWriter.MAX_OPEN_SHARDS, w.openShards());
        Collection<ShardCommittable> done = w.prepareCommit();
        assertEquals(
                List.of("dt=2026-11-24/hour=10"),
                done.stream().map(ShardCommittable::bucket).toList());
        w.close();
    }

    @ParameterizedTest
    @EnumSource(Compression.class)
    void aRestoreResumesOpenShardsAtTheCheckpointAndDropsWhatCameAfter(Compression c)
            throws Exception {
        ShardSettings s = ShardTesting.settings(base, c, 1 << 30, Duration.ofHours(1), false);
        ShardWriter w = writer(s, List.of());
        write(w, 0, 100, HOUR_10);
        w.prepareCommit();
        w.snapshotState(1);
        write(w, 100, 200, HOUR_10);
        w.prepareCommit();
        List<ShardWriterState> state = w.snapshotState(2);
        write(w, 200, 300, HOUR_10); // lost with the failed attempt, written again after restore
        w.close(); // a killed attempt: the in-progress file stays as it is

        ShardWriterStateSerializer ser = new ShardWriterStateSerializer();
        List<ShardWriterState> restored = new ArrayList<>();
        for (ShardWriterState x : state) {
            restored.add(ser.deserialize(ser.getVersion(), ser.serialize(x)));
        }
        ShardWriter again = writer(s, restored);
        assertEquals(1, again.openShards());
        write(again, 200, 300, HOUR_10);
        write(again, 300, 310, HOUR_10 + HOUR);
        again.flush(true);
        Collection<ShardCommittable> done = again.prepareCommit();
        assertEquals(2, done.size());
        ShardCommittable.Shard first = (ShardCommittable.Shard) done.iterator().next();
        assertEquals(300, first.stats().records());
        assertEquals(3, first.segments());
        commit(s, done);
        assertEquals(
                names(0, 300), read(base.resolve("dt=2026-11-24/hour=10").resolve(first.name())));
        // the restored writer goes on in a copy named with a run of its own, never the failed
        // one's (whose in-progress file a second job restored from the same state may still
        // append to), and names its next shard with the same run
        ShardName original =
                ShardName.parse(((ShardWriterState.Open) state.get(0)).name(), "part")
                        .orElseThrow();
        ShardName resumed = ShardName.parse(first.name(), "part").orElseThrow();
        ShardName second =
                ShardName.parse(
                                ((ShardCommittable.Shard) new ArrayList<>(done).get(1)).name(),
                                "part")
                        .orElseThrow();
        assertTrue(!resumed.run().equals(original.run()), resumed + " after " + original);
        assertEquals(0, resumed.counter());
        assertEquals(resumed.run(), second.run());
        assertEquals(1, second.counter());
        again.close();
    }

    @Test
    void theStateIsTheOpenShardsAndTheLineageOfOlderVersionsIsIgnored() throws Exception {
        ShardSettings s =
                ShardTesting.settings(base, Compression.NONE, 1 << 30, Duration.ofHours(1), false);
        ShardWriter w = writer(s, List.of());
        assertEquals(List.of(), w.snapshotState(4));
        write(w, 0, 1, HOUR_10);
        List<ShardWriterState> state = new ArrayList<>(w.snapshotState(5));
        assertEquals(1, state.size());
        assertTrue(state.get(0) instanceof ShardWriterState.Open);
        w.close();
        state.add(0, new ShardWriterState.Lineage(JOB, 0, 5, 7));
        ShardWriter again = writer(s, state);
        assertEquals(1, again.openShards());
        again.close();
    }

    @Test
    void twoWritersRestoredFromOneCheckpointNeverNameANewShardAlike() throws Exception {
        ShardSettings s =
                ShardTesting.settings(base, Compression.NONE, 1 << 30, Duration.ofHours(1), false);
        java.util.Set<String> names = new java.util.HashSet<>();
        for (int attempt = 0; attempt < 3; attempt++) {
            ShardWriter w = writer(s, List.of());
            write(w, 0, 1, HOUR_10);
            write(w, 1, 2, HOUR_10 + HOUR);
            w.flush(true);
            for (ShardCommittable c : w.prepareCommit()) {
                assertTrue(names.add(((ShardCommittable.Shard) c).name()), c.toString());
            }
            w.close();
        }
        assertEquals(6, names.size());
    }

    @Test
    void aShardWhoseInProgressFileIsGoneFailsTheRestoreOrIsDroppedAndCounted() throws Exception {
        List<ShardWriterState> state;
        ShardSettings fail =
                ShardTesting.settings(base, Compression.NONE, 1 << 30, Duration.ofHours(1), false);
        ShardWriter w = writer(fail, List.of());
        write(w, 0, 5, HOUR_10);
        write(w, 5, 7, HOUR_10 + HOUR);
        state = w.snapshotState(1);
        w.close();
        // the first bucket's in-progress file is removed behind the job's back
        try (Stream<Path> files = Files.walk(base.resolve("dt=2026-11-24/hour=10"))) {
            for (Path p : files.filter(Files::isRegularFile).toList()) {
                Files.delete(p);
            }
        }
        java.io.IOException e = assertThrows(java.io.IOException.class, () -> writer(fail, state));
        assertTrue(e.getMessage().contains("is lost"), e.getMessage());
        assertTrue(e.getMessage().contains("it held 5 records"), e.getMessage());
        assertTrue(e.getMessage().contains("shards.on-lost-shard: drop"), e.getMessage());

        ShardSettings drop =
                ShardTesting.settings(
                        base,
                        Compression.NONE,
                        1 << 30,
                        Duration.ofHours(1),
                        false,
                        LostShardAction.DROP,
                        ShardSettings.DEFAULT_CHECKPOINT_BUDGET);
        org.apache.flink.metrics.groups.UnregisteredMetricsGroup metrics =
                new org.apache.flink.metrics.groups.UnregisteredMetricsGroup();
        CountingGroup lostMetrics = new CountingGroup();
        ShardWriter again =
                new ShardWriter(
                        drop,
                        drop.storeFactory().create(),
                        JOB,
                        0,
                        state,
                        0,
                        -1,
                        () -> now,
                        new ShardWriterMetrics(metrics),
                        new LostShards(drop.onLostShard(), lostMetrics));
        assertEquals(1, again.openShards(), "the other bucket's shard goes on");
        again.flush(true);
        Collection<ShardCommittable> done = again.prepareCommit();
        assertEquals(1, done.size());
        assertEquals(2, ((ShardCommittable.Shard) done.iterator().next()).stats().records());
        assertEquals(1, lostMetrics.counters.get("shardsLost").getCount());
        assertEquals(5, lostMetrics.counters.get("shardRecordsLost").getCount());
        again.close();
    }

    /**
     * A writer closed while its store cannot remove what no checkpoint holds (S3 answering the
     * abort with 503 SlowDown, as the soak found): close() returns, since Flink also closes writers
     * while cleaning up after a failure and takes an exception there as fatal to the TaskManager,
     * which took the job's slots with it. What is left was never in a checkpoint.
     */
    @Test
    void aCloseWhoseCleanupFailsLeavesTheRestAndDoesNotThrow() throws Exception {
        ShardSettings s =
                ShardTesting.settings(base, Compression.NONE, 1 << 30, Duration.ofHours(1), false);
        ShardStore real = s.storeFactory().create();
        ShardStore refusing =
                (ShardStore)
                        java.lang.reflect.Proxy.newProxyInstance(
                                ShardStore.class.getClassLoader(),
                                new Class<?>[] {ShardStore.class},
                                (proxy, method, args) -> {
                                    if (method.getName().equals("close")) {
                                        real.close();
                                        throw new java.io.IOException(
                                                "AbortMultipartUpload: Please reduce your request"
                                                        + " rate. (Status Code: 503)");
                                    }
                                    try {
                                        return method.invoke(real, args);
                                    } catch (java.lang.reflect.InvocationTargetException e) {
                                        throw e.getCause();
                                    }
                                });
        ShardWriter w =
                new ShardWriter(
                        s,
                        refusing,
                        JOB,
                        0,
                        List.of(),
                        0,
                        -1,
                        () -> now,
                        new ShardWriterMetrics(new UnregisteredMetricsGroup()),
                        new LostShards(s.onLostShard(), new UnregisteredMetricsGroup()));
        write(w, 0, 3, HOUR_10);
        w.close();
        assertEquals(0, w.openShards());
    }

    /** A metric group that keeps its counters, to read what was counted. */
    private static final class CountingGroup
            extends org.apache.flink.metrics.groups.UnregisteredMetricsGroup {
        final java.util.Map<String, org.apache.flink.metrics.Counter> counters =
                new java.util.HashMap<>();

        @Override
        public org.apache.flink.metrics.Counter counter(String name) {
            return counters.computeIfAbsent(
                    name, n -> new org.apache.flink.metrics.SimpleCounter());
        }

        @Override
        public org.apache.flink.metrics.MetricGroup addGroup(String name) {
            return this;
        }
    }

    @Test
    void aSchemaChangeRollsTheOpenShardAndEachManifestNamesItsSchema() throws Exception {
        ShardSettings s =
                ShardTesting.settings(base, Compression.NONE, 1 << 30, Duration.ofHours(1), false);
        ShardWriter w = writer(s, List.of());
        writeUnder(w, 0, 3, "f1");
        List<ShardWriterState> state = w.snapshotState(1);
        assertEquals("f1", ((ShardWriterState.Open) state.get(0)).schemaFingerprint());
        w.close();
        // Restored, the open shard keeps its schema: more of it joins, another schema rolls it.
        ShardWriter again = writer(s, state);
        writeUnder(again, 3, 5, "f1");
        assertEquals(1, again.openShards());
        writeUnder(again, 5, 8, "f2");
        assertEquals(1, again.openShards());
        again.flush(true);
        List<ShardCommittable> done = new ArrayList<>(again.prepareCommit());
        assertEquals(2, done.size());
        List<String> shards = commit(s, done);
        again.close();
        for (int k = 0; k < 2; k++) {
            Path shard = base.resolve("dt=2026-11-24/hour=10").resolve(shards.get(k));
            assertEquals(k == 0 ? names(0, 5) : names(5, 8), read(shard));
            ShardManifest m =
                    ShardManifest.fromJson(
                            Files.readString(
                                    Path.of(
                                            s.layout()
                                                    .manifestPath(
                                                            base.toString(),
                                                            "dt=2026-11-24/hour=10",
                                                            shards.get(k)))));
            assertEquals(k == 0 ? "f1" : "f2", m.schemaFingerprint());
        }
    }

    private static void writeUnder(ShardWriter w, int from, int to, String fingerprint)
            throws Exception {
        for (int i = from; i < to; i++) {
            w.write(
                    record(i, HOUR_10).withSchemaFingerprint(fingerprint),
                    new ShardTesting.Context(HOUR_10, Long.MIN_VALUE));
        }
    }
}
