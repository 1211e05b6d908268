package io.tfstream.job;

import io.tfstream.api.TfRecordShards;
import io.tfstream.api.TfRecordShardsBuilder;
import io.tfstream.api.options.KafkaSinkOptions;
import io.tfstream.api.options.ShardOptions;
import io.tfstream.operators.shards.store.RecoverableShardStore;
import io.tfstream.operators.shards.store.RecoverableShardStoreFactory;
import io.tfstream.operators.shards.store.S3AccessProbe;
import io.tfstream.operators.shards.store.ShardStoreFactory;
import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The {@code shards.*} options: TFRecord shards of the accepted records in event-time buckets, the
 * guards in front of them (bucket skew, late buckets) and the shard sink's {@link ShardSettings},
 * all through the library's {@link TfRecordShards} builder. Nothing is checked or built without
 * {@code shards.path}.
 */
final class ShardConfig {
    /** {@code shards.max-bucket-skew} of a Kafka source when it is not set. */
    static final Duration DEFAULT_MAX_BUCKET_SKEW = Duration.ofDays(7);

    /** Parts of one S3 multipart upload at most. */
    private static final long MAX_PARTS = 10_000;

    private final JobConfig c;
    // shards.*, with schema.kind
    private final StageView s;

    ShardConfig(JobConfig c) {
        this.c = c;
        this.s = c.view(JobOptionStage.SHARDS, JobOptionStage.SCHEMA);
        if (enabled()) {
            check();
        }
    }

    boolean enabled() {
        return s.has(ShardOptions.PATH);
    }

    private void check() {
        String path = path();
        if (scheme().isEmpty()) {
            throw OptionChecks.invalid(
                    path,
                    "shards.path",
                    "a URI with a scheme: file:///dir, s3://bucket/prefix, ...");
        }
        MemorySize partSize = s.get(ShardOptions.PART_SIZE);
        MemorySize targetSize = s.get(ShardOptions.TARGET_SIZE);
        if (onS3() && targetSize.getBytes() > MAX_PARTS * partSize.getBytes()) {
            throw new JobConfigException(
                    "shards.target-size "
                            + targetSize
                            + " needs more than S3's "
                            + MAX_PARTS
                            + " parts of shards.part-size "
                            + partSize
                            + ": raise shards.part-size or lower shards.target-size");
        }
        try {
            ShardOptions.checkCombinations(s, JobOptionStage.SHARDS.prefix());
        } catch (IllegalArgumentException e) {
            throw new JobConfigException(e.getMessage());
        }
        if (scheme().equals("gs")
                && adoptUploads()
                && !c.view(JobOptionStage.KAFKA_SINKS).get(KafkaSinkOptions.ADOPT_TRANSACTIONS)) {
            // Flink's GCS writer continues a shard in place, under its committed name: a second job
            // that adopts the running first job's open shards commits the same objects, and the
            // one that commits second takes the other's object for its own when sizes match.
            throw new JobConfigException(
                    "shards.adopt-uploads: true with output.adopt-transactions: false (a second job"
                            + " beside a running first one) on gs://: Flink's GCS writer continues"
                            + " every open shard in place, so both jobs would commit the same"
                            + " objects; leave shards.adopt-uploads unset (false then), which"
                            + " leaves those shards to the first job");
        }
    }

    /** The scheme of {@code shards.path}, lower case; "" without one. */
    private String scheme() {
        String path = path();
        int i = path.indexOf("://");
        return i <= 0 ? "" : path.substring(0, i).toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * Refuses S3 shards, and shard statistics, without a durable file-system checkpoint storage:
     * the job's {@code flink.execution.checkpointing.dir}, or the cluster's {@code
     * execution.checkpointing.dir} ({@code flink}: the job's effective Flink configuration), and
     * not the {@code jobmanager} storage. The unfinished tail of every open S3 shard is kept in the
     * checkpoint, not as a temporary object; so are the statistics sketches of every open shard,
     * megabytes each on wide records, beyond what the JobManager's storage holds.
     */
    void checkDurableCheckpoints(ReadableConfig flink) {
        boolean statistics = s.get(ShardOptions.STATISTICS);
        if (!onS3() && !statistics) {
            return;
        }
        String dir =
                c.checkpointDir()
                        .orElseGet(
                                () ->
                                        flink.getOptional(
                                                        CheckpointingOptions.CHECKPOINTS_DIRECTORY)
                                                .orElse(""));
        String storage = flink.getOptional(CheckpointingOptions.CHECKPOINT_STORAGE).orElse("");
        if ((!dir.contains("://") || storage.equalsIgnoreCase("jobmanager")) && !onS3()) {
            throw new JobConfigException(
                    "shards.statistics: true keeps the statistics sketches of every open shard in"
                            + " the checkpoint (megabytes per shard on wide records, beyond the"
                            + " jobmanager checkpoint storage's limit): set"
                            + " flink.execution.checkpointing.dir (or the cluster's"
                            + " execution.checkpointing.dir) to a durable file-system path"
                            + " (file://... or s3://...), got '"
                            + dir
                            + "'"
                            + (storage.isEmpty() ? "" : " with checkpoint storage " + storage));
        }
        if (!dir.contains("://") || storage.equalsIgnoreCase("jobmanager")) {
            throw new JobConfigException(
                    "shards.path "
                            + path()
                            + " is on S3: set flink.execution.checkpointing.dir (or the cluster's"
                            + " execution.checkpointing.dir) to a durable file-system path"
                            + " (s3://... or file://...), got '"
                            + dir
                            + "'"
                            + (storage.isEmpty() ? "" : " with checkpoint storage " + storage)
                            + ". The unfinished tail (below S3's 5 MiB smallest part) of every"
                            + " open S3 shard is kept in the checkpoint, not as a temporary"
                            + " object, so checkpoints must outlive the job's processes.");
        }
    }

    /** Whether shards go to S3 through tfstream's own multipart writer. */
    boolean onS3() {
        return enabled() && List.of("s3", "s3a").contains(scheme());
    }

    /**
     * Where the shards' bytes go: S3 multipart uploads for {@code s3://} and {@code s3a://} (never
     * Flink's S3 writer, whose temporary objects leak), else the recoverable writer of the path's
     * Flink file system, checked here: an unknown scheme, or a file system without a resumable
     * recoverable writer, fails naming the scheme and why. Call once the file systems are
     * initialised (plugins loaded).
     */
    ShardStoreFactory storeFactory() {
        return storeFactory(new org.apache.flink.configuration.Configuration());
    }

    /** As {@link #storeFactory()}, S3 settings the job does not set taken from {@code flink}. */
    /**
     * The S3 start-up probe ({@code shards.s3-probe}) of an {@code s3://} shard path, run once
     * where the job is built; nothing on other file systems.
     */
    void probeStore(ReadableConfig flink) {
        if (!onS3() || !s.get(ShardOptions.S3_PROBE)) {
            return;
        }
        String path = path();
        try {
            S3AccessProbe.check(S3Settings.shardStoreFactory(c, path, flink));
        } catch (java.io.IOException e) {
            throw new JobConfigException("shards.path " + path + ": " + e.getMessage(), e);
        }
    }

    ShardStoreFactory storeFactory(ReadableConfig flink) {
        String path = path();
        if (onS3()) {
            return S3Settings.shardStoreFactory(c, path, flink);
        }
        try {
            RecoverableShardStore.writerOf(path);
        } catch (java.io.IOException e) {
            throw new JobConfigException(e.getMessage(), e);
        }
        return new RecoverableShardStoreFactory(path);
    }

    /** Whether each schema in force is copied beside the shards ({@code shards.schema-copies}). */
    boolean schemaCopies() {
        return s.get(ShardOptions.SCHEMA_COPIES);
    }

    /** {@code shards.path}. */
    String path() {
        return s.get(ShardOptions.PATH);
    }

    /** The shards of records checked against the schema of {@code schemaFingerprint}. */
    TfRecordShards shards(String schemaFingerprint) {
        return build(
                builder(schemaFingerprint, new org.apache.flink.configuration.Configuration()));
    }

    /**
     * The shard sink and its guards (bucket skew, late buckets), built with the library's builder
     * under the job's operator uids; {@code schema} shapes the statistics ({@code
     * shards.statistics}); {@code flink}: the configuration the job is built with.
     */
    TfRecordShards shards(JobSchema schema, ReadableConfig flink) {
        TfRecordShardsBuilder b = builder(schema.fingerprint(), flink);
        if (s.get(ShardOptions.STATISTICS) && c.tfmdSchema()) {
            b.setStatisticsSchema(schema.bytes(), schema.fileName());
        }
        return build(b);
    }

    private static TfRecordShards build(TfRecordShardsBuilder b) {
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("statistics:")) {
                throw new JobConfigException("shards." + e.getMessage(), e);
            }
            throw e;
        }
    }

    private TfRecordShardsBuilder builder(String schemaFingerprint, ReadableConfig flink) {
        TfRecordShardsBuilder b =
                TfRecordShards.builder(path())
                        .fromConfig(s)
                        .setStoreFactory(storeFactory(flink))
                        .setSchemaFingerprint(schemaFingerprint)
                        .setAdoptUploads(adoptUploads());
        if (s.get(ShardOptions.STATISTICS)) {
            b.setStatistics(c.statistics());
        }
        if (!s.has(ShardOptions.MAX_BUCKET_SKEW) && !c.source().files()) {
            // A file source is a replay of the past (event times from modification times or a
            // feature written back then), checked only when set; a Kafka source by default.
            b.setSkewLimit(DEFAULT_MAX_BUCKET_SKEW);
        }
        return b;
    }

    /**
     * {@code shards.adopt-uploads}, unset as {@code output.adopt-transactions}: a job told to leave
     * another job's transactions alone runs beside it, and must leave its uploads alone as well.
     */
    boolean adoptUploads() {
        return s.getOptional(ShardOptions.ADOPT_UPLOADS)
                .orElseGet(
                        () ->
                                c.view(JobOptionStage.KAFKA_SINKS)
                                        .get(KafkaSinkOptions.ADOPT_TRANSACTIONS));
    }
}
