package io.tfstream.operators.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.model.LostShardAction;
import io.tfstream.api.model.ShardIndex;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.embedded.S3ProxyProcess;
import io.tfstream.operators.shards.store.S3ShardStoreFactory;
import io.tfstream.shards.ShardLayout;
import io.tfstream.tfrecord.Compression;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What S3 shards cost in checkpoints at low rates, and {@code shards.checkpoint-budget} bounding
 * it: 64 buckets open on one writer subtask, 1 KB per second into each (simulated time), a
 * checkpoint every 10 s, shards kept open for up to 15 minutes. Every checkpoint holds every
 * shard's tail below a part again, so without a bound the checkpoints hold about max-age / (2 ×
 * interval) = 45 bytes per byte of data; with the budget no checkpoint holds more than it.
 */
class ShardCheckpointBudgetITCase {
    private static final String JOB = "0123456789abcdef0123456789abcdef";
    private static final int BUCKETS = 64;
    private static final int RECORD = 1000;
    private static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final Duration MAX_AGE = Duration.ofMinutes(15);

    @TempDir static Path dir;
    private static S3ProxyProcess s3;
    private static Path credentials;

    @BeforeAll
    static void start() throws Exception {
        s3 = S3ProxyProcess.start(dir);
        credentials = s3.writeCredentials(dir.resolve("s3.properties"));
        // Flink's S3 file system as a job has it (open-shard entries, manifests go through it)
        Configuration flink = new Configuration();
        flink.setString("s3.endpoint", s3.endpoint());
        flink.setString("s3.path.style.access", "true");
        flink.setString("s3.access-key", s3.accessKey());
        flink.setString("s3.secret-key", s3.secretKey());
        FileSystem.initialize(flink, null);
    }

    @AfterAll
    static void stop() {
        s3.close();
    }

    /** Checkpoint bytes of the run: total, largest single checkpoint, and data bytes written. */
    private record Cost(long checkpointBytes, long largest, long dataBytes, long byBudget) {
        double perDataByte() {
            return (double) checkpointBytes / dataBytes;
        }
    }

    private Cost run(String bucket, long budget) throws Exception {
        s3.createBucket(bucket);
        String base = "s3://" + bucket + "/shards";
        ShardSettings settings =
                new ShardSettings(
                        base,
                        new S3ShardStoreFactory(
                                base,
                                "part",
                                s3.endpoint(),
                                true,
                                null,
                                credentials.toString(),
                                S3ShardStoreFactory.DEFAULT_PART_SIZE),
                        Compression.NONE,
                        6,
                        "part",
                        1L << 30,
                        MAX_AGE,
                        "'dt='yyyy-MM-dd/'hour='HH",
                        ZoneOffset.UTC,
                        Duration.ofDays(100_000),
                        false,
                        "",
                        false,
                        Duration.ZERO,
                        LostShardAction.FAIL,
                        budget,
                        null,
                        null,
                        false,
                        ShardLayout.SEPARATE,
                        ShardIndex.NONE,
                        null,
                        true);
        long[] now = {Instant.parse("2026-11-27T00:00:00Z").toEpochMilli()};
        UnregisteredMetricsGroup group = new UnregisteredMetricsGroup();
        ShardWriterMetrics metrics = new ShardWriterMetrics(group);
        ShardWriter w =
                new ShardWriter(
                        settings,
                        settings.storeFactory().create(),
                        JOB,
                        0,
                        List.of(),
                        0,
                        -1,
                        () -> now[0],
                        metrics,
                        new LostShards(settings.onLostShard(), group));
        ShardWriterStateSerializer serializer = new ShardWriterStateSerializer();
        long hour0 = Instant.parse("2026-11-20T00:00:00Z").toEpochMilli();
        byte[] value = new byte[RECORD];
        long checkpointBytes = 0;
        long largest = 0;
        long data = 0;
        long seconds = MAX_AGE.toSeconds();
        for (long s = 1; s <= seconds; s++) {
            now[0] += 1000;
            for (int b = 0; b < BUCKETS; b++) {
                long t = hour0 + b * 3_600_000L; // one bucket per hour of event time
                w.write(SourceRecord.of(value, "in", b, s, t), new Context(t));
                data += RECORD;
            }
            if (s % INTERVAL.toSeconds() == 0) {
                w.prepareCommit();
                long bytes = 0;
                for (ShardWriterState state : w.snapshotState(s / INTERVAL.toSeconds())) {
                    bytes += serializer.serialize(state).length;
                }
                checkpointBytes += bytes;
                largest = Math.max(largest, bytes);
            }
        }
        w.close();
        return new Cost(checkpointBytes, largest, data, metrics.finishedByBudget.getCount());
    }

    @Test
    void theBudgetBoundsWhatEachCheckpointHolds() throws Exception {
        Cost unbounded = run("unbounded", Long.MAX_VALUE);
        long budget = 4L << 20;
        Cost bounded = run("bounded", budget);
        System.out.printf(
                "checkpoint bytes per data byte: %.1f unbounded (largest checkpoint %d bytes),"
                        + " %.2f with a %d-byte budget (largest %d bytes, %d shards finished by"
                        + " it)%n",
                unbounded.perDataByte(),
                unbounded.largest(),
                bounded.perDataByte(),
                budget,
                bounded.largest(),
                bounded.byBudget());
        // max-age / (2 x interval) = 45, plus the per-shard state
        assertTrue(
                unbounded.perDataByte() > 40 && unbounded.perDataByte() < 50,
                "unbounded: " + unbounded.perDataByte());
        assertEquals(0, unbounded.byBudget());
        // each checkpoint holds at most the budget of tails, plus a little state per shard
        assertTrue(bounded.largest() <= budget + BUCKETS * 1024L, "largest " + bounded.largest());
        assertTrue(bounded.byBudget() > 0);
        assertTrue(bounded.perDataByte() < unbounded.perDataByte() / 5, "" + bounded.perDataByte());
    }

    private record Context(Long timestamp) implements SinkWriter.Context {
        @Override
        public long currentWatermark() {
            return Long.MIN_VALUE;
        }
    }
}
