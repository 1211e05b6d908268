package io.tfstream.operators.shards;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.DeadLetterReason;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.deadletter.DeadLetterOutput;
import io.tfstream.shards.TfxSplits;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * With data splits by a partition feature ({@code shards.split-feature}): a record TFX would refuse
 * to split (the feature absent, empty, or neither an int64 nor a bytes list) goes to the
 * dead-letter output with reason {@code validation} and TFX's message, counted in {@code
 * tfstream.unsplitRecords}, instead of failing the sink. The others pass.
 */
@Internal
public final class SplitGuard extends ProcessFunction<SourceRecord, SourceRecord> {
    private static final long serialVersionUID = 1L;

    /** Records without a usable partition feature. */
    public static final String UNSPLIT_RECORDS = "unsplitRecords";

    private final TfxSplits splits;
    private final String feature;
    private final boolean sequence;
    private transient Counter unsplit;

    public SplitGuard(TfxSplits splits, String feature, boolean sequence) {
        this.splits = Objects.requireNonNull(splits, "splits");
        this.feature = Objects.requireNonNull(feature, "feature");
        this.sequence = sequence;
    }

    @Override
    public void open(OpenContext openContext) {
        unsplit =
                getRuntimeContext()
                        .getMetricGroup()
                        .addGroup(BucketSkewGuard.METRIC_GROUP)
                        .counter(UNSPLIT_RECORDS);
    }

    @Override
    public void processElement(SourceRecord r, Context ctx, Collector<SourceRecord> out) {
        try {
            splits.of(r.value(), feature, sequence);
            out.collect(r);
        } catch (TfxSplits.SplitKeyException e) {
            unsplit.inc();
            ctx.output(
                    DeadLetterOutput.TAG,
                    new DeadLetter(
                            r,
                            DeadLetterReason.VALIDATION,
                            "shards.split-feature " + feature + ": " + e.getMessage()));
        }
    }
}
