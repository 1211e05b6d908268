package io.tfstream.operators.shards;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.DeadLetterReason;
import io.tfstream.api.model.SkewAction;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.deadletter.DeadLetterOutput;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Finds records whose event time is further than {@code shards.max-bucket-skew} from the current
 * time (a clock error upstream, a replay of ancient data), so that they do not open shard buckets
 * years away, and counts them in {@code tfstream.skewedRecords}. With {@link
 * SkewAction#DEAD_LETTER} they go to the dead-letter output with reason {@code validation}; with
 * {@link SkewAction#PROCESSING_TIME} they pass unchanged (the {@link EventTimeBucketAssigner}
 * buckets them by processing time). The others always pass.
 */
@Internal
public final class BucketSkewGuard extends ProcessFunction<SourceRecord, SourceRecord> {
    private static final long serialVersionUID = 1L;

    /** Metric group of the counter. */
    public static final String METRIC_GROUP = "tfstream";

    /** Records beyond the skew, whatever the action. */
    public static final String SKEWED_RECORDS = "skewedRecords";

    private final Duration maxSkew;
    private final SkewAction action;
    private transient Counter skewed;

    /** A guard that dead-letters skewed records. */
    public BucketSkewGuard(Duration maxSkew) {
        this(maxSkew, SkewAction.DEAD_LETTER);
    }

    public BucketSkewGuard(Duration maxSkew, SkewAction action) {
        this.maxSkew = Objects.requireNonNull(maxSkew, "maxSkew");
        this.action = Objects.requireNonNull(action, "action");
    }

    @Override
    public void open(OpenContext openContext) {
        skewed =
                getRuntimeContext().getMetricGroup().addGroup(METRIC_GROUP).counter(SKEWED_RECORDS);
    }

    @Override
    public void processElement(SourceRecord r, Context ctx, Collector<SourceRecord> out) {
        Long ts = ctx.timestamp();
        long now = ctx.timerService().currentProcessingTime();
        // In double: the distance between Long.MIN/MAX_VALUE timestamps and now overflows a long.
        if (ts == null || Math.abs((double) ts - now) <= maxSkew.toMillis()) {
            out.collect(r);
            return;
        }
        skewed.inc();
        if (action == SkewAction.PROCESSING_TIME) {
            out.collect(r);
            return;
        }
        ctx.output(
                DeadLetterOutput.TAG,
                new DeadLetter(
                        r,
                        DeadLetterReason.VALIDATION,
                        "event time "
                                + Instant.ofEpochMilli(ts)
                                + " is more than shards.max-bucket-skew ("
                                + maxSkew
                                + ") from the current time "
                                + Instant.ofEpochMilli(now)));
    }
}
