package io.tfstream.job;

import io.tfstream.api.TfRecordShards;
import io.tfstream.api.TfRecordShardsBuilder;
import io.tfstream.api.model.ShardIndex;
import io.tfstream.api.model.SkewAction;
import io.tfstream.api.options.SchemaOptions;
import io.tfstream.operators.shards.ShardSettings;
import io.tfstream.operators.shards.store.RecoverableShardStore;
import io.tfstream.operators.shards.store.RecoverableShardStoreFactory;
import io.tfstream.operators.shards.store.S3AccessProbe;
import io.tfstream.operators.shards.store.ShardStoreFactory;
import io.tfstream.tfrecord.Compression;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The {@code shards.*} options: TFRecord shards of the accepted records in event-time buckets, the
 * guards in front of them (bucket skew, late buckets) and the shard sink's {@link ShardSettings},
 * all through the library's {@link TfRecordShards} builder. Nothing is checked or built without
 * {@code shards.path}.
 */
final class ShardConfig {
    /** Parts of one S3 multipart upload at most. */
    private static final long MAX_PARTS = 10_000;

    private final JobConfig c;

    ShardConfig(JobConfig c) {
        this.c = c;
        if (enabled()) {
            check();
        }
    }

    boolean enabled() {
        return c.contains(JobOptions.SHARDS_PATH);
    }

    private void check() {
        String path = c.get(JobOptions.SHARDS_PATH);
        if (scheme().isEmpty()) {
            throw OptionChecks.invalid(
                    path,
                    "shards.path",
                    "a URI with a scheme: file:///dir, s3://bucket/prefix, ...");
        }
        long partSize = c.get(JobOptions.SHARDS_PART_SIZE).getBytes();
        if (onS3() && c.get(JobOptions.SHARDS_TARGET_SIZE).getBytes() > MAX_PARTS * partSize) {
            throw new JobConfigException(
                    "shards.target-size "
                            + c.get(JobOptions.SHARDS_TARGET_SIZE)
                            + " needs more than S3's "
                            + MAX_PARTS
                            + " parts of shards.part-size "
                            + c.get(JobOptions.SHARDS_PART_SIZE)
                            + ": raise shards.part-size or lower shards.target-size");
        }
        try {
            DateTimeFormatter.ofPattern(c.get(JobOptions.SHARDS_BUCKET_PATTERN))
                    .withZone(zone())
                    .format(Instant.EPOCH);
        } catch (DateTimeException | IllegalArgumentException e) {
            throw new JobConfigException(
                    "invalid shards.bucket-pattern / shards.zone ('"
                            + c.get(JobOptions.SHARDS_BUCKET_PATTERN)
                            + "' in "
                            + c.get(JobOptions.SHARDS_ZONE)
                            + "): "
                            + e.getMessage());
        }
        if (c.contains(JobOptions.SHARDS_SPLIT_FEATURE) && !c.contains(JobOptions.SHARDS_SPLITS)) {
            throw new JobConfigException(
                    "shards.split-feature names the partition feature of shards.splits; set"
                            + " shards.splits (e.g. train:2,eval:1)");
        }
        if (c.get(JobOptions.SHARDS_INDEX) == ShardIndex.DALI
                && compression() != Compression.NONE) {
            throw new JobConfigException(
                    "shards.index: dali indexes uncompressed shards (DALI reads no compressed"
                            + " TFRecords); set shards.compression: none, not "
                            + compression().cliName());
        }
        if (c.get(JobOptions.SHARDS_STATISTICS) && !c.get(JobOptions.SHARDS_SUCCESS_MARKERS)) {
            throw new JobConfigException(
                    "shards.statistics: true writes a bucket's statistics with its _SUCCESS; set"
                            + " shards.success-markers: true or shards.statistics: false");
        }
        if (c.get(JobOptions.SHARDS_SUCCESS_MARKERS) && !c.get(JobOptions.SHARDS_MANIFESTS)) {
            throw new JobConfigException(
                    "shards.success-markers: true lists the shards by their manifests; set"
                            + " shards.manifests: true or shards.success-markers: false");
        }
        if (scheme().equals("gs")
                && adoptUploads()
                && !c.get(JobOptions.OUTPUT_ADOPT_TRANSACTIONS)) {
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
        String path = c.get(JobOptions.SHARDS_PATH);
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
        boolean statistics = c.get(JobOptions.SHARDS_STATISTICS);
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
                            + c.get(JobOptions.SHARDS_PATH)
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
        if (!onS3() || !c.get(JobOptions.SHARDS_S3_PROBE)) {
            return;
        }
        String path = c.get(JobOptions.SHARDS_PATH);
        try {
            S3AccessProbe.check(S3Settings.shardStoreFactory(c, path, flink));
        } catch (java.io.IOException e) {
            throw new JobConfigException("shards.path " + path + ": " + e.getMessage(), e);
        }
    }

    ShardStoreFactory storeFactory(ReadableConfig flink) {
        String path = c.get(JobOptions.SHARDS_PATH);
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

    private ZoneId zone() {
        return ZoneId.of(c.get(JobOptions.SHARDS_ZONE));
    }

    /**
     * The {@code shards.max-bucket-skew} in force; empty when event times are not checked. A file
     * source is a replay of the past (a record's event time is its file's modification time, or an
     * event-time feature written back then), so its skew is checked only when the option is set; a
     * Kafka source is checked against {@link JobOptions#DEFAULT_MAX_BUCKET_SKEW} by default.
     */
    Optional<Duration> maxBucketSkew() {
        if (c.contains(JobOptions.SHARDS_MAX_BUCKET_SKEW)) {
            return Optional.of(c.get(JobOptions.SHARDS_MAX_BUCKET_SKEW));
        }
        return c.get(JobOptions.SOURCE_TYPE) == JobOptions.SourceType.FILES
                ? Optional.empty()
                : Optional.of(JobOptions.DEFAULT_MAX_BUCKET_SKEW);
    }

    SkewAction skewAction() {
        return c.get(JobOptions.SHARDS_SKEW_ACTION);
    }

    ShardSettings settings(String schemaFingerprint) {
        return settings(schemaFingerprint, new org.apache.flink.configuration.Configuration());
    }

    /**
     * {@code shards.compression}; unless set: none with a DALI index (DALI reads uncompressed files
     * only), else gzip with {@code shards.splits}, as TFX's ExampleGen writes its splits.
     */
    Compression compression() {
        if (!c.contains(JobOptions.SHARDS_COMPRESSION)) {
            if (c.get(JobOptions.SHARDS_INDEX) == ShardIndex.DALI) {
                return Compression.NONE;
            }
            if (c.contains(JobOptions.SHARDS_SPLITS)) {
                return Compression.GZIP;
            }
        }
        return c.get(JobOptions.SHARDS_COMPRESSION);
    }

    /** The sink's settings; {@code flink}: the configuration the job is built with. */
    ShardSettings settings(String schemaFingerprint, ReadableConfig flink) {
        return builder(schemaFingerprint, flink).build().settings();
    }

    /**
     * The shard sink and its guards (bucket skew, late buckets), built with the library's builder
     * under the job's operator uids; {@code schema} shapes the statistics ({@code
     * shards.statistics}).
     */
    TfRecordShards shards(JobSchema schema, ReadableConfig flink) {
        TfRecordShardsBuilder b = builder(schema.fingerprint(), flink);
        if (c.get(JobOptions.SHARDS_STATISTICS) && c.contains(JobOptions.SCHEMA_PATH)) {
            b.setStatisticsSchema(schema.bytes(), schema.fileName());
        }
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
        return TfRecordShards.builder(c.get(JobOptions.SHARDS_PATH))
                .setStoreFactory(storeFactory(flink))
                .setCompression(compression())
                .setCompressionLevel(c.get(JobOptions.SHARDS_COMPRESSION_LEVEL))
                .setPrefix(c.get(JobOptions.SHARDS_PREFIX))
                .setTargetSize(c.get(JobOptions.SHARDS_TARGET_SIZE).getBytes())
                .setMaxAge(c.get(JobOptions.SHARDS_MAX_AGE))
                .setBucketPattern(c.get(JobOptions.SHARDS_BUCKET_PATTERN))
                .setZone(zone())
                // With processing_time the skew guard only counts: the sink re-buckets.
                .setSkewGuard(maxBucketSkew().orElse(null), skewAction())
                .setLateRecords(c.get(JobOptions.SHARDS_LATE_RECORDS))
                .setOnLostShard(c.get(JobOptions.SHARDS_ON_LOST_SHARD))
                .setAdoptUploads(adoptUploads())
                .setCheckpointBudget(c.get(JobOptions.SHARDS_CHECKPOINT_BUDGET).getBytes())
                .setManifests(c.get(JobOptions.SHARDS_MANIFESTS))
                .setMetadataLayout(c.get(JobOptions.SHARDS_METADATA_LAYOUT))
                .setIndex(c.get(JobOptions.SHARDS_INDEX))
                .setSchemaFingerprint(schemaFingerprint)
                .setSuccessMarkers(c.get(JobOptions.SHARDS_SUCCESS_MARKERS))
                .setSuccessDelay(c.get(JobOptions.SHARDS_SUCCESS_DELAY))
                .setSplits(
                        c.contains(JobOptions.SHARDS_SPLITS)
                                ? c.get(JobOptions.SHARDS_SPLITS)
                                : null,
                        c.contains(JobOptions.SHARDS_SPLIT_FEATURE)
                                ? c.get(JobOptions.SHARDS_SPLIT_FEATURE)
                                : null,
                        c.get(JobOptions.SCHEMA_KIND) == SchemaOptions.Kind.SEQUENCE_EXAMPLE)
                .setUids(
                        PipelineOperator.SHARD_SINK.uid(),
                        PipelineOperator.SHARD_MARKER_COORDINATOR.uid(),
                        PipelineOperator.SHARD_COMMITTABLE_ROUTER.uid())
                .setGuardUids(
                        PipelineOperator.SKEW_GUARD.uid(), PipelineOperator.LATE_BUCKET_GUARD.uid())
                .setSequenceExample(
                        c.get(JobOptions.SCHEMA_KIND) == SchemaOptions.Kind.SEQUENCE_EXAMPLE)
                .setStatistics(
                        c.get(JobOptions.SHARDS_STATISTICS), c.get(JobOptions.STATISTICS_EPSILON))
                .setStatisticsWeightFeature(
                        c.contains(JobOptions.STATISTICS_WEIGHT_FEATURE)
                                ? c.get(JobOptions.STATISTICS_WEIGHT_FEATURE)
                                : null);
    }

    /**
     * {@code shards.adopt-uploads}, unset as {@code output.adopt-transactions}: a job told to leave
     * another job's transactions alone runs beside it, and must leave its uploads alone as well.
     */
    boolean adoptUploads() {
        return c.contains(JobOptions.SHARDS_ADOPT_UPLOADS)
                ? c.get(JobOptions.SHARDS_ADOPT_UPLOADS)
                : c.get(JobOptions.OUTPUT_ADOPT_TRANSACTIONS);
    }
}
