package io.tfstream.operators.shards;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.DeadLetterReason;
import io.tfstream.api.model.LateRecords;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.deadletter.DeadLetterOutput;
import io.tfstream.shards.BucketClock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Finds records for shard buckets that are already complete: the bucket's end plus {@code
 * shards.success-delay} is at or before the watermark when the record reaches the shard sink, so
 * its bucket has (or is about to get) its {@code _SUCCESS} marker. They are counted in {@code
 * tfstream.lateBucketRecords} and either written (a new shard in the bucket, the marker written
 * again) or dead-lettered with reason {@code late}, by {@code shards.late-records}.
 */
@Internal
public final class LateBucketGuard extends ProcessFunction<SourceRecord, SourceRecord> {
    private static final long serialVersionUID = 1L;

    /** Records for complete buckets, whatever the action. */
    public static final String LATE_BUCKET_RECORDS = "lateBucketRecords";

    private final String pattern;
    private final String zone;
    private final long delayMillis;
    private final LateRecords action;
    private transient BucketClock clock;
    private transient Counter late;

    public LateBucketGuard(String pattern, ZoneId zone, Duration delay, LateRecords action) {
        this.pattern = Objects.requireNonNull(pattern, "pattern");
        this.zone = zone.getId();
        this.delayMillis = delay.toMillis();
        this.action = Objects.requireNonNull(action, "action");
    }

    @Override
    public void open(OpenContext openContext) {
        clock = new BucketClock(pattern, ZoneId.of(zone));
        late =
                getRuntimeContext()
                        .getMetricGroup()
                        .addGroup(BucketSkewGuard.METRIC_GROUP)
                        .counter(LATE_BUCKET_RECORDS);
    }

    @Override
    public void processElement(SourceRecord r, Context ctx, Collector<SourceRecord> out) {
        Long ts = ctx.timestamp();
        long watermark = ctx.timerService().currentWatermark();
        if (ts == null || watermark == Long.MIN_VALUE) {
            out.collect(r);
            return;
        }
        long end = clock.endOf(ts);
        long due = end + delayMillis;
        if (end == Long.MAX_VALUE || due < end || due > watermark) {
            out.collect(r);
            return;
        }
        late.inc();
        if (action == LateRecords.WRITE) {
            out.collect(r);
            return;
        }
        ctx.output(
                DeadLetterOutput.TAG,
                new DeadLetter(
                        r,
                        DeadLetterReason.LATE,
                        "event time "
                                + Instant.ofEpochMilli(ts)
                                + ": its shard bucket "
                                + clock.cachedBucketOf(ts)
                                + " was complete at "
                                + Instant.ofEpochMilli(due)
                                + " (bucket end plus shards.success-delay); the watermark is at "
                                + Instant.ofEpochMilli(watermark)));
    }
}
