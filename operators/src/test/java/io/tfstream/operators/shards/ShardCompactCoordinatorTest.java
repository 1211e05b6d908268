package io.tfstream.operators.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.operators.source.SourceRecord;
import io.tfstream.tfrecord.Compression;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.flink.connector.file.sink.FileSinkCommittable;
import org.apache.flink.connector.file.sink.compactor.operator.CompactorRequest;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.api.functions.sink.filesystem.InProgressFileWriter;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When the coordinator compacts a bucket's parts, and when it asks for the bucket's {@code
 * _SUCCESS}: by size, by checkpoint count (kept across a restore), when the watermark passes the
 * bucket's end plus the delay, again for late parts, and at the end of the input.
 */
class ShardCompactCoordinatorTest {
    private static final long HOUR_10 = Instant.parse("2026-11-24T10:00:00Z").toEpochMilli();
    private static final long HOUR_11 = HOUR_10 + 3_600_000;
    private static final long DELAY = 60_000;

    @TempDir Path dir;
    private int parts;

    private TfRecordShardSink sink(long targetSize, int checkpoints) {
        return new TfRecordShardSink(
                new ShardSettings(
                        dir.toUri().toString(),
                        Compression.NONE,
                        "part",
                        targetSize,
                        checkpoints,
                        "'dt='yyyy-MM-dd/'hour='HH",
                        ZoneOffset.UTC,
                        null,
                        true,
                        "f",
                        true,
                        Duration.ofMillis(DELAY)),
                "shard-compact-coordinator",
                "shard-compactor");
    }

    private OneInputStreamOperatorTestHarness<
                    CommittableMessage<FileSinkCommittable>, CompactorRequest>
            harness(TfRecordShardSink sink, OperatorSubtaskState state) throws Exception {
        OneInputStreamOperatorTestHarness<CommittableMessage<FileSinkCommittable>, CompactorRequest>
                h =
                        new OneInputStreamOperatorTestHarness<>(
                                new ShardCompactCoordinatorFactory(sink));
        if (state == null) {
            h.setup();
        } else {
            h.initializeState(state);
        }
        h.open();
        return h;
    }

    /** A real hidden part file of {@code records} records of 10 bytes at event time {@code t}. */
    private FileSinkCommittable part(TfRecordShardSink sink, String bucket, long t, int records)
            throws Exception {
        ShardBucketWriter.EventTimes times = new ShardBucketWriter.EventTimes();
        ShardBucketWriter w = sink.bucketWriter(times);
        org.apache.flink.core.fs.Path path =
                new org.apache.flink.core.fs.Path(
                        dir.toUri().toString() + bucket + "/.part-u-" + parts++ + ".tfrecord");
        InProgressFileWriter<SourceRecord, String> f = w.openNewInProgressFile(bucket, path, 0);
        times.current = t;
        for (int i = 0; i < records; i++) {
            f.write(SourceRecord.of(new byte[10], "t", 0, i, t), 0);
        }
        return new FileSinkCommittable(bucket, f.closeForCommit());
    }

    private static void send(
            OneInputStreamOperatorTestHarness<
                            CommittableMessage<FileSinkCommittable>, CompactorRequest>
                    h,
            FileSinkCommittable c)
            throws Exception {
        h.processElement(new StreamRecord<>(new CommittableWithLineage<>(c, 1, 0)));
    }

    private static List<String> compacted(CompactorRequest r) {
        return r.getCommittableToCompact().stream()
                .map(c -> c.getPendingFile().getPath().getName())
                .toList();
    }

    private static ShardMarker marker(CompactorRequest r) {
        return r.getCommittableToPassthrough().stream()
                .map(c -> (ShardMarker) c.getPendingFile())
                .findFirst()
                .orElse(null);
    }

    @Test
    void partsAreCompactedOnceTheyReachTheTargetSize() throws Exception {
        TfRecordShardSink sink = sink(500, 100);
        var h = harness(sink, null);
        send(h, part(sink, "dt=2026-11-24/hour=10", HOUR_10, 10)); // 260 bytes
        assertEquals(0, h.extractOutputValues().size());
        send(h, part(sink, "dt=2026-11-24/hour=10", HOUR_10, 10));
        List<CompactorRequest> out = h.extractOutputValues();
        assertEquals(1, out.size());
        assertEquals(List.of(".part-u-0.tfrecord", ".part-u-1.tfrecord"), compacted(out.get(0)));
        assertEquals(null, marker(out.get(0)));
    }

    @Test
    void theCheckpointCountTowardsMaxAgeSurvivesARestore() throws Exception {
        TfRecordShardSink sink = sink(1 << 30, 3);
        var h = harness(sink, null);
        send(h, part(sink, "dt=2026-11-24/hour=10", HOUR_10, 1));
        h.prepareSnapshotPreBarrier(1);
        h.prepareSnapshotPreBarrier(2);
        OperatorSubtaskState state = h.snapshot(2, 0);
        h.close();
        var restored = harness(sink, state);
        assertEquals(0, restored.extractOutputValues().size());
        restored.prepareSnapshotPreBarrier(3);
        List<CompactorRequest> out = restored.extractOutputValues();
        assertEquals(1, out.size(), "the third checkpoint since the part, restore or not");
        assertEquals(List.of(".part-u-0.tfrecord"), compacted(out.get(0)));
    }

    @Test
    void aBucketClosesWhenTheWatermarkPassesItsEndPlusTheDelayAndAgainForLateParts()
            throws Exception {
        TfRecordShardSink sink = sink(500, 100);
        var h = harness(sink, null);
        String b10 = "dt=2026-11-24/hour=10";
        send(h, part(sink, b10, HOUR_10 + 5, 10));
        send(h, part(sink, b10, HOUR_10 + 7, 10)); // 520 bytes: compacted by size
        send(h, part(sink, b10, HOUR_10 + 9, 1));
        h.processWatermark(new Watermark(HOUR_11 + DELAY - 1));
        h.prepareSnapshotPreBarrier(1);
        assertEquals(1, h.extractOutputValues().size(), "not yet complete");

        h.processWatermark(new Watermark(HOUR_11 + DELAY));
        h.prepareSnapshotPreBarrier(2);
        List<CompactorRequest> out = h.extractOutputValues();
        assertEquals(2, out.size());
        CompactorRequest last = out.get(1);
        assertEquals(List.of(".part-u-2.tfrecord"), compacted(last));
        ShardMarker m = marker(last);
        assertEquals(b10, m.bucket());
        assertEquals(HOUR_11, m.endMs());
        assertEquals(List.of("part-u-0.tfrecord", "part-u-2.tfrecord"), m.shards());

        // nothing more for the bucket: no further marker
        h.prepareSnapshotPreBarrier(3);
        assertEquals(2, h.extractOutputValues().size());

        // a late part: compacted at the next checkpoint, the marker written again
        send(h, part(sink, b10, HOUR_10 + 11, 1));
        h.prepareSnapshotPreBarrier(4);
        out = h.extractOutputValues();
        assertEquals(3, out.size());
        assertEquals(List.of(".part-u-3.tfrecord"), compacted(out.get(2)));
        assertEquals(List.of("part-u-3.tfrecord"), marker(out.get(2)).shards());
    }

    @Test
    void aBucketWhosePartsWereAllCompactedGetsAMarkerOfItsOwn() throws Exception {
        TfRecordShardSink sink = sink(100, 100);
        var h = harness(sink, null);
        send(h, part(sink, "dt=2026-11-24/hour=10", HOUR_10, 10));
        assertEquals(1, h.extractOutputValues().size());
        h.processWatermark(new Watermark(HOUR_11 + DELAY));
        h.prepareSnapshotPreBarrier(1);
        List<CompactorRequest> out = h.extractOutputValues();
        assertEquals(2, out.size());
        assertEquals(List.of(), compacted(out.get(1)));
        assertEquals(List.of("part-u-0.tfrecord"), marker(out.get(1)).shards());
    }

    @Test
    void theEndOfTheInputClosesEveryBucket() throws Exception {
        TfRecordShardSink sink = sink(1 << 30, 100);
        var h = harness(sink, null);
        send(h, part(sink, "dt=2026-11-24/hour=10", HOUR_10, 1));
        send(h, part(sink, "dt=2026-11-24/hour=11", HOUR_11, 1));
        h.endInput();
        List<CompactorRequest> out = h.extractOutputValues();
        assertEquals(2, out.size());
        for (CompactorRequest r : out) {
            assertEquals(1, compacted(r).size());
            assertTrue(marker(r) != null, r.getBucketId());
        }
    }
}
