package io.tfstream.operators.shards;

import java.util.function.IntSupplier;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

/**
 * The shard writer's metrics under {@code tfstream}: {@code shardRecords} and {@code shardBytes}
 * (records and record bytes written into shards), the gauge {@code openShards}, and the histogram
 * {@code shardPersistMillis} (time to end a segment and persist one open shard at a checkpoint),
 * the counter {@code shardsFinishedByCheckpointBudget} and the gauge {@code shardCheckpointBytes}
 * (bytes of unfinished parts the last checkpoint held, {@code shards.checkpoint-budget}); at a
 * restore the gauge {@code shardRestoreMillis} (time to continue every open shard of the restored
 * state, copies made in parallel) and the counters {@code shardsCopiedAtRestore} and {@code
 * shardCopiesToRetire} (originals a failover's copies superseded, named for removal; the
 * committers' {@code shardCopiesRetired} follows it once checkpoints complete).
 */
final class ShardWriterMetrics {
    private static final int HISTOGRAM_WINDOW = 1000;

    private final MetricGroup group;
    final Counter records;
    final Counter bytes;
    final Histogram persistMillis;
    final Counter finishedByBudget;
    final Counter copiedAtRestore;
    final Counter toRetire;
    final Counter leftoversDiscarded;
    private volatile long checkpointBytes;
    private volatile long restoreMillis;

    ShardWriterMetrics(MetricGroup metrics) {
        this.group = metrics.addGroup("tfstream");
        this.records = group.counter("shardRecords");
        this.bytes = group.counter("shardBytes");
        this.persistMillis =
                group.histogram(
                        "shardPersistMillis", new DescriptiveStatisticsHistogram(HISTOGRAM_WINDOW));
        this.finishedByBudget = group.counter("shardsFinishedByCheckpointBudget");
        group.gauge("shardCheckpointBytes", (Gauge<Long>) () -> checkpointBytes);
        this.copiedAtRestore = group.counter("shardsCopiedAtRestore");
        this.toRetire = group.counter("shardCopiesToRetire");
        this.leftoversDiscarded = group.counter("shardLeftoversDiscarded");
        group.gauge("shardRestoreMillis", (Gauge<Long>) () -> restoreMillis);
    }

    void restored(long nanos, int copies, int retirements, int discarded) {
        restoreMillis = nanos / 1_000_000;
        copiedAtRestore.inc(copies);
        toRetire.inc(retirements);
        leftoversDiscarded.inc(discarded);
    }

    void checkpointBytes(long bytes) {
        checkpointBytes = bytes;
    }

    void openShards(IntSupplier open) {
        group.gauge("openShards", (Gauge<Integer>) open::getAsInt);
    }

    void written(int recordBytes) {
        records.inc();
        bytes.inc(recordBytes);
    }

    void persisted(long nanos) {
        persistMillis.update(nanos / 1_000_000);
    }
}
