package io.tfstream.api;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.deadletter.DeadLetterOutput;
import io.tfstream.operators.shards.BucketSkewGuard;
import io.tfstream.operators.shards.LateBucketGuard;
import io.tfstream.operators.shards.ShardSettings;
import io.tfstream.operators.shards.SplitGuard;
import io.tfstream.operators.shards.TfRecordShardSink;
import io.tfstream.operators.source.SourceRecordSerializer;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.ProcessFunction;

/**
 * Accepted records written as TFRecord shards, exactly once: bucketed by event time, finished by
 * size or age at checkpoints, with manifests and {@code _SUCCESS} markers (docs/streaming-job.md).
 * Built with {@link #builder(String)}:
 *
 * <pre>{@code
 * TfRecordShards shards = TfRecordShards.builder("file:///data/shards")
 *         .setCompression(Compression.GZIP)
 *         .setSchemaFingerprint(fingerprint)
 *         .build();
 * GuardedRecords guarded = shards.guards().applyTo(result.accepted());
 * shards.sinkTo(guarded.records());
 * }</pre>
 *
 * <p>The sink adds two operators of its own; their uids derive from the sink's: by default {@value
 * TfRecordShardsBuilder#DEFAULT_UID}, {@value TfRecordShardsBuilder#DEFAULT_COORDINATOR_UID} and
 * {@value TfRecordShardsBuilder#DEFAULT_ROUTER_UID}, as in {@code tfstream run}.
 */
@PublicEvolving
public final class TfRecordShards {
    private final ShardSettings settings;
    private final String uid;
    private final String coordinatorUid;
    private final String routerUid;
    private final Guards guards;

    TfRecordShards(
            ShardSettings settings,
            String uid,
            String coordinatorUid,
            String routerUid,
            Guards guards) {
        this.settings = settings;
        this.uid = uid;
        this.coordinatorUid = coordinatorUid;
        this.routerUid = routerUid;
        this.guards = guards;
    }

    /** The guards in front of the sink, each null when off, with their uids. */
    record Guards(
            BucketSkewGuard skew,
            boolean skewDeadLetters,
            String skewUid,
            LateBucketGuard lateBucket,
            boolean lateDeadLetters,
            String lateUid,
            SplitGuard split,
            String splitUid) {}

    /** A builder of shards under {@code basePath} (a local path or any Flink file system URI). */
    public static TfRecordShardsBuilder builder(String basePath) {
        return new TfRecordShardsBuilder(basePath);
    }

    /** The checked settings the sink writes with. */
    ShardSettings settings() {
        return settings;
    }

    /** The sink's uid. */
    public String uid() {
        return uid;
    }

    /** The Flink sink itself, for {@code stream.sinkTo(...)} with uids of your own. */
    TfRecordShardSink sink() {
        return new TfRecordShardSink(settings, coordinatorUid, routerUid);
    }

    /**
     * The guards step in front of the shards: the bucket-skew guard ({@link
     * TfRecordShardsBuilder#setSkewLimit}), then, with data splits by a feature, the split guard
     * (records without a usable partition feature, {@link TfRecordShardsBuilder#setDataSplits}),
     * then, with success markers, the late-bucket guard (records for a bucket already marked
     * complete, {@link TfRecordShardsBuilder#setLateRecords}). Put it in front of the shards and of
     * anything else that must agree with them.
     */
    public ShardGuards guards() {
        return new ShardGuards(guards);
    }

    /**
     * {@code records} through the guards.
     *
     * @deprecated {@code guards().applyTo(records)}: a step, as the API's other steps
     */
    @Deprecated
    public GuardedRecords guard(DataStream<SourceRecord> records) {
        return guards().applyTo(records);
    }

    /** {@code records} through {@code guards}. */
    static GuardedRecords apply(Guards guards, DataStream<SourceRecord> records) {
        List<DataStream<DeadLetter>> deadLetters = new ArrayList<>();
        DataStream<SourceRecord> out = records;
        if (guards.skew() != null) {
            out =
                    guard(
                            out,
                            guards.skew(),
                            guards.skewUid(),
                            guards.skewDeadLetters(),
                            deadLetters);
        }
        if (guards.split() != null) {
            out = guard(out, guards.split(), guards.splitUid(), true, deadLetters);
        }
        if (guards.lateBucket() != null) {
            out =
                    guard(
                            out,
                            guards.lateBucket(),
                            guards.lateUid(),
                            guards.lateDeadLetters(),
                            deadLetters);
        }
        return new GuardedRecords(out, deadLetters);
    }

    private static DataStream<SourceRecord> guard(
            DataStream<SourceRecord> in,
            ProcessFunction<SourceRecord, SourceRecord> guard,
            String uid,
            boolean deadLettering,
            List<DataStream<DeadLetter>> deadLetters) {
        SingleOutputStreamOperator<SourceRecord> guarded =
                in.process(guard).returns(SourceRecordSerializer.typeInfo()).name(uid).uid(uid);
        if (deadLettering) {
            deadLetters.add(guarded.getSideOutput(DeadLetterOutput.TAG));
        }
        return guarded;
    }

    /**
     * {@code records} into the shards (their event time is the stream record timestamp), the sink
     * named and identified by its uid.
     */
    public DataStreamSink<SourceRecord> sinkTo(DataStream<SourceRecord> records) {
        return records.sinkTo(sink()).name(uid).uid(uid);
    }
}
