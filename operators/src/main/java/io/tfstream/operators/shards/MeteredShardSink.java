package io.tfstream.operators.shards;

import io.tfstream.operators.source.SourceRecord;
import java.io.IOException;
import java.util.ArrayList;
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
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.connector.file.sink.FileSinkCommittable;
import org.apache.flink.connector.file.sink.writer.FileWriter;
import org.apache.flink.connector.file.sink.writer.FileWriterBucketState;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * The shard {@link FileSink} with the shard metrics, under {@code tfstream} in the sink's writer
 * and committer metric groups: {@code shardRecords} and {@code shardBytes} (records and record
 * bytes written into part files), {@code shardsFinished}, {@code shardBytesFinished} and the {@code
 * shardSize} histogram (finished shards as committed; a commit repeated after a recovery is counted
 * again). Everything else is the FileSink's, unchanged.
 */
public final class MeteredShardSink
        implements Sink<SourceRecord>,
                SupportsWriterState<SourceRecord, FileWriterBucketState>,
                SupportsWriterState.WithCompatibleState,
                SupportsCommitter<FileSinkCommittable>,
                SupportsPreCommitTopology<FileSinkCommittable, FileSinkCommittable>,
                SupportsConcurrentExecutionAttempts {
    private static final long serialVersionUID = 1L;

    private final FileSink<SourceRecord> sink;

    public MeteredShardSink(FileSink<SourceRecord> sink) {
        this.sink = Objects.requireNonNull(sink, "sink");
    }

    @Override
    public Writer createWriter(WriterInitContext context) throws IOException {
        return new Writer(sink.createWriter(context), context.metricGroup());
    }

    @Override
    public Writer restoreWriter(
            WriterInitContext context, Collection<FileWriterBucketState> recoveredState)
            throws IOException {
        return new Writer(sink.restoreWriter(context, recoveredState), context.metricGroup());
    }

    @Override
    public SimpleVersionedSerializer<FileWriterBucketState> getWriterStateSerializer() {
        return sink.getWriterStateSerializer();
    }

    @Override
    public Collection<String> getCompatibleWriterStateNames() {
        return sink.getCompatibleWriterStateNames();
    }

    @Override
    public Committer<FileSinkCommittable> createCommitter(CommitterInitContext context)
            throws IOException {
        return new MeteredCommitter(sink.createCommitter(context), context.metricGroup());
    }

    @Override
    public SimpleVersionedSerializer<FileSinkCommittable> getCommittableSerializer() {
        return sink.getCommittableSerializer();
    }

    @Override
    public SimpleVersionedSerializer<FileSinkCommittable> getWriteResultSerializer() {
        return sink.getWriteResultSerializer();
    }

    @Override
    public DataStream<CommittableMessage<FileSinkCommittable>> addPreCommitTopology(
            DataStream<CommittableMessage<FileSinkCommittable>> committables) {
        return sink.addPreCommitTopology(committables);
    }

    /** The FileSink's writer, counting what goes into part files. */
    @SuppressWarnings("try") // close() is Flink's AutoCloseable contract
    static final class Writer
            implements StatefulSinkWriter<SourceRecord, FileWriterBucketState>,
                    CommittingSinkWriter<SourceRecord, FileSinkCommittable> {
        private final FileWriter<SourceRecord> writer;
        final Counter records;
        final Counter bytes;

        Writer(FileWriter<SourceRecord> writer, MetricGroup metrics) {
            this.writer = writer;
            MetricGroup g = metrics.addGroup("tfstream");
            this.records = g.counter("shardRecords");
            this.bytes = g.counter("shardBytes");
        }

        @Override
        public void write(SourceRecord element, Context context)
                throws IOException, InterruptedException {
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

    /** The FileSink's committer, counting finished (visible) shards as they are committed. */
    @SuppressWarnings("try") // close() is Flink's AutoCloseable contract
    static final class MeteredCommitter implements Committer<FileSinkCommittable> {
        private static final int HISTOGRAM_WINDOW = 1000;

        private final Committer<FileSinkCommittable> committer;
        final Counter finished;
        final Counter finishedBytes;
        final Histogram size;

        MeteredCommitter(Committer<FileSinkCommittable> committer, MetricGroup metrics) {
            this.committer = committer;
            MetricGroup g = metrics.addGroup("tfstream");
            this.finished = g.counter("shardsFinished");
            this.finishedBytes = g.counter("shardBytesFinished");
            this.size =
                    g.histogram("shardSize", new DescriptiveStatisticsHistogram(HISTOGRAM_WINDOW));
        }

        @Override
        public void commit(Collection<CommitRequest<FileSinkCommittable>> requests)
                throws IOException, InterruptedException {
            List<Long> shards = new ArrayList<>();
            for (CommitRequest<FileSinkCommittable> r : requests) {
                FileSinkCommittable c = r.getCommittable();
                if (c.hasPendingFile()
                        && c.getPendingFile().getPath() != null
                        && !c.getPendingFile().getPath().getName().startsWith(".")) {
                    shards.add(c.getPendingFile().getSize());
                }
            }
            committer.commit(requests);
            for (long s : shards) {
                finished.inc();
                finishedBytes.inc(Math.max(0, s));
                size.update(s);
            }
        }

        @Override
        public void close() throws Exception {
            committer.close();
        }
    }
}
