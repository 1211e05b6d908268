package io.tfstream.operators.shards;

import io.tfstream.shards.BucketClock;
import io.tfstream.shards.ShardStats;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.connector.file.sink.FileSinkCommittable;
import org.apache.flink.connector.file.sink.compactor.operator.CompactorRequest;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Decides when a bucket's hidden part files are compacted into a shard, and when the bucket's
 * {@code _SUCCESS} marker is due. Sees every part (one instance; it handles file names and
 * statistics, never records) and the sink's combined watermark.
 *
 * <ul>
 *   <li>A bucket's parts are compacted once they reach {@code targetSize} bytes, or {@code
 *       compactEveryCheckpoints} checkpoints after its first pending part (kept in state, so the
 *       bound holds across a restore).
 *   <li>A bucket closes when the watermark, seen at a checkpoint barrier, has passed its end plus
 *       {@code successDelay}: its pending parts are compacted at once and a {@link ShardMarker} is
 *       sent behind them, naming the shards compacted since the bucket's last marker. The barrier
 *       is the point where every writer's parts with records before that watermark have arrived. A
 *       part that arrives later (late records) makes the bucket close again: new shard, new marker.
 *       At the end of the input every bucket closes.
 * </ul>
 *
 * Requests of one bucket always go to the same compactor and so to the same committer (see {@link
 * TfRecordShardSink}), which commits them in order: a marker is written after its shards.
 */
final class ShardCompactCoordinator extends AbstractStreamOperator<CompactorRequest>
        implements OneInputStreamOperator<
                        CommittableMessage<FileSinkCommittable>, CompactorRequest>,
                BoundedOneInput {
    private static final long serialVersionUID = 1L;
    private static final int STATE_VERSION = 1;
    private static final long UNKNOWN_END = Long.MIN_VALUE;

    private final ShardSettings settings;
    private final SimpleVersionedSerializer<FileSinkCommittable> committables;
    private final TreeMap<String, Bucket> buckets = new TreeMap<>();
    private transient BucketClock clock;
    private transient ListState<byte[]> state;
    private long watermark = Long.MIN_VALUE;

    ShardCompactCoordinator(
            StreamOperatorParameters<CompactorRequest> parameters,
            ShardSettings settings,
            SimpleVersionedSerializer<FileSinkCommittable> committables) {
        super(parameters);
        this.settings = settings;
        this.committables = committables;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        clock = new BucketClock(settings.bucketPattern(), settings.zone());
        state =
                context.getOperatorStateStore()
                        .getListState(
                                new ListStateDescriptor<>(
                                        "shard-compact-coordinator",
                                        BytePrimitiveArraySerializer.INSTANCE));
        for (byte[] bytes : state.get()) {
            restore(bytes);
        }
    }

    @Override
    public void processElement(StreamRecord<CommittableMessage<FileSinkCommittable>> element) {
        if (!(element.getValue() instanceof CommittableWithLineage)) {
            return; // a summary: counts only, not needed here
        }
        FileSinkCommittable c =
                ((CommittableWithLineage<FileSinkCommittable>) element.getValue()).getCommittable();
        Bucket b = buckets.computeIfAbsent(c.getBucketId(), Bucket::new);
        if (!c.hasPendingFile()) {
            b.passthrough.add(c); // cleanup of an in-progress or compacted file
            return;
        }
        Path path = c.getPendingFile().getPath();
        if (path == null || !path.getName().startsWith(".") || c.getPendingFile().getSize() < 0) {
            b.passthrough.add(c);
            return;
        }
        b.dir = path.getParent().toString();
        b.toCompact.add(c);
        b.size += c.getPendingFile().getSize();
        b.awaitingMarker = true;
        if (c.getPendingFile() instanceof ShardPendingFile) {
            learnEnd(b, ((ShardPendingFile) c.getPendingFile()).stats());
        }
        if (b.size >= settings.targetSize()) {
            fire(b, false);
        }
    }

    /** The bucket's end, from an event time of its records that lies in it. */
    private void learnEnd(Bucket b, ShardStats stats) {
        for (Long t : new Long[] {stats.maxEventTime(), stats.minEventTime()}) {
            if (t != null && clock.bucketOf(t).equals(b.id)) {
                b.end = Math.max(b.end, clock.endOf(t));
                return;
            }
        }
        // records bucketed by processing time (shards.skew-action): closes at the end of input
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        super.processWatermark(mark);
        watermark = Math.max(watermark, mark.getTimestamp());
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        List<String> done = new ArrayList<>();
        for (Bucket b : buckets.values()) {
            boolean closes = settings.successMarkers() && b.awaitingMarker && closed(b);
            if (!b.toCompact.isEmpty()) {
                b.checkpoints++;
                if (closes || b.checkpoints >= settings.compactEveryCheckpoints()) {
                    fire(b, closes);
                }
            } else if (closes) {
                fire(b, true);
            }
            if (!b.passthrough.isEmpty()) {
                fire(b, false);
            }
            if (b.toCompact.isEmpty() && !b.awaitingMarker) {
                done.add(b.id);
            }
        }
        done.forEach(buckets::remove);
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
        for (Bucket b : buckets.values()) {
            fire(b, settings.successMarkers() && b.awaitingMarker);
        }
        buckets.clear();
    }

    private void fire(Bucket b, boolean marker) {
        CompactorRequest r = new CompactorRequest(b.id);
        b.toCompact.forEach(r::addToCompact);
        b.passthrough.forEach(r::addToPassthrough);
        if (!b.toCompact.isEmpty()) {
            b.shards.add(
                    ShardBucketWriter.shardPathOf(b.toCompact.get(0).getPendingFile().getPath())
                            .getName());
        }
        if (marker && b.dir != null) {
            r.addToPassthrough(
                    new FileSinkCommittable(
                            b.id, new ShardMarker(new Path(b.dir), b.id, b.end, b.shards)));
            b.shards.clear();
            b.awaitingMarker = false;
        }
        b.toCompact.clear();
        b.passthrough.clear();
        b.size = 0;
        b.checkpoints = 0;
        if (!r.getCommittableToCompact().isEmpty() || !r.getCommittableToPassthrough().isEmpty()) {
            output.collect(new StreamRecord<>(r));
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        DataOutputSerializer out = new DataOutputSerializer(4096);
        out.writeInt(STATE_VERSION);
        out.writeLong(watermark);
        out.writeInt(buckets.size());
        for (Bucket b : buckets.values()) {
            out.writeUTF(b.id);
            out.writeBoolean(b.dir != null);
            if (b.dir != null) {
                out.writeUTF(b.dir);
            }
            out.writeLong(b.end);
            out.writeInt(b.checkpoints);
            out.writeLong(b.size);
            out.writeBoolean(b.awaitingMarker);
            out.writeInt(b.shards.size());
            for (String s : b.shards) {
                out.writeUTF(s);
            }
            writeCommittables(out, b.toCompact);
            writeCommittables(out, b.passthrough);
        }
        state.update(List.of(out.getCopyOfBuffer()));
    }

    private void writeCommittables(DataOutputSerializer out, List<FileSinkCommittable> list)
            throws IOException {
        out.writeInt(list.size());
        for (FileSinkCommittable c : list) {
            SimpleVersionedSerialization.writeVersionAndSerialize(committables, c, out);
        }
    }

    private void restore(byte[] bytes) throws IOException {
        DataInputDeserializer in = new DataInputDeserializer(bytes);
        int version = in.readInt();
        if (version != STATE_VERSION) {
            throw new IOException("unknown shard coordinator state version " + version);
        }
        watermark = Math.max(watermark, in.readLong());
        int n = in.readInt();
        for (int i = 0; i < n; i++) {
            Bucket b = new Bucket(in.readUTF());
            b.dir = in.readBoolean() ? in.readUTF() : null;
            b.end = in.readLong();
            b.checkpoints = in.readInt();
            b.size = in.readLong();
            b.awaitingMarker = in.readBoolean();
            int shards = in.readInt();
            for (int s = 0; s < shards; s++) {
                b.shards.add(in.readUTF());
            }
            readCommittables(in, b.toCompact);
            readCommittables(in, b.passthrough);
            Bucket existing = buckets.putIfAbsent(b.id, b);
            if (existing != null) {
                existing.merge(b);
            }
        }
    }

    private void readCommittables(DataInputDeserializer in, List<FileSinkCommittable> into)
            throws IOException {
        int n = in.readInt();
        for (int i = 0; i < n; i++) {
            into.add(SimpleVersionedSerialization.readVersionAndDeSerialize(committables, in));
        }
    }

    /** What the coordinator knows of one bucket. */
    private static final class Bucket {
        final String id;
        String dir;
        long end = UNKNOWN_END;
        int checkpoints;
        long size;
        boolean awaitingMarker;
        final List<String> shards = new ArrayList<>();
        final List<FileSinkCommittable> toCompact = new ArrayList<>();
        final List<FileSinkCommittable> passthrough = new ArrayList<>();

        Bucket(String id) {
            this.id = id;
        }

        void merge(Bucket o) {
            dir = dir != null ? dir : o.dir;
            end = Math.max(end, o.end);
            checkpoints = Math.max(checkpoints, o.checkpoints);
            size += o.size;
            awaitingMarker |= o.awaitingMarker;
            shards.addAll(o.shards);
            toCompact.addAll(o.toCompact);
            passthrough.addAll(o.passthrough);
        }
    }
}
