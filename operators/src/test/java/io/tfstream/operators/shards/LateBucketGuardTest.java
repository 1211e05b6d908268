package io.tfstream.operators.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.DeadLetterReason;
import io.tfstream.api.model.LateRecords;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.deadletter.DeadLetterOutput;
import io.tfstream.operators.source.SourceRecordSerializer;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/** Records for complete buckets (end plus delay behind the watermark) are written or diverted. */
@SuppressWarnings("try")
class LateBucketGuardTest {
    private static final long HOUR_10 = Instant.parse("2026-11-24T10:00:00Z").toEpochMilli();
    private static final long HOUR_11 = HOUR_10 + 3_600_000;
    private static final Duration DELAY = Duration.ofMinutes(1);

    private static OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> harness(
            LateRecords action) throws Exception {
        OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h =
                new OneInputStreamOperatorTestHarness<>(
                        new ProcessOperator<>(
                                new LateBucketGuard(
                                        "'dt='yyyy-MM-dd/'hour='HH",
                                        ZoneOffset.UTC,
                                        DELAY,
                                        action)),
                        SourceRecordSerializer.INSTANCE);
        h.setup(SourceRecordSerializer.INSTANCE);
        h.open();
        return h;
    }

    private static void feed(OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h)
            throws Exception {
        h.processElement(new StreamRecord<>(record(1), HOUR_10 + 5)); // no watermark yet
        h.processWatermark(new Watermark(HOUR_11 + DELAY.toMillis() - 1));
        h.processElement(new StreamRecord<>(record(2), HOUR_10 + 6)); // hour 10 not yet complete
        h.processWatermark(new Watermark(HOUR_11 + DELAY.toMillis()));
        h.processElement(new StreamRecord<>(record(3), HOUR_10 + 7)); // hour 10 complete: late
        h.processElement(new StreamRecord<>(record(4), HOUR_11 + 1)); // hour 11: on time
    }

    private static SourceRecord record(int offset) {
        return SourceRecord.of(new byte[] {(byte) offset}, "t", 0, offset, 0);
    }

    private static List<Long> offsets(List<SourceRecord> records) {
        return records.stream().map(SourceRecord::offset).toList();
    }

    @Test
    void lateRecordsAreWrittenByDefault() throws Exception {
        try (var h = harness(LateRecords.WRITE)) {
            feed(h);
            assertEquals(List.of(1L, 2L, 3L, 4L), offsets(h.extractOutputValues()));
            assertTrue(h.getSideOutput(DeadLetterOutput.TAG) == null);
        }
    }

    @Test
    void lateRecordsCanBeDeadLettered() throws Exception {
        try (var h = harness(LateRecords.DEAD_LETTER)) {
            feed(h);
            assertEquals(List.of(1L, 2L, 4L), offsets(h.extractOutputValues()));
            List<DeadLetter> late =
                    h.getSideOutput(DeadLetterOutput.TAG).stream()
                            .map(StreamRecord::getValue)
                            .toList();
            assertEquals(1, late.size());
            assertEquals(DeadLetterReason.LATE, late.get(0).reason());
            assertEquals(3L, late.get(0).source().offset());
            assertTrue(
                    late.get(0).error().contains("shard bucket dt=2026-11-24/hour=10 was complete"),
                    late.get(0).error());
        }
    }
}
