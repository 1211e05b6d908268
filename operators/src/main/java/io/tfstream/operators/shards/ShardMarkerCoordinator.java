package io.tfstream.operators.shards;

import io.tfstream.operators.compat.CommittableMessages;
import io.tfstream.operators.shards.store.ShardName;
import io.tfstream.shards.BucketClock;
import io.tfstream.shards.ShardManifest;
import io.tfstream.shards.ShardStats;
import io.tfstream.shards.ShardSuccessMarker;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.runtime.checkpoint.CheckpointOptions;
import org.apache.flink.runtime.checkpoint.SavepointType;
import org.apache.flink.runtime.checkpoint.SnapshotType;
import org.apache.flink.runtime.state.CheckpointStreamFactory;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.OperatorSnapshotFutures;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Decides when a bucket's {@code _SUCCESS} marker is due. One instance; sees every closed shard
 * (names and statistics, never records) and the writers' combined watermark, and passes each shard
 * on at once.
 *
 * <p>A bucket closes when the watermark, seen at a checkpoint barrier ({@link
 * #prepareSnapshotPreBarrier}), has passed its end plus {@code successDelay}: a {@link
 * ShardCommittable.Marker} is sent naming the shards that arrived since the bucket's last marker.
 * Why every writer's shards of the bucket have arrived by then: a writer closes its shard of a
 * bucket at the first checkpoint after its own watermark passed that point, and sends it ahead of
 * that checkpoint's barrier, behind the watermark. A shard that arrives later (late records) makes
 * the bucket close again: new marker. At the end of the input every bucket closes. A bucket whose
 * records were bucketed by processing time ({@code shards.skew-action}) closes at the end of input.
 *
 * <p>Markers list the shards of this job's history only: the job ids of every shard it has seen and
 * its own, kept in state, so a job restored from another's savepoint still lists that job's shards,
 * and another job writing to the same path is left out.
 *
 * <p>Histories: each start of the job draws a history id; a start from a snapshot (a savepoint, a
 * retained checkpoint, a JobManager recovery: attempt 0 with restored state, or a later attempt
 * that restores a snapshot another job took or a savepoint) ends the restored history at the
 * snapshot's checkpoint and begins a new one, while a failover to a checkpoint of its own stays in
 * its history. Every shard passing through is stamped with the history and the checkpoint it is
 * committed with (the writer's lineage; at the end of input the next checkpoint), and the stamp
 * goes into its manifest. Markers carry the lineage, so a rollback to an older snapshot lists none
 * of the shards its predecessor committed after that snapshot: those hold records this history
 * writes again.
 *
 * <p>State (list state {@value #STATE_NAME}, version {@link #STATE_VERSION}): watermark, then per
 * bucket its directory, end, whether a marker is awaited and the shard names since the last one,
 * then (from version 3) the job ids of the history, then (from version 4) the snapshot's
 * checkpoint, the lineage (per history its id and the last checkpoint counted, the current history
 * last), and the held retirements (the committables' serializer version, then per retirement its
 * first checkpoint and its committable bytes).
 *
 * <p>Retirements ({@link ShardCommittable.Retire}): a writer restored by a failover copies its open
 * shards and names the superseded originals; they are held here until the first checkpoint after
 * them and {@code execution.checkpointing.num-retained - 1} more have completed, so that no
 * retained checkpoint names them, and then passed on for the committer to remove.
 */
final class ShardMarkerCoordinator
        extends AbstractStreamOperator<CommittableMessage<ShardCommittable>>
        implements OneInputStreamOperator<
                        CommittableMessage<ShardCommittable>, CommittableMessage<ShardCommittable>>,
                BoundedOneInput {
    private static final long serialVersionUID = 1L;
    static final String STATE_NAME = "shard-marker-coordinator";
    static final int STATE_VERSION = 4;
    private static final long UNKNOWN_END = Long.MIN_VALUE;
    private static final int MAX_SHARDS = 1 << 20;

    private final ShardSettings settings;
    private transient TreeMap<String, Bucket> buckets;
    private transient BucketClock clock;
    private transient ListState<byte[]> state;
    private transient long watermark;
    private transient long lastCheckpoint;
    private transient TreeSet<String> jobs;

    /** The ancestors with their cuts, then the current history (through {@code MAX_VALUE}). */
    private transient List<ShardSuccessMarker.Cut> lineage;

    /** The checkpoint of the snapshot restored (from version 4 of the state), or 0. */
    private transient long snapshotCheckpoint;

    /** The job that took the snapshot restored (from version 4 of the state), or null. */
    private transient String snapshotJob;

    /** Retirements held until enough checkpoints completed after them, with that first one. */
    private transient List<Held> retiring;

    /** Checkpoints completed since the oldest held retirement's first one. */
    private transient TreeSet<Long> completed;

    /** The checkpoints Flink retains ({@code execution.checkpointing.num-retained}). */
    private transient int retained;

    private record Held(ShardCommittable.Retire retire, long from) {}

    ShardMarkerCoordinator(ShardSettings settings) {
        this.settings = settings;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        buckets = new TreeMap<>();
        jobs = new TreeSet<>();
        jobs.add(getRuntimeContext().getJobInfo().getJobId().toHexString());
        watermark = Long.MIN_VALUE;
        clock = new BucketClock(settings.bucketPattern(), settings.zone());
        state =
                context.getOperatorStateStore()
                        .getListState(
                                new ListStateDescriptor<>(
                                        STATE_NAME, BytePrimitiveArraySerializer.INSTANCE));
        lineage = new ArrayList<>();
        retiring = new ArrayList<>();
        completed = new TreeSet<>();
        retained = retainedCheckpoints();
        snapshotCheckpoint = 0;
        snapshotJob = null;
        for (byte[] bytes : state.get()) {
            restore(bytes);
        }
        // the same in a real restore; the state's own record also where no id is passed on
        lastCheckpoint = Math.max(context.getRestoredCheckpointId().orElse(0L), snapshotCheckpoint);
        if (lineage.isEmpty() || !context.isRestored()) {
            lineage.clear();
            lineage.add(new ShardSuccessMarker.Cut(ShardName.newRun(), Long.MAX_VALUE));
        } else if (!ownCheckpoint()) {
            // a start from a snapshot: the restored history counts up to it, a new one begins
            ShardSuccessMarker.Cut restored = lineage.remove(lineage.size() - 1);
            lineage.add(new ShardSuccessMarker.Cut(restored.id(), lastCheckpoint));
            lineage.add(new ShardSuccessMarker.Cut(ShardName.newRun(), Long.MAX_VALUE));
        }
    }

    /**
     * Whether the restored snapshot is a checkpoint of this history, which only a failover
     * restores: a later attempt, the same job that took it, and no savepoint. A failover before the
     * first checkpoint restores the snapshot the job started from, which belongs to another
     * history.
     */
    private boolean ownCheckpoint() throws IOException {
        String job = getRuntimeContext().getJobInfo().getJobId().toHexString();
        return getRuntimeContext().getTaskInfo().getAttemptNumber() > 0
                && job.equals(snapshotJob)
                && !SavepointNotes.noted(settings.basePath(), job, lastCheckpoint);
    }

    /**
     * The checkpoints Flink keeps, as the job and the TaskManager configure it (the JobManager
     * reads the same setting): at least 1.
     */
    private int retainedCheckpoints() {
        int job =
                getContainingTask()
                        .getJobConfiguration()
                        .get(CheckpointingOptions.MAX_RETAINED_CHECKPOINTS);
        int taskManager =
                getContainingTask()
                        .getEnvironment()
                        .getTaskManagerInfo()
                        .getConfiguration()
                        .get(CheckpointingOptions.MAX_RETAINED_CHECKPOINTS);
        return Math.max(1, Math.max(job, taskManager));
    }

    /** The current history's id. */
    String history() {
        return lineage.get(lineage.size() - 1).id();
    }

    @Override
    public void processElement(StreamRecord<CommittableMessage<ShardCommittable>> element) {
        if (!(element.getValue() instanceof CommittableWithLineage)) {
            return; // a summary: counts only, the router makes its own
        }
        CommittableWithLineage<ShardCommittable> message =
                (CommittableWithLineage<ShardCommittable>) element.getValue();
        ShardCommittable c = message.getCommittable();
        if (c instanceof ShardCommittable.Retire r) {
            // the restored checkpoint names the superseded file until it is subsumed
            retiring.add(new Held(r, lastCheckpoint + 1));
            return;
        }
        if (c instanceof ShardCommittable.Shard s) {
            // committed with the writer's checkpoint; at the end of input, with the next one
            long lineage = CommittableMessages.checkpointOf(message);
            long checkpoint = lineage == Long.MAX_VALUE ? lastCheckpoint + 1 : lineage;
            c = s.withHistory(new ShardManifest.History(history(), checkpoint));
            Bucket b = buckets.computeIfAbsent(s.bucket(), Bucket::new);
            b.awaitingMarker = true;
            b.shards.add(s.name());
            learnEnd(b, s.stats());
            ShardName.parse(s.name(), settings.prefix()).ifPresent(n -> jobs.add(n.jobId()));
        }
        emit(c);
    }

    private void emit(ShardCommittable c) {
        output.collect(
                new StreamRecord<>(
                        new CommittableWithLineage<>(
                                c,
                                lastCheckpoint + 1,
                                getRuntimeContext().getTaskInfo().getIndexOfThisSubtask())));
    }

    /** The bucket's end, from an event time of its records that lies in it. */
    private void learnEnd(Bucket b, ShardStats stats) {
        for (Long t : new Long[] {stats.maxEventTime(), stats.minEventTime()}) {
            if (t != null && clock.bucketOf(t).equals(settings.timeBucket(b.id))) {
                b.end = Math.max(b.end, clock.endOf(t));
                return;
            }
        }
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        super.processWatermark(mark);
        watermark = Math.max(watermark, mark.getTimestamp());
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        List<Bucket> due = new ArrayList<>();
        for (Bucket b : buckets.values()) {
            if (b.awaitingMarker && closed(b)) {
                due.add(b);
            }
        }
        mark(due);
        buckets.values().removeIf(b -> !b.awaitingMarker);
        releaseRetirements(false);
        lastCheckpoint = checkpointId;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        super.notifyCheckpointComplete(checkpointId);
        if (!retiring.isEmpty()) {
            completed.add(checkpointId);
        }
    }

    /**
     * Passes on the retirements whose first checkpoint and {@code retained - 1} more have completed
     * (then no retained checkpoint names the superseded file: every one is of the copy), or all of
     * them at the end of input (a finished job's checkpoints are discarded). Flink may skip a
     * notification: a retirement then waits longer, never less.
     */
    private void releaseRetirements(boolean all) {
        java.util.Iterator<Held> it = retiring.iterator();
        while (it.hasNext()) {
            Held h = it.next();
            if (all || completed.tailSet(h.from()).size() >= retained) {
                emit(h.retire());
                it.remove();
            }
        }
        if (retiring.isEmpty()) {
            completed.clear();
        } else {
            long oldest = retiring.stream().mapToLong(Held::from).min().orElseThrow();
            completed.headSet(oldest).clear();
        }
    }

    /**
     * Notes a savepoint that may hold open shards ({@link SavepointNotes}) before taking it, so
     * that no failover later removes a file it names; a drained stop's savepoint holds none.
     */
    @Override
    public OperatorSnapshotFutures snapshotState(
            long checkpointId,
            long timestamp,
            CheckpointOptions checkpointOptions,
            CheckpointStreamFactory factory)
            throws Exception {
        SnapshotType type = checkpointOptions.getCheckpointType();
        boolean drained = type instanceof SavepointType sp && sp.shouldDrain();
        if (type.isSavepoint() && !drained) {
            SavepointNotes.write(
                    settings.basePath(),
                    getRuntimeContext().getJobInfo().getJobId().toHexString(),
                    checkpointId);
        }
        return super.snapshotState(checkpointId, timestamp, checkpointOptions, factory);
    }

    private boolean closed(Bucket b) {
        if (b.end == UNKNOWN_END || b.end == Long.MAX_VALUE) {
            return false;
        }
        long due = b.end + settings.successDelay().toMillis();
        return due >= b.end && watermark >= due; // no overflow into the past
    }

    @Override
    public void endInput() {
        mark(buckets.values().stream().filter(b -> b.awaitingMarker).toList());
        buckets.clear();
        releaseRetirements(true);
    }

    /**
     * Sends the markers of closed sink buckets {@code due}: one per event-time bucket, so that the
     * data splits of a bucket share one marker naming the shards of them all.
     */
    private void mark(List<Bucket> due) {
        TreeMap<String, List<Bucket>> byTime = new TreeMap<>();
        for (Bucket b : due) {
            byTime.computeIfAbsent(settings.timeBucket(b.id), t -> new ArrayList<>()).add(b);
        }
        for (var e : byTime.entrySet()) {
            List<String> shards = new ArrayList<>();
            long end = UNKNOWN_END;
            for (Bucket b : e.getValue()) {
                shards.addAll(b.shards);
                end = Math.max(end, b.end);
                b.shards.clear();
                b.awaitingMarker = false;
            }
            if (settings.successMarkers()) {
                emit(
                        new ShardCommittable.Marker(
                                settings.bucketDir(e.getKey()),
                                e.getKey(),
                                end,
                                shards,
                                List.copyOf(jobs),
                                lineage));
            }
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        DataOutputSerializer out = new DataOutputSerializer(1024);
        out.writeInt(STATE_VERSION);
        out.writeLong(watermark);
        out.writeInt(buckets.size());
        for (Bucket b : buckets.values()) {
            out.writeUTF(b.id);
            out.writeLong(b.end);
            out.writeBoolean(b.awaitingMarker);
            out.writeInt(b.shards.size());
            for (String s : b.shards) {
                out.writeUTF(s);
            }
        }
        out.writeInt(jobs.size());
        for (String j : jobs) {
            out.writeUTF(j);
        }
        out.writeLong(context.getCheckpointId());
        out.writeUTF(getRuntimeContext().getJobInfo().getJobId().toHexString());
        out.writeInt(lineage.size());
        for (ShardSuccessMarker.Cut h : lineage) {
            out.writeUTF(h.id());
            out.writeLong(h.through());
        }
        ShardCommittableSerializer committables = new ShardCommittableSerializer();
        out.writeInt(committables.getVersion());
        out.writeInt(retiring.size());
        for (Held h : retiring) {
            out.writeLong(h.from());
            byte[] bytes = committables.serialize(h.retire());
            out.writeInt(bytes.length);
            out.write(bytes);
        }
        state.update(List.of(out.getCopyOfBuffer()));
    }

    private void restore(byte[] bytes) throws IOException {
        DataInputDeserializer in = new DataInputDeserializer(bytes);
        int version = in.readInt();
        ShardStateVersions.check(version, 2, STATE_VERSION, "shard marker coordinator state");
        watermark = Math.max(watermark, in.readLong());
        int n = in.readInt();
        if (n < 0 || n > MAX_SHARDS) {
            throw new IOException("bad bucket count " + n + " in shard marker coordinator state");
        }
        for (int i = 0; i < n; i++) {
            Bucket b = buckets.computeIfAbsent(in.readUTF(), Bucket::new);
            b.end = Math.max(b.end, in.readLong());
            b.awaitingMarker |= in.readBoolean();
            int shards = in.readInt();
            if (shards < 0 || shards > MAX_SHARDS) {
                throw new IOException("bad shard count " + shards + " of bucket " + b.id);
            }
            for (int s = 0; s < shards; s++) {
                b.shards.add(in.readUTF());
            }
        }
        if (version >= 3) {
            int j = in.readInt();
            if (j < 0 || j > MAX_SHARDS) {
                throw new IOException("bad job count " + j + " in shard marker coordinator state");
            }
            for (int i = 0; i < j; i++) {
                jobs.add(in.readUTF());
            }
        }
        if (version >= 4) {
            snapshotCheckpoint = in.readLong();
            snapshotJob = in.readUTF();
            int h = in.readInt();
            if (h < 1 || h > MAX_SHARDS) {
                throw new IOException(
                        "bad history count " + h + " in shard marker coordinator state");
            }
            for (int i = 0; i < h; i++) {
                lineage.add(new ShardSuccessMarker.Cut(in.readUTF(), in.readLong()));
            }
            ShardCommittableSerializer committables = new ShardCommittableSerializer();
            int version4 = in.readInt();
            int r = in.readInt();
            if (r < 0 || r > MAX_SHARDS) {
                throw new IOException(
                        "bad retirement count " + r + " in shard marker coordinator state");
            }
            for (int i = 0; i < r; i++) {
                long from = in.readLong();
                byte[] retire = ShardStateVersions.readBytes(in, 64 << 20, "retirement");
                retiring.add(
                        new Held(
                                (ShardCommittable.Retire)
                                        committables.deserialize(version4, retire),
                                from));
            }
        }
    }

    /** What the coordinator knows of one bucket. */
    private static final class Bucket {
        final String id;
        long end = UNKNOWN_END;
        boolean awaitingMarker;
        final List<String> shards = new ArrayList<>();

        Bucket(String id) {
            this.id = id;
        }
    }
}
