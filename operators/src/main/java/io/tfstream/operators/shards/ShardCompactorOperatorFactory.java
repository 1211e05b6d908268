package io.tfstream.operators.shards;

import org.apache.flink.connector.file.sink.FileSinkCommittable;
import org.apache.flink.connector.file.sink.compactor.FileCompactStrategy;
import org.apache.flink.connector.file.sink.compactor.operator.CompactorOperator;
import org.apache.flink.connector.file.sink.compactor.operator.CompactorRequest;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.operators.AbstractStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.OneInputStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.StreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;

/**
 * Builds Flink's {@link CompactorOperator} with the shard sink's bucket writer and a {@link
 * ShardCompactor} bound to it (so a compacted shard gets its parts' statistics and final name), and
 * registers the compaction metrics in the operator's group {@code tfstream}: {@code
 * shardsCompacted}, {@code partsCompacted}, {@code compactionTimeMillis}.
 */
final class ShardCompactorOperatorFactory
        extends AbstractStreamOperatorFactory<CommittableMessage<FileSinkCommittable>>
        implements OneInputStreamOperatorFactory<
                CompactorRequest, CommittableMessage<FileSinkCommittable>> {
    private static final long serialVersionUID = 1L;
    private static final int HISTOGRAM_WINDOW = 1000;

    private final FileCompactStrategy strategy;
    private final TfRecordShardSink sink;

    ShardCompactorOperatorFactory(FileCompactStrategy strategy, TfRecordShardSink sink) {
        this.strategy = strategy;
        this.sink = sink;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends StreamOperator<CommittableMessage<FileSinkCommittable>>>
            T createStreamOperator(
                    StreamOperatorParameters<CommittableMessage<FileSinkCommittable>> parameters) {
        try {
            ShardBucketWriter writer = sink.bucketWriter(null);
            CompactorOperator op =
                    new CompactorOperator(
                            parameters,
                            strategy,
                            sink.getCommittableSerializer(),
                            new ShardCompactor(sink.settings().compression(), writer),
                            writer);
            writer.bindMetrics(new Metrics(op.getMetricGroup().addGroup("tfstream")));
            return (T) op;
        } catch (java.io.IOException e) {
            throw new IllegalStateException(
                    "cannot create the shard compactor for " + sink.settings().basePath(), e);
        }
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Class<? extends StreamOperator> getStreamOperatorClass(ClassLoader classLoader) {
        return CompactorOperator.class;
    }

    /** Compaction metrics; compactions run on Flink's compaction threads. */
    private static final class Metrics implements ShardBucketWriter.CompactionMetrics {
        private final Counter shards;
        private final Counter parts;
        private final Histogram millis;

        Metrics(MetricGroup g) {
            this.shards = g.counter("shardsCompacted");
            this.parts = g.counter("partsCompacted");
            this.millis =
                    g.histogram(
                            "compactionTimeMillis",
                            new DescriptiveStatisticsHistogram(HISTOGRAM_WINDOW));
        }

        @Override
        public synchronized void compacted(long nanos, long bytes, int partCount) {
            shards.inc();
            parts.inc(partCount);
            millis.update(nanos / 1_000_000);
        }
    }
}
