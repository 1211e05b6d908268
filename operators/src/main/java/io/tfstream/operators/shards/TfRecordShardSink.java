package io.tfstream.operators.shards;

import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.compat.Chaining;
import io.tfstream.operators.compat.LineSink;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.SupportsWriterState;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessageTypeInfo;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * The TFRecord shard sink, exactly once, each byte written once: writers ({@link ShardWriter}) keep
 * one shard per event-time bucket open across checkpoints and write it through the base path's
 * {@code ShardStore} (a Flink recoverable writer, or S3 multipart uploads), a marker coordinator at
 * parallelism 1 ({@link ShardMarkerCoordinator}) decides each bucket's {@code _SUCCESS}, a router
 * ({@link ShardCommittableRouter}) hands each bucket's committables to one committer, and the
 * committers ({@link ShardCommitter}) make shards visible with their manifests, then the markers.
 *
 * <p>Shards are named {@code <prefix>-<jobId>-<run>-<subtask>-<counter><suffix>} ({@code
 * ShardName}) in the bucket's directory and visible only once committed. Committables of one bucket
 * all reach the same committer, which commits them in checkpoint order, so a marker is written
 * after its shards.
 *
 * <p>Metrics under {@code tfstream}: writer as in {@link ShardWriterMetrics}, committer as in
 * {@link ShardCommitter}.
 */
@Internal
public final class TfRecordShardSink
        implements LineSink<SourceRecord>,
                SupportsWriterState<SourceRecord, ShardWriterState>,
                SupportsCommitter<ShardCommittable>,
                SupportsPreCommitTopology<ShardCommittable, ShardCommittable> {
    private static final long serialVersionUID = 1L;

    private final ShardSettings settings;
    private final String coordinatorUid;
    private final String routerUid;

    /**
     * @param coordinatorUid the operator id of the marker coordinator (its state: buckets awaiting
     *     their markers), fixed by the job like every uid of its graph
     * @param routerUid the operator id of the committable router (stateless)
     */
    public TfRecordShardSink(ShardSettings settings, String coordinatorUid, String routerUid) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.coordinatorUid = Objects.requireNonNull(coordinatorUid, "coordinatorUid");
        this.routerUid = Objects.requireNonNull(routerUid, "routerUid");
    }

    public ShardSettings settings() {
        return settings;
    }

    @Override
    public ShardWriter createWriter(WriterInitContext context) throws IOException {
        return restoreWriter(context, List.of());
    }

    @Override
    public ShardWriter restoreWriter(
            WriterInitContext context, Collection<ShardWriterState> recoveredState)
            throws IOException {
        return new ShardWriter(
                settings,
                settings.storeFactory().create(),
                context.getJobInfo().getJobId().toHexString(),
                context.getTaskInfo().getIndexOfThisSubtask(),
                recoveredState,
                context.getTaskInfo().getAttemptNumber(),
                context.getRestoredCheckpointId().orElse(-1L),
                context.getProcessingTimeService()::getCurrentProcessingTime,
                new ShardWriterMetrics(context.metricGroup()),
                new LostShards(settings.onLostShard(), context.metricGroup()));
    }

    @Override
    public SimpleVersionedSerializer<ShardWriterState> getWriterStateSerializer() {
        return new ShardWriterStateSerializer();
    }

    @Override
    public Committer<ShardCommittable> createCommitter(CommitterInitContext context) {
        return new ShardCommitter(settings, context.metricGroup());
    }

    @Override
    public SimpleVersionedSerializer<ShardCommittable> getCommittableSerializer() {
        return new ShardCommittableSerializer();
    }

    @Override
    public SimpleVersionedSerializer<ShardCommittable> getWriteResultSerializer() {
        return new ShardCommittableSerializer();
    }

    @Override
    public DataStream<CommittableMessage<ShardCommittable>> addPreCommitTopology(
            DataStream<CommittableMessage<ShardCommittable>> committables) {
        // The writers' committables are spread to the one coordinator explicitly: a forward edge
        // (the default between writer and committer) would fail for a parallelism change.
        SingleOutputStreamOperator<CommittableMessage<ShardCommittable>> coordinator =
                Chaining.toInput(
                                committables
                                        .rebalance()
                                        .transform(
                                                coordinatorUid,
                                                CommittableMessageTypeInfo.of(
                                                        ShardCommittableSerializer::new),
                                                new ShardMarkerCoordinator(settings)))
                        .setParallelism(1)
                        .uid(coordinatorUid);
        // A bucket's committables all go to one router, and so to one committer: those of its
        // data splits too, since one marker covers them all.
        ShardSettings s = settings;
        DataStream<CommittableMessage<ShardCommittable>> byBucket =
                coordinator.partitionCustom(
                        (bucket, partitions) -> Math.floorMod(bucket.hashCode(), partitions),
                        m -> s.timeBucket(bucketOf(m)));
        // Routers run at the committers' parallelism: Flink requires it so that each committable
        // summary reaches the committer of its committables.
        SingleOutputStreamOperator<CommittableMessage<ShardCommittable>> router =
                Chaining.toInput(
                        byBucket.transform(
                                routerUid,
                                CommittableMessageTypeInfo.of(ShardCommittableSerializer::new),
                                new ShardCommittableRouter()));
        router.getTransformation().setParallelism(committables.getParallelism(), false);
        return router.uid(routerUid);
    }

    /** The coordinator sends committables with lineage only (summaries are the router's). */
    private static String bucketOf(CommittableMessage<ShardCommittable> m) {
        return ((CommittableWithLineage<ShardCommittable>) m).getCommittable().bucket();
    }
}
