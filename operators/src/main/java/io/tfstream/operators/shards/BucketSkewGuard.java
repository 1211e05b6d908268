package io.tfstream.operators.shards;

import io.tfstream.operators.deadletter.DeadLetter;
import io.tfstream.operators.deadletter.DeadLetterReason;
import io.tfstream.operators.parse.BatchParseOperator;
import io.tfstream.operators.source.SourceRecord;
import java.time.Duration;
import java.time.Instant;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Diverts records whose event time is further than {@code shards.max-bucket-skew} from the current
 * time (a clock error upstream, a replay of ancient data) to the dead-letter output with reason
 * {@code validation}, so that they do not open shard buckets years away. The others pass.
 */
public final class BucketSkewGuard extends ProcessFunction<SourceRecord, SourceRecord> {
    private static final long serialVersionUID = 1L;

    private final Duration maxSkew;

    public BucketSkewGuard(Duration maxSkew) {
        this.maxSkew = maxSkew;
    }

    @Override
    public void processElement(SourceRecord r, Context ctx, Collector<SourceRecord> out) {
        Long ts = ctx.timestamp();
        long now = ctx.timerService().currentProcessingTime();
        if (ts != null && Math.abs((double) ts - now) > maxSkew.toMillis()) {
            ctx.output(
                    BatchParseOperator.DEAD_LETTERS,
                    new DeadLetter(
                            r,
                            DeadLetterReason.VALIDATION,
                            "event time "
                                    + Instant.ofEpochMilli(ts)
                                    + " is more than shards.max-bucket-skew ("
                                    + maxSkew
                                    + ") from the current time "
                                    + Instant.ofEpochMilli(now)));
        } else {
            out.collect(r);
        }
    }
}
