package io.tfstream.operators.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.DeadLetterReason;
import io.tfstream.api.model.SkewAction;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.deadletter.DeadLetterOutput;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * {@link BucketSkewGuard} in Flink's operator test harness, its metrics registered in a real metric
 * group: records beyond the skew either way are counted in {@code tfstream.skewedRecords}; they are
 * dead-lettered or passed through unchanged by the action.
 */
@SuppressWarnings("try") // the harness's close() may throw InterruptedException
class BucketSkewGuardTest {
    private static final long T = 1_795_539_052_988L; // 2026-11-24T16:50:52.988Z
    private static final Duration WEEK = Duration.ofDays(7);

    /** Metrics registered by the operator, as "{group}.{name}". */
    private final Map<String, Metric> metrics = new ConcurrentHashMap<>();

    private OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> harness(
            BucketSkewGuard guard) throws Exception {
        return GuardHarness.open(guard, metrics, T);
    }

    /** Offset 1: now; 2: 8 days ago; 3: 30 days ahead; 4: no timestamp; 5: 6 days ago. */
    private static void feed(OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h)
            throws Exception {
        h.processElement(new StreamRecord<>(record(1), T - 1000));
        h.processElement(new StreamRecord<>(record(2), T - Duration.ofDays(8).toMillis()));
        h.processElement(new StreamRecord<>(record(3), T + Duration.ofDays(30).toMillis()));
        h.processElement(new StreamRecord<>(record(4)));
        h.processElement(new StreamRecord<>(record(5), T - Duration.ofDays(6).toMillis()));
    }

    private static SourceRecord record(int offset) {
        return SourceRecord.of(new byte[] {(byte) offset}, "t", 0, offset, 0);
    }

    private long skewedRecords() {
        return ((Counter) metrics.get("tfstream." + BucketSkewGuard.SKEWED_RECORDS)).getCount();
    }

    @Test
    void deadLettersAndCountsRecordsBeyondTheSkewEitherWay() throws Exception {
        try (var h = harness(new BucketSkewGuard(WEEK, SkewAction.DEAD_LETTER))) {
            feed(h);
            List<Long> passed = new ArrayList<>();
            h.extractOutputValues().forEach(r -> passed.add(r.offset()));
            assertEquals(List.of(1L, 4L, 5L), passed);
            List<DeadLetter> dead = new ArrayList<>();
            h.getSideOutput(DeadLetterOutput.TAG).forEach(r -> dead.add(r.getValue()));
            assertEquals(List.of(2L, 3L), dead.stream().map(d -> d.source().offset()).toList());
            assertEquals(DeadLetterReason.VALIDATION, dead.get(1).reason());
            assertEquals(
                    "event time 2026-12-24T16:50:52.988Z is more than shards.max-bucket-skew"
                            + " (PT168H) from the current time 2026-11-24T16:50:52.988Z",
                    dead.get(1).error());
            assertEquals(2, skewedRecords());
        }
    }

    @Test
    void passesEveryRecordThroughUnchangedAndCountsTheSkewedOnes() throws Exception {
        try (var h = harness(new BucketSkewGuard(WEEK, SkewAction.PROCESSING_TIME))) {
            feed(h);
            List<String> passed = new ArrayList<>();
            for (Object o : h.getOutput()) {
                @SuppressWarnings("unchecked")
                StreamRecord<SourceRecord> r = (StreamRecord<SourceRecord>) o;
                passed.add(
                        r.getValue().offset() + "@" + (r.hasTimestamp() ? r.getTimestamp() : "-"));
            }
            assertEquals(
                    List.of(
                            "1@" + (T - 1000),
                            "2@" + (T - Duration.ofDays(8).toMillis()),
                            "3@" + (T + Duration.ofDays(30).toMillis()),
                            "4@-",
                            "5@" + (T - Duration.ofDays(6).toMillis())),
                    passed,
                    "every record, in order, with its own timestamp");
            assertEquals(null, h.getSideOutput(DeadLetterOutput.TAG));
            assertEquals(2, skewedRecords());
        }
    }

    @Test
    void extremeTimestampsAreSkewedNotOverflowed() throws Exception {
        try (var h = harness(new BucketSkewGuard(WEEK, SkewAction.PROCESSING_TIME))) {
            h.processElement(new StreamRecord<>(record(1), Long.MIN_VALUE));
            h.processElement(new StreamRecord<>(record(2), Long.MAX_VALUE));
            assertEquals(2, h.extractOutputValues().size());
            assertEquals(2, skewedRecords());
        }
    }
}
