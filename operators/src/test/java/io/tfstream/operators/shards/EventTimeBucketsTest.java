package io.tfstream.operators.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.DeadLetterReason;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.deadletter.DeadLetterOutput;
import io.tfstream.operators.source.SourceRecordSerializer;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.api.functions.sink.filesystem.BucketAssigner;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/** Event-time buckets, the processing-time fallback for skewed records, and the skew guard. */
@SuppressWarnings("try")
class EventTimeBucketsTest {
    private static final long T = 1_795_539_052_988L; // 2026-11-24T16:50:52.988Z

    private static BucketAssigner.Context context(Long timestamp, long now) {
        return new BucketAssigner.Context() {
            @Override
            public long currentProcessingTime() {
                return now;
            }

            @Override
            public long currentWatermark() {
                return Long.MIN_VALUE;
            }

            @Override
            public Long timestamp() {
                return timestamp;
            }
        };
    }

    private static final SourceRecord R = SourceRecord.of(new byte[] {1}, "t", 0, 0, 0);

    @Test
    void bucketsComeFromEventTimeInTheZone() {
        EventTimeBucketAssigner utc =
                new EventTimeBucketAssigner(
                        EventTimeBucketAssigner.DEFAULT_PATTERN, ZoneOffset.UTC, null);
        assertEquals("dt=2026-11-24/hour=16", utc.getBucketId(R, context(T, 0)));
        EventTimeBucketAssigner tokyo =
                new EventTimeBucketAssigner("yyyy/MM/dd/HH", ZoneId.of("Asia/Tokyo"), null);
        assertEquals("2026/11/25/01", tokyo.getBucketId(R, context(T, 0)));
        // A record without a timestamp: processing time.
        assertEquals("dt=2026-11-24/hour=16", utc.getBucketId(R, context(null, T)));
    }

    @Test
    void consecutiveRecordsGetTheRightBucketAcrossBoundaries() {
        EventTimeBucketAssigner minutes =
                new EventTimeBucketAssigner("'m='mm/'s='ss", ZoneOffset.UTC, null);
        EventTimeBucketAssigner millis =
                new EventTimeBucketAssigner("ss.SSS", ZoneOffset.UTC, null);
        java.time.format.DateTimeFormatter ref =
                java.time.format.DateTimeFormatter.ofPattern("'m='mm/'s='ss")
                        .withZone(ZoneOffset.UTC);
        java.time.format.DateTimeFormatter refMillis =
                java.time.format.DateTimeFormatter.ofPattern("ss.SSS").withZone(ZoneOffset.UTC);
        java.util.Random rnd = new java.util.Random(3);
        long t = T;
        for (int i = 0; i < 5000; i++) {
            t += rnd.nextInt(10) == 0 ? -rnd.nextInt(5000) : rnd.nextInt(400);
            java.time.Instant at = java.time.Instant.ofEpochMilli(t);
            assertEquals(ref.format(at), minutes.getBucketId(R, context(t, t)), "at " + t);
            assertEquals(refMillis.format(at), millis.getBucketId(R, context(t, t)), "at " + t);
        }
    }

    @Test
    void skewedEventTimesFallBackToProcessingTimeWhenAsked() {
        EventTimeBucketAssigner a =
                new EventTimeBucketAssigner(
                        EventTimeBucketAssigner.DEFAULT_PATTERN,
                        ZoneOffset.UTC,
                        Duration.ofDays(1));
        long now = T;
        assertEquals(
                "dt=2026-11-24/hour=16",
                a.getBucketId(R, context(T - Duration.ofDays(3).toMillis(), now)));
        assertEquals("dt=2026-11-24/hour=16", a.getBucketId(R, context(Long.MAX_VALUE, now)));
        assertEquals(
                "dt=2026-11-23/hour=17",
                a.getBucketId(R, context(T - Duration.ofHours(23).toMillis(), now)));
    }

    @Test
    void anInvalidPatternIsRefusedAtConstruction() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new EventTimeBucketAssigner("'unclosed", ZoneOffset.UTC, null));
    }

    @Test
    void theSkewGuardDeadLettersRecordsTooFarFromNow() throws Exception {
        try (OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h =
                new OneInputStreamOperatorTestHarness<>(
                        new ProcessOperator<>(new BucketSkewGuard(Duration.ofDays(7))),
                        SourceRecordSerializer.INSTANCE)) {
            h.setup(SourceRecordSerializer.INSTANCE);
            h.open();
            h.setProcessingTime(T);
            h.processElement(
                    new StreamRecord<>(SourceRecord.of(new byte[] {1}, "t", 0, 1, 0), T - 1000));
            h.processElement(
                    new StreamRecord<>(
                            SourceRecord.of(new byte[] {2}, "t", 0, 2, 0),
                            T - Duration.ofDays(8).toMillis()));
            h.processElement(
                    new StreamRecord<>(
                            SourceRecord.of(new byte[] {3}, "t", 0, 3, 0),
                            T + Duration.ofDays(30).toMillis()));
            h.processElement(new StreamRecord<>(SourceRecord.of(new byte[] {4}, "t", 0, 4, 0)));
            List<Long> passed = new ArrayList<>();
            for (SourceRecord r : h.extractOutputValues()) {
                passed.add(r.offset());
            }
            assertEquals(List.of(1L, 4L), passed);
            List<DeadLetter> dead = new ArrayList<>();
            h.getSideOutput(DeadLetterOutput.TAG).forEach(r -> dead.add(r.getValue()));
            assertEquals(2, dead.size());
            assertEquals(DeadLetterReason.VALIDATION, dead.get(0).reason());
            assertEquals(
                    "event time 2026-11-16T16:50:52.988Z is more than shards.max-bucket-skew (PT168H)"
                            + " from the current time 2026-11-24T16:50:52.988Z",
                    dead.get(0).error());
            assertEquals(3, dead.get(1).source().offset());
        }
    }
}
