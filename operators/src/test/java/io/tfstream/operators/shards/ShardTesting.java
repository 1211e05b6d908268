package io.tfstream.operators.shards;

import io.tfstream.api.model.LostShardAction;
import io.tfstream.api.model.ShardIndex;
import io.tfstream.operators.shards.store.RecoverableShardStoreFactory;
import io.tfstream.shards.ShardLayout;
import io.tfstream.shards.ShardStats;
import io.tfstream.tfrecord.Compression;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import org.apache.flink.api.connector.sink2.SinkWriter;

/** Settings and small fakes shared by the shard sink's tests. */
final class ShardTesting {
    static final String HOURLY = "'dt='yyyy-MM-dd/'hour='HH";
    static final String JOB = "0123456789abcdef0123456789abcdef";

    private ShardTesting() {}

    /** The schema of the test shards' fingerprint, as a schema copy holds it. */
    static final String SCHEMA = "feature {\n  name: \"x\"\n  type: INT\n}\n";

    /** The fingerprint the test shards carry: {@link #SCHEMA}'s. */
    static final String FINGERPRINT = fingerprintOf(SCHEMA);

    private static String fingerprintOf(String schema) {
        try {
            return io.tfstream.spec.SchemaFingerprint.of(
                    schema.getBytes(java.nio.charset.StandardCharsets.UTF_8), "schema.pbtxt");
        } catch (io.tfstream.spec.MalformedSpecFileException e) {
            throw new IllegalStateException(e);
        }
    }

    static ShardSettings settings(
            Path base, Compression c, long targetSize, Duration maxAge, boolean markers) {
        return settings(
                base,
                c,
                targetSize,
                maxAge,
                markers,
                LostShardAction.FAIL,
                ShardSettings.DEFAULT_CHECKPOINT_BUDGET);
    }

    /** Settings as above with {@code onLostShard} and {@code shards.checkpoint-budget}. */
    static ShardSettings settings(
            Path base,
            Compression c,
            long targetSize,
            Duration maxAge,
            boolean markers,
            LostShardAction onLostShard,
            long checkpointBudget) {
        String uri = base.toUri().toString();
        return new ShardSettings(
                uri,
                new RecoverableShardStoreFactory(uri),
                c,
                6,
                "part",
                targetSize,
                maxAge,
                HOURLY,
                ZoneOffset.UTC,
                null,
                true,
                FINGERPRINT,
                markers,
                Duration.ofMinutes(1),
                onLostShard,
                checkpointBudget,
                null,
                null,
                false,
                ShardLayout.SEPARATE,
                ShardIndex.NONE,
                null,
                true);
    }

    static ShardStats stats(int records, long firstEventTime) {
        ShardStats s = new ShardStats();
        for (int i = 0; i < records; i++) {
            s.add("examples", i % 2, 100 + i, 10, firstEventTime + i);
        }
        return s;
    }

    /** The sink writer's view of one record: its timestamp and the watermark. */
    record Context(Long timestamp, long currentWatermark) implements SinkWriter.Context {}

    /**
     * A writer of subtask {@code subtask} of job {@link #JOB} on {@code s}'s store, restored with
     * {@code state} of checkpoint {@code checkpoint} on execution attempt {@code attempt}.
     */
    static ShardWriter writer(
            ShardSettings s,
            int subtask,
            java.util.Collection<ShardWriterState> state,
            int attempt,
            long checkpoint,
            java.util.function.LongSupplier clock)
            throws java.io.IOException {
        return new ShardWriter(
                s,
                s.storeFactory().create(),
                JOB,
                subtask,
                state,
                attempt,
                checkpoint,
                clock,
                new ShardWriterMetrics(
                        new org.apache.flink.metrics.groups.UnregisteredMetricsGroup()),
                new LostShards(
                        s.onLostShard(),
                        new org.apache.flink.metrics.groups.UnregisteredMetricsGroup()));
    }
}
