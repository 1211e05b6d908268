package io.tfstream.operators.shards;

import io.tfstream.operators.source.SourceRecord;
import io.tfstream.shards.ShardStats;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.functions.sink.filesystem.BucketWriter;
import org.apache.flink.streaming.api.functions.sink.filesystem.CompactingFileWriter;
import org.apache.flink.streaming.api.functions.sink.filesystem.InProgressFileWriter;
import org.apache.flink.streaming.api.functions.sink.filesystem.InProgressFileWriter.InProgressFileRecoverable;
import org.apache.flink.streaming.api.functions.sink.filesystem.InProgressFileWriter.PendingFileRecoverable;
import org.apache.flink.streaming.api.functions.sink.filesystem.OutputStreamBasedCompactingFileWriter;
import org.apache.flink.streaming.api.functions.sink.filesystem.WriterProperties;

/**
 * Flink's bulk {@link BucketWriter} for TFRecord parts, with what the shard sink adds on top:
 *
 * <ul>
 *   <li>every part file counts its records into {@link ShardStats} (event time from {@link
 *       EventTimes}, set by the sink writer before each record), carried in its {@link
 *       ShardPendingFile};
 *   <li>a compacted shard is written under its final name {@code <prefix>-<uuid>-<n><suffix>}: the
 *       first part's hidden name without the leading dot (Flink's compaction would prefix {@code
 *       compacted-}); its pending file carries the merged statistics of its parts and the CRC32C
 *       and size of the bytes written;
 *   <li>compaction time is reported to {@link CompactionMetrics} once bound.
 * </ul>
 *
 * One instance per writer, compactor or committer subtask.
 */
final class ShardBucketWriter implements BucketWriter<SourceRecord, String> {
    /** The prefix Flink's compaction gives compacted files; shards are committed without it. */
    static final String FLINK_COMPACTED_PREFIX = "compacted-";

    private final BucketWriter<SourceRecord, String> delegate;
    private final EventTimes eventTimes;
    private final Map<Path, ShardPendingFile> compactionInputs = new ConcurrentHashMap<>();
    private final Map<Path, List<Path>> compactions = new ConcurrentHashMap<>();
    private volatile CompactionMetrics metrics;

    ShardBucketWriter(BucketWriter<SourceRecord, String> delegate, EventTimes eventTimes) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.eventTimes = eventTimes == null ? new EventTimes() : eventTimes;
    }

    void bindMetrics(CompactionMetrics m) {
        this.metrics = m;
    }

    /** The visible shard a compaction of parts starting with hidden part {@code first} writes. */
    static Path shardPathOf(Path first) {
        String name = first.getName();
        if (name.startsWith(".")) {
            name = name.substring(1);
        }
        return new Path(first.getParent(), name);
    }

    /** Called by the compactor before it writes {@code inputs} into one shard. */
    void compacting(List<Path> inputs) {
        compactions.put(shardPathOf(inputs.get(0)), List.copyOf(inputs));
    }

    @Override
    public InProgressFileWriter<SourceRecord, String> openNewInProgressFile(
            String bucketId, Path path, long creationTime) throws IOException {
        return new CountingPartWriter(
                delegate.openNewInProgressFile(bucketId, path, creationTime), eventTimes);
    }

    @Override
    public CompactingFileWriter openNewCompactingFile(
            CompactingFileWriter.Type type, String bucketId, Path path, long creationTime)
            throws IOException {
        if (type != CompactingFileWriter.Type.OUTPUT_STREAM) {
            throw new UnsupportedOperationException("shards are compacted as byte streams");
        }
        Path target = path;
        if (target.getName().startsWith(FLINK_COMPACTED_PREFIX)) {
            target =
                    new Path(
                            target.getParent(),
                            target.getName().substring(FLINK_COMPACTED_PREFIX.length()));
        }
        return new ShardCompactingWriter(
                (OutputStreamBasedCompactingFileWriter)
                        delegate.openNewCompactingFile(type, bucketId, target, creationTime),
                target,
                this);
    }

    /** The merged statistics of the parts compacted into {@code shard}; forgets them. */
    CompactedParts takeCompaction(Path shard) {
        List<Path> inputs = compactions.remove(shard);
        if (inputs == null) {
            throw new IllegalStateException("no compaction was started for " + shard);
        }
        ShardStats merged = new ShardStats();
        for (Path p : inputs) {
            ShardPendingFile part = compactionInputs.remove(p);
            if (part == null) {
                throw new IllegalStateException("part " + p + " of " + shard + " is unknown");
            }
            merged.merge(part.stats());
        }
        return new CompactedParts(merged, inputs.size());
    }

    void compacted(long nanos, long bytes, int parts) {
        CompactionMetrics m = metrics;
        if (m != null) {
            m.compacted(nanos, bytes, parts);
        }
    }

    record CompactedParts(ShardStats stats, int parts) {}

    @Override
    public InProgressFileWriter<SourceRecord, String> resumeInProgressFileFrom(
            String bucketId, InProgressFileRecoverable snapshot, long creationTime)
            throws IOException {
        // Bulk part files roll at every checkpoint and are never resumed; should that change, the
        // statistics of what was written before the snapshot would be missing, so refuse.
        throw new UnsupportedOperationException("TFRecord part files are never resumed");
    }

    @Override
    public WriterProperties getProperties() {
        WriterProperties p = delegate.getProperties();
        return new WriterProperties(
                p.getInProgressFileRecoverableSerializer(),
                new ShardPendingFileSerializer(p.getPendingFileRecoverableSerializer()),
                false);
    }

    /** The committable serializer's view of pending files. */
    SimpleVersionedSerializer<PendingFileRecoverable> pendingFileSerializer() {
        return getProperties().getPendingFileRecoverableSerializer();
    }

    @Override
    public PendingFile recoverPendingFile(PendingFileRecoverable pending) throws IOException {
        if (!(pending instanceof ShardPendingFile)) {
            throw new IllegalArgumentException("not a shard pending file: " + pending);
        }
        ShardPendingFile p = (ShardPendingFile) pending;
        if (p.getPath() != null && p.getPath().getName().startsWith(".")) {
            // a hidden part about to be compacted: keep its statistics for the shard
            compactionInputs.put(p.getPath(), p);
        }
        return delegate.recoverPendingFile(p.delegate());
    }

    @Override
    public boolean cleanupInProgressFileRecoverable(InProgressFileRecoverable recoverable)
            throws IOException {
        return delegate.cleanupInProgressFileRecoverable(recoverable);
    }

    /** The event time of the record being written, handed from the sink writer. */
    static final class EventTimes {
        long current;
    }

    /** Compaction metrics of a compactor subtask. */
    interface CompactionMetrics {
        void compacted(long nanos, long bytes, int parts);
    }

    /** A part file that counts what is written into it. */
    private static final class CountingPartWriter
            implements InProgressFileWriter<SourceRecord, String> {
        private final InProgressFileWriter<SourceRecord, String> part;
        private final EventTimes eventTimes;
        private final ShardStats stats = new ShardStats();

        CountingPartWriter(InProgressFileWriter<SourceRecord, String> part, EventTimes times) {
            this.part = part;
            this.eventTimes = times;
        }

        @Override
        public void write(SourceRecord r, long currentTime) throws IOException {
            part.write(r, currentTime);
            stats.add(r.topic(), r.partition(), r.offset(), r.value().length, eventTimes.current);
        }

        @Override
        public InProgressFileRecoverable persist() throws IOException {
            return part.persist();
        }

        @Override
        public PendingFileRecoverable closeForCommit() throws IOException {
            return ShardPendingFile.part(part.closeForCommit(), stats);
        }

        @Override
        public void dispose() {
            part.dispose();
        }

        @Override
        public String getBucketId() {
            return part.getBucketId();
        }

        @Override
        public long getCreationTime() {
            return part.getCreationTime();
        }

        @Override
        public long getSize() throws IOException {
            return part.getSize();
        }

        @Override
        public long getLastUpdateTime() {
            return part.getLastUpdateTime();
        }
    }
}
