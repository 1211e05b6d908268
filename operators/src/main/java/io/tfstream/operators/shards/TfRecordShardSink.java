package io.tfstream.operators.shards;

import io.tfstream.operators.source.SourceRecord;
import io.tfstream.tfrecord.Compression;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.apache.flink.api.common.SupportsConcurrentExecutionAttempts;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.SupportsWriterState;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.file.sink.FileSinkCommittable;
import org.apache.flink.connector.file.sink.FileSinkCommittableSerializer;
import org.apache.flink.connector.file.sink.committer.FileCommitter;
import org.apache.flink.connector.file.sink.compactor.FileCompactStrategy;
import org.apache.flink.connector.file.sink.compactor.FileCompactor;
import org.apache.flink.connector.file.sink.compactor.operator.CompactorRequest;
import org.apache.flink.connector.file.sink.compactor.operator.CompactorRequestTypeInfo;
import org.apache.flink.connector.file.sink.writer.DefaultFileWriterBucketFactory;
import org.apache.flink.connector.file.sink.writer.FileWriter;
import org.apache.flink.connector.file.sink.writer.FileWriterBucketState;
import org.apache.flink.connector.file.sink.writer.FileWriterBucketStateSerializer;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.sink.filesystem.BulkBucketWriter;
import org.apache.flink.streaming.api.functions.sink.filesystem.OutputFileConfig;
import org.apache.flink.streaming.api.functions.sink.filesystem.rollingpolicies.OnCheckpointRollingPolicy;

/**
 * The TFRecord shard sink: Flink's {@code FileSink} machinery (its {@link FileWriter}, {@link
 * FileCommitter}, compaction coordinator and compactor) assembled around {@link ShardBucketWriter},
 * which adds per-shard statistics, final shard names and manifests.
 *
 * <p>Design: a bulk format closes its part file at every checkpoint (that is what makes a gzip or
 * zlib stream complete and what keeps the S3 recoverable writer from leaving {@code _tmp_} objects:
 * it writes them only when an open file is carried across a checkpoint). Part files are therefore
 * written hidden ({@code .<prefix>-<uuid>-<n><suffix>}) and compaction merges a bucket's parts into
 * one shard once they reach {@code targetSize} or after {@code compactEveryCheckpoints}
 * checkpoints, whichever comes first ({@link ShardCompactor}). The shard is committed as {@code
 * <prefix>-<uuid>-<n><suffix>} (its first part's name, visible), its manifest beside it ({@link
 * ShardCommitter}), and its hidden parts are deleted. The compaction coordinator runs at
 * parallelism 1 and handles file names and statistics only; writers and compactors run at the
 * sink's parallelism. It also closes a bucket once the watermark has passed its end plus {@code
 * successDelay}: its last parts are compacted and a {@code _SUCCESS} marker listing its shards is
 * written after them ({@link ShardCompactCoordinator}).
 *
 * <p>Metrics under {@code tfstream}: writer {@code shardRecords} and {@code shardBytes} (records
 * and record bytes written into part files); compactor {@code shardsCompacted}, {@code
 * partsCompacted}, {@code compactionTimeMillis} (histogram); committer as in {@link
 * ShardCommitter}.
 */
public final class TfRecordShardSink
        implements Sink<SourceRecord>,
                SupportsWriterState<SourceRecord, FileWriterBucketState>,
                SupportsCommitter<FileSinkCommittable>,
                SupportsPreCommitTopology<FileSinkCommittable, FileSinkCommittable>,
                SupportsConcurrentExecutionAttempts {
    private static final long serialVersionUID = 1L;
    private static final long BUCKET_CHECK_INTERVAL_MS = 60_000;

    private final ShardSettings settings;
    private final String coordinatorUid;
    private final String compactorUid;

    /**
     * @param coordinatorUid the operator id of the compaction coordinator (its state: pending
     *     compactions), fixed by the job like every uid of its graph
     * @param compactorUid the operator id of the compactors
     */
    public TfRecordShardSink(ShardSettings settings, String coordinatorUid, String compactorUid) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.coordinatorUid = Objects.requireNonNull(coordinatorUid, "coordinatorUid");
        this.compactorUid = Objects.requireNonNull(compactorUid, "compactorUid");
    }

    public ShardSettings settings() {
        return settings;
    }

    /** The compactor of shards of compression {@code c}, for tools and tests. */
    public static FileCompactor compactor(Compression c) {
        return new ShardCompactor(c, null);
    }

    ShardBucketWriter bucketWriter(ShardBucketWriter.EventTimes times) throws IOException {
        Path base = new Path(settings.basePath());
        return new ShardBucketWriter(
                new BulkBucketWriter<>(
                        FileSystem.get(base.toUri()).createRecoverableWriter(),
                        new TfRecordBulkWriter.Factory(settings.compression())),
                times);
    }

    @Override
    public Writer createWriter(WriterInitContext context) throws IOException {
        return restoreWriter(context, List.of());
    }

    @Override
    public Writer restoreWriter(
            WriterInitContext context, Collection<FileWriterBucketState> recoveredState)
            throws IOException {
        ShardBucketWriter.EventTimes times = new ShardBucketWriter.EventTimes();
        FileWriter<SourceRecord> writer =
                new FileWriter<>(
                        new Path(settings.basePath()),
                        context.metricGroup(),
                        new EventTimeBucketAssigner(
                                settings.bucketPattern(),
                                settings.zone(),
                                settings.maxBucketSkew()),
                        new DefaultFileWriterBucketFactory<>(),
                        bucketWriter(times),
                        OnCheckpointRollingPolicy.build(),
                        OutputFileConfig.builder()
                                .withPartPrefix("." + settings.prefix())
                                .withPartSuffix(settings.suffix())
                                .build(),
                        context.getProcessingTimeService(),
                        BUCKET_CHECK_INTERVAL_MS);
        writer.initializeState(recoveredState);
        return new Writer(writer, times, context.metricGroup());
    }

    @Override
    public SimpleVersionedSerializer<FileWriterBucketState> getWriterStateSerializer() {
        try {
            ShardBucketWriter w = bucketWriter(null);
            return new FileWriterBucketStateSerializer(
                    w.getProperties().getInProgressFileRecoverableSerializer(),
                    w.pendingFileSerializer());
        } catch (IOException e) {
            throw new IllegalStateException("cannot reach " + settings.basePath(), e);
        }
    }

    @Override
    public Committer<FileSinkCommittable> createCommitter(CommitterInitContext context)
            throws IOException {
        return new ShardCommitter(
                new FileCommitter(bucketWriter(null)), settings, context.metricGroup());
    }

    @Override
    public SimpleVersionedSerializer<FileSinkCommittable> getCommittableSerializer() {
        try {
            ShardBucketWriter w = bucketWriter(null);
            return new FileSinkCommittableSerializer(
                    w.pendingFileSerializer(),
                    w.getProperties().getInProgressFileRecoverableSerializer());
        } catch (IOException e) {
            throw new IllegalStateException("cannot reach " + settings.basePath(), e);
        }
    }

    @Override
    public SimpleVersionedSerializer<FileSinkCommittable> getWriteResultSerializer() {
        return getCommittableSerializer();
    }

    FileCompactStrategy compactStrategy() {
        return FileCompactStrategy.Builder.newBuilder()
                .setSizeThreshold(settings.targetSize())
                .enableCompactionOnCheckpoint(settings.compactEveryCheckpoints())
                .build();
    }

    @Override
    public DataStream<CommittableMessage<FileSinkCommittable>> addPreCommitTopology(
            DataStream<CommittableMessage<FileSinkCommittable>> committables) {
        FileCompactStrategy strategy = compactStrategy();
        // The writers' committables are spread to the one coordinator explicitly: a forward edge
        // (the default between writer and committer) would fail for a parallelism change.
        SingleOutputStreamOperator<CompactorRequest> coordinator =
                committables
                        .rebalance()
                        .transform(
                                coordinatorUid,
                                new CompactorRequestTypeInfo(this::getCommittableSerializer),
                                new ShardCompactCoordinatorFactory(this))
                        .setParallelism(1)
                        .uid(coordinatorUid);
        // A bucket's requests all go to one compactor, and so to one committer, which commits
        // them in checkpoint order: a bucket's _SUCCESS marker is written after its shards.
        DataStream<CompactorRequest> byBucket =
                coordinator.partitionCustom(
                        (bucket, partitions) -> Math.floorMod(bucket.hashCode(), partitions),
                        CompactorRequest::getBucketId);
        // Compactors run at the committers' parallelism: Flink requires it so that each
        // committable summary reaches the committer of its committables.
        SingleOutputStreamOperator<CommittableMessage<FileSinkCommittable>> compactor =
                byBucket.transform(
                        compactorUid,
                        committables.getType(),
                        new ShardCompactorOperatorFactory(strategy, this));
        compactor.getTransformation().setParallelism(committables.getParallelism(), false);
        return compactor.uid(compactorUid);
    }

    /** Flink's file writer, handing each record's event time to the part files' statistics. */
    @SuppressWarnings("try") // close() is Flink's AutoCloseable contract
    static final class Writer
            implements StatefulSinkWriter<SourceRecord, FileWriterBucketState>,
                    CommittingSinkWriter<SourceRecord, FileSinkCommittable> {
        private final FileWriter<SourceRecord> writer;
        private final ShardBucketWriter.EventTimes times;
        final Counter records;
        final Counter bytes;

        Writer(FileWriter<SourceRecord> writer, ShardBucketWriter.EventTimes times, MetricGroup m) {
            this.writer = writer;
            this.times = times;
            MetricGroup g = m.addGroup("tfstream");
            this.records = g.counter("shardRecords");
            this.bytes = g.counter("shardBytes");
        }

        @Override
        public void write(SourceRecord element, Context context)
                throws IOException, InterruptedException {
            Long ts = context.timestamp();
            times.current = ts == null ? element.timestamp() : ts;
            writer.write(element, context);
            records.inc();
            bytes.inc(element.value().length);
        }

        @Override
        public void flush(boolean endOfInput) throws IOException, InterruptedException {
            writer.flush(endOfInput);
        }

        @Override
        public void writeWatermark(Watermark watermark) throws IOException, InterruptedException {
            writer.writeWatermark(watermark);
        }

        @Override
        public List<FileWriterBucketState> snapshotState(long checkpointId) throws IOException {
            return writer.snapshotState(checkpointId);
        }

        @Override
        public Collection<FileSinkCommittable> prepareCommit() throws IOException {
            return writer.prepareCommit();
        }

        @Override
        public void close() throws Exception {
            writer.close();
        }
    }
}
