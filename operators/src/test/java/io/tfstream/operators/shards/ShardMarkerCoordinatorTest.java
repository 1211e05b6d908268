package io.tfstream.operators.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.operators.compat.CommittableMessages;
import io.tfstream.operators.shards.store.ShardName;
import io.tfstream.shards.ShardManifest;
import io.tfstream.shards.ShardSuccessMarker;
import io.tfstream.tfrecord.Compression;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessageTypeInfo;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When the coordinator asks for a bucket's {@code _SUCCESS}: at the first barrier after the
 * watermark passed the bucket's end plus the delay, again for a late shard, for every awaiting
 * bucket at the end of input, and for a bucket awaited across a restore. Shards pass at once.
 */
class ShardMarkerCoordinatorTest {
    private static final long HOUR_10 = Instant.parse("2026-11-24T10:00:00Z").toEpochMilli();
    private static final long HOUR_11 = HOUR_10 + 3_600_000;
    private static final String B10 = "dt=2026-11-24/hour=10";
    private static final String B11 = "dt=2026-11-24/hour=11";
    private static final long DELAY = Duration.ofMinutes(1).toMillis();

    @TempDir Path base;

    private ShardSettings settings() {
        return ShardTesting.settings(base, Compression.NONE, 1 << 20, Duration.ofHours(1), true);
    }

    private OneInputStreamOperatorTestHarness<
                    CommittableMessage<ShardCommittable>, CommittableMessage<ShardCommittable>>
            harness(OperatorSubtaskState state) throws Exception {
        return harness(state, settings());
    }

    private OneInputStreamOperatorTestHarness<
                    CommittableMessage<ShardCommittable>, CommittableMessage<ShardCommittable>>
            harness(OperatorSubtaskState state, ShardSettings settings) throws Exception {
        // The committables' own serializer: Flink 1.20's Kryo cannot build one for records.
        TypeSerializer<CommittableMessage<ShardCommittable>> serializer =
                CommittableMessageTypeInfo.of(ShardCommittableSerializer::new)
                        .createSerializer(new ExecutionConfig().getSerializerConfig());
        var h =
                new OneInputStreamOperatorTestHarness<>(
                        new ShardMarkerCoordinator(settings), serializer);
        h.setup(serializer);
        if (state != null) {
            h.initializeState(state);
        }
        h.open();
        return h;
    }

    private static ShardCommittable.Shard shard(String bucket, String name, long t) {
        return new ShardCommittable.Shard(
                bucket, name, new byte[0], ShardTesting.stats(2, t), 0, 10, 1);
    }

    private static void send(
            OneInputStreamOperatorTestHarness<
                            CommittableMessage<ShardCommittable>,
                            CommittableMessage<ShardCommittable>>
                    h,
            ShardCommittable c)
            throws Exception {
        send(h, c, 1);
    }

    /** Sends {@code c} as a writer does with checkpoint {@code checkpoint}. */
    private static void send(
            OneInputStreamOperatorTestHarness<
                            CommittableMessage<ShardCommittable>,
                            CommittableMessage<ShardCommittable>>
                    h,
            ShardCommittable c,
            long checkpoint)
            throws Exception {
        h.processElement(
                new StreamRecord<>(
                        CommittableMessages.<ShardCommittable>summary(0, 1, checkpoint, 1)));
        h.processElement(new StreamRecord<>(new CommittableWithLineage<>(c, checkpoint, 0)));
    }

    private static List<ShardCommittable> out(
            OneInputStreamOperatorTestHarness<
                            CommittableMessage<ShardCommittable>,
                            CommittableMessage<ShardCommittable>>
                    h) {
        List<ShardCommittable> cs =
                h.extractOutputValues().stream()
                        .map(m -> ((CommittableWithLineage<ShardCommittable>) m).getCommittable())
                        .toList();
        h.getOutput().clear();
        return cs;
    }

    /** What the coordinator sent, without the history stamps and lineages. */
    private static List<ShardCommittable> plain(
            OneInputStreamOperatorTestHarness<
                            CommittableMessage<ShardCommittable>,
                            CommittableMessage<ShardCommittable>>
                    h) {
        return out(h).stream()
                .map(
                        c ->
                                c instanceof ShardCommittable.Shard s
                                        ? (ShardCommittable) s.withHistory(null)
                                        : plainMarker((ShardCommittable.Marker) c))
                .toList();
    }

    private static ShardCommittable.Marker plainMarker(ShardCommittable.Marker m) {
        return new ShardCommittable.Marker(
                m.bucketDir(), m.bucket(), m.endMs(), m.shards(), m.jobs());
    }

    private ShardCommittable.Marker marker(
            List<String> jobs, String bucket, long end, String... shards) {
        return new ShardCommittable.Marker(
                settings().bucketDir(bucket), bucket, end, List.of(shards), jobs);
    }

    private static String jobOf(OneInputStreamOperatorTestHarness<?, ?> h) {
        return h.getEnvironment().getJobID().toHexString();
    }

    @Test
    void aBucketIsMarkedAtTheFirstBarrierAfterTheWatermarkPassedItsEndPlusTheDelay()
            throws Exception {
        var h = harness(null);
        ShardCommittable.Shard a = shard(B10, "a", HOUR_10);
        ShardCommittable.Shard b = shard(B11, "b", HOUR_11);
        send(h, a);
        send(h, b);
        assertEquals(List.of(a, b), plain(h), "shards pass at once, summaries do not");
        h.processWatermark(new Watermark(HOUR_11 + DELAY - 1));
        h.prepareSnapshotPreBarrier(1);
        assertEquals(List.of(), plain(h));
        h.processWatermark(new Watermark(HOUR_11 + DELAY));
        assertEquals(List.of(), plain(h), "not before the barrier");
        h.prepareSnapshotPreBarrier(2);
        assertEquals(List.of(marker(List.of(jobOf(h)), B10, HOUR_11, "a")), plain(h));

        // a late shard of the closed bucket: marked again at the next barrier, listing it
        ShardCommittable.Shard late = shard(B10, "late", HOUR_10 + 5);
        send(h, late);
        h.prepareSnapshotPreBarrier(3);
        assertEquals(List.of(late, marker(List.of(jobOf(h)), B10, HOUR_11, "late")), plain(h));

        h.endInput();
        assertEquals(List.of(marker(List.of(jobOf(h)), B11, HOUR_11 + 3_600_000, "b")), plain(h));
        h.close();
    }

    /** With data splits a bucket's splits share one marker, sent when the bucket closes. */
    @Test
    void withSplitsABucketGetsOneMarkerNamingTheShardsOfEverySplit() throws Exception {
        ShardSettings plain = settings();
        ShardSettings split =
                plain.withSplits(io.tfstream.shards.TfxSplits.parse("train:2,eval:1"), null, false);
        var h = harness(null, split);
        ShardCommittable.Shard a = shard(B10 + "/Split-train", "a", HOUR_10);
        ShardCommittable.Shard b = shard(B10 + "/Split-eval", "b", HOUR_10 + 7);
        send(h, a);
        send(h, b);
        assertEquals(List.of(a, b), plain(h));
        h.processWatermark(new Watermark(HOUR_11 + DELAY));
        h.prepareSnapshotPreBarrier(1);
        List<ShardCommittable> markers = plain(h);
        assertEquals(1, markers.size(), markers.toString());
        ShardCommittable.Marker m = (ShardCommittable.Marker) markers.get(0);
        assertEquals(B10, m.bucket(), "the event-time bucket, not a split");
        assertEquals(HOUR_11, m.endMs(), "the end of the hour, while the job runs");
        assertEquals(split.bucketDir(B10), m.bucketDir());
        assertEquals(java.util.Set.of("a", "b"), java.util.Set.copyOf(m.shards()));
        h.close();
    }

    @Test
    void aBucketAwaitingItsMarkerIsMarkedAfterARestore() throws Exception {
        var h = harness(null);
        send(h, shard(B10, "a", HOUR_10));
        h.prepareSnapshotPreBarrier(1);
        OperatorSubtaskState state = h.snapshot(1, 1);
        h.close();

        var restored = harness(state);
        restored.processWatermark(new Watermark(HOUR_11 + DELAY));
        restored.prepareSnapshotPreBarrier(2);
        // the marker lists the shards of both jobs of the history: the restored one's too
        List<String> history = new java.util.ArrayList<>(List.of(jobOf(h), jobOf(restored)));
        java.util.Collections.sort(history);
        assertEquals(List.of(marker(history, B10, HOUR_11, "a")), plain(restored));
        restored.close();
    }

    @Test
    void theJobsOfTheShardsSeenJoinTheHistoryAcrossARestore() throws Exception {
        String other = "fedcba9876543210fedcba9876543210";
        String name = new ShardName("part", other, "00c0ffee00c0ffee", 0, 0, ".tfrecord").format();
        var h = harness(null);
        send(h, shard(B10, name, HOUR_10));
        h.prepareSnapshotPreBarrier(1);
        OperatorSubtaskState state = h.snapshot(1, 1);
        h.close();

        var restored = harness(state);
        restored.endInput();
        List<String> history = new java.util.ArrayList<>(List.of(other, jobOf(h), jobOf(restored)));
        java.util.Collections.sort(history);
        assertEquals(List.of(marker(history, B10, HOUR_11, name)), plain(restored));
        restored.close();
    }

    /**
     * Each shard is stamped with the history and the checkpoint that commits it (at the end of
     * input, the one after the last barrier). A start from a snapshot ends the restored history at
     * the snapshot's checkpoint and begins a new one; markers carry that lineage.
     */
    @Test
    void shardsAreStampedWithTheirHistoryAndAStartFromASnapshotBeginsANewOne() throws Exception {
        var h = harness(null);
        ShardCommittable.Shard a = shard(B10, "a", HOUR_10);
        send(h, a, 3);
        ShardCommittable.Shard sentA = (ShardCommittable.Shard) out(h).get(0);
        String first = sentA.history().id();
        assertEquals(a.withHistory(new ShardManifest.History(first, 3)), sentA);
        h.prepareSnapshotPreBarrier(3);
        OperatorSubtaskState state = h.snapshot(3, 3);
        h.close();

        var restored = harness(state);
        ShardCommittable.Shard b = shard(B10, "b", HOUR_10 + 1);
        send(restored, b, 4);
        ShardCommittable.Shard c = shard(B11, "c", HOUR_11);
        restored.processElement(
                new StreamRecord<>(new CommittableWithLineage<>(c, Long.MAX_VALUE, 0)));
        restored.endInput();
        List<ShardCommittable> sent = out(restored);
        assertEquals(4, sent.size(), sent.toString());
        String second = ((ShardCommittable.Shard) sent.get(0)).history().id();
        assertTrue(!second.equals(first), "a new history after a start from a snapshot");
        assertEquals(b.withHistory(new ShardManifest.History(second, 4)), sent.get(0));
        assertEquals(
                c.withHistory(new ShardManifest.History(second, 4)),
                sent.get(1),
                "at the end of input: committed with the checkpoint after the last barrier: "
                        + ((ShardCommittable.Shard) sent.get(1)).history());
        List<ShardSuccessMarker.Cut> lineage =
                List.of(
                        new ShardSuccessMarker.Cut(first, 3),
                        new ShardSuccessMarker.Cut(second, Long.MAX_VALUE));
        for (ShardCommittable m : sent.subList(2, 4)) {
            assertEquals(lineage, ((ShardCommittable.Marker) m).histories(), m.toString());
        }
        assertEquals(List.of("a", "b"), ((ShardCommittable.Marker) sent.get(2)).shards());
        restored.close();
    }

    /**
     * A failover's retirement waits until a checkpoint after it has completed (Flink retains one by
     * default: then none names the superseded file), and goes on at the next barrier; one still
     * held survives a restore of the coordinator and goes on at the end of input.
     */
    @Test
    void aRetirementIsHeldUntilACheckpointAfterItHasCompleted() throws Exception {
        var h = harness(null);
        h.prepareSnapshotPreBarrier(4);
        ShardCommittable.Retire r =
                new ShardCommittable.Retire(B10, "a", new byte[] {1}, 4, jobOf(h));
        send(h, r, 5);
        assertEquals(List.of(), out(h), "held");
        h.notifyOfCompletedCheckpoint(4);
        h.prepareSnapshotPreBarrier(5);
        assertEquals(List.of(), out(h), "a checkpoint before it does not count");
        h.notifyOfCompletedCheckpoint(5);
        h.prepareSnapshotPreBarrier(6);
        assertEquals(List.of(r), out(h), "passed on after a checkpoint past it completed");

        ShardCommittable.Retire later =
                new ShardCommittable.Retire(B11, "b", new byte[] {2}, 6, jobOf(h));
        send(h, later, 7);
        h.prepareSnapshotPreBarrier(7);
        OperatorSubtaskState state = h.snapshot(7, 7);
        h.close();
        var restored = harness(state);
        restored.prepareSnapshotPreBarrier(8);
        assertEquals(List.of(), out(restored), "still held after the restore");
        restored.endInput();
        assertEquals(List.of(later), out(restored), "at the end of input");
        restored.close();
    }

    /**
     * A savepoint that may hold open shards is noted beside the shards before it is taken; a
     * drained stop's savepoint and a checkpoint are not.
     */
    @Test
    void aSavepointThatMayHoldOpenShardsIsNotedAndADrainedOneIsNot() throws Exception {
        String path = base.toUri().toString();
        var h = harness(null);
        h.snapshotWithLocalState(
                3, 3, org.apache.flink.runtime.checkpoint.CheckpointType.CHECKPOINT);
        assertTrue(!SavepointNotes.any(path, jobOf(h)), "a checkpoint");
        h.snapshotWithLocalState(
                4,
                4,
                org.apache.flink.runtime.checkpoint.SavepointType.terminate(
                        org.apache.flink.core.execution.SavepointFormatType.CANONICAL));
        assertTrue(!SavepointNotes.any(path, jobOf(h)), "a drained stop's savepoint");
        h.snapshotWithLocalState(
                5,
                5,
                org.apache.flink.runtime.checkpoint.SavepointType.savepoint(
                        org.apache.flink.core.execution.SavepointFormatType.CANONICAL));
        assertTrue(SavepointNotes.any(path, jobOf(h)), "a savepoint");
        h.close();
    }

    @Test
    void aBucketOfProcessingTimeIsMarkedAtTheEndOfInputOnly() throws Exception {
        var h = harness(null);
        // its records' event times lie outside the bucket (bucketed by processing time)
        send(h, shard(B11, "p", HOUR_10));
        h.processWatermark(new Watermark(Long.MAX_VALUE - 1));
        h.prepareSnapshotPreBarrier(1);
        assertEquals(1, plain(h).size());
        h.endInput();
        assertEquals(List.of(marker(List.of(jobOf(h)), B11, Long.MIN_VALUE, "p")), plain(h));
        h.close();
    }
}
