package io.tfstream.operators.shards;

import io.tfstream.api.model.LostShardAction;
import io.tfstream.api.model.ShardIndex;
import io.tfstream.api.options.OptionList;
import io.tfstream.api.options.ShardOptions;
import io.tfstream.operators.shards.store.ShardStoreFactory;
import io.tfstream.shards.ShardLayout;
import io.tfstream.shards.TfxSplits;
import io.tfstream.tfrecord.Compression;
import java.io.Serializable;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.MemorySize;

/**
 * What the shard sink needs: where, how compressed, how big and how old a shard gets at most, how
 * bucketed and named.
 *
 * @param basePath base path (any scheme {@link #storeFactory} writes to)
 * @param storeFactory builds the shard store of {@code basePath} on the task
 * @param compression shard compression
 * @param compressionLevel deflate level 0-9 of gzip and zlib shards
 * @param prefix the shard file name prefix
 * @param targetSize a shard is finished once it holds this many bytes as stored
 * @param maxAge a shard is finished at the first checkpoint this long (processing time) after it
 *     was opened
 * @param bucketPattern DateTimeFormatter pattern of the bucket
 * @param zone zone of the bucket pattern
 * @param maxBucketSkew event times further than this from now are bucketed by processing time (when
 *     the skew action keeps them), or null when such records never reach the sink
 * @param manifests whether each finished shard gets its {@code <shard>.manifest.json}
 * @param schemaFingerprint the fingerprint of the schema that accepted the records (manifests)
 * @param successMarkers whether a bucket gets its {@code _SUCCESS} marker once it is complete
 * @param successDelay how long after a bucket's end (in event time) it is complete
 * @param onLostShard what happens to a shard the store lost while state holds it
 * @param checkpointBudget bytes of unfinished parts a writer subtask keeps in a checkpoint at most
 *     (S3); beyond it the shards with the largest ones are finished at the checkpoint
 * @param splits TFX data splits: each record goes to {@code <bucket>/Split-<name>/}; null: none
 * @param splitFeature the partition feature of {@code splits}, or null to split by the record bytes
 * @param sequence whether records are SequenceExamples (the partition feature is of the context)
 * @param layout where manifests and markers go: a metadata tree of their own, or beside the shards
 * @param index the index file written for each finished shard
 * @param statistics TFDV's statistics of each shard and, merged, of each finished bucket; null:
 *     none
 * @param adoptUploads whether a writer restored from another job's snapshot continues that job's
 *     shards the store resumes in place (S3 uploads with parts); false leaves them to that job,
 *     which may still run (blue/green), and counts them as lost here
 */
@Internal
public record ShardSettings(
        String basePath,
        ShardStoreFactory storeFactory,
        Compression compression,
        int compressionLevel,
        String prefix,
        long targetSize,
        Duration maxAge,
        String bucketPattern,
        ZoneId zone,
        Duration maxBucketSkew,
        boolean manifests,
        String schemaFingerprint,
        boolean successMarkers,
        Duration successDelay,
        LostShardAction onLostShard,
        long checkpointBudget,
        TfxSplits splits,
        String splitFeature,
        boolean sequence,
        ShardLayout layout,
        ShardIndex index,
        ShardFeatureStatistics statistics,
        boolean adoptUploads)
        implements Serializable {

    /** {@code shards.checkpoint-budget} unless set. */
    public static final long DEFAULT_CHECKPOINT_BUDGET =
            ShardOptions.CHECKPOINT_BUDGET.defaultValue().getBytes();

    public ShardSettings {
        Objects.requireNonNull(onLostShard, "onLostShard");
        Objects.requireNonNull(basePath, "basePath");
        Objects.requireNonNull(storeFactory, "storeFactory");
        Objects.requireNonNull(compression, "compression");
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(maxAge, "maxAge");
        Objects.requireNonNull(successDelay, "successDelay");
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(index, "index");
        if (index == ShardIndex.DALI && compression != Compression.NONE) {
            throw new IllegalArgumentException(
                    "a DALI index holds offsets into an uncompressed file, and DALI reads no"
                            + " compressed TFRecords: it needs compression none, not "
                            + compression.cliName());
        }
        // the checks of the shards.* options, named as the record's components
        OptionList checks = ShardOptions.OPTIONS;
        checks.check(ShardOptions.PREFIX, prefix, "prefix");
        checks.check(ShardOptions.COMPRESSION_LEVEL, compressionLevel, "compressionLevel");
        checks.check(
                ShardOptions.TARGET_SIZE, new MemorySize(Math.max(0, targetSize)), "targetSize");
        checks.check(ShardOptions.MAX_AGE, maxAge, "maxAge");
        checks.check(ShardOptions.SUCCESS_DELAY, successDelay, "successDelay");
        if (checkpointBudget < 0) {
            throw new IllegalArgumentException(
                    "checkpointBudget must not be negative, got " + checkpointBudget);
        }
        if (splitFeature != null && splits == null) {
            throw new IllegalArgumentException("splitFeature needs splits");
        }
        if (successMarkers && !manifests) {
            throw new IllegalArgumentException(
                    "successMarkers lists the shards' manifests: it needs manifests");
        }
        if (statistics != null && !successMarkers) {
            throw new IllegalArgumentException(
                    "statistics are merged per bucket where its _SUCCESS is written: they need"
                            + " successMarkers");
        }
    }

    /**
     * The event-time bucket of sink bucket {@code bucket}: itself, or without its {@code
     * /Split-<name>} with data splits.
     */
    public String timeBucket(String bucket) {
        if (splits == null) {
            return bucket;
        }
        int slash = bucket.lastIndexOf("/Split-");
        return slash < 0 ? bucket : bucket.substring(0, slash);
    }

    /** These settings with data splits {@code splits} by {@code splitFeature} (or the bytes). */
    public ShardSettings withSplits(TfxSplits splits, String splitFeature, boolean sequence) {
        return copy(splits, splitFeature, sequence, statistics);
    }

    /** These settings with TFDV's statistics of shards and buckets {@code statistics}. */
    public ShardSettings withStatistics(ShardFeatureStatistics statistics) {
        return copy(splits, splitFeature, sequence, statistics);
    }

    private ShardSettings copy(
            TfxSplits splits,
            String splitFeature,
            boolean sequence,
            ShardFeatureStatistics statistics) {
        return new ShardSettings(
                basePath,
                storeFactory,
                compression,
                compressionLevel,
                prefix,
                targetSize,
                maxAge,
                bucketPattern,
                zone,
                maxBucketSkew,
                manifests,
                schemaFingerprint,
                successMarkers,
                successDelay,
                onLostShard,
                checkpointBudget,
                splits,
                splitFeature,
                sequence,
                layout,
                index,
                statistics,
                adoptUploads);
    }

    /** The file name suffix of {@link #compression()}: .tfrecord, .tfrecord.gz, .tfrecord.zz. */
    public String suffix() {
        switch (compression) {
            case GZIP:
                return ".tfrecord.gz";
            case ZLIB:
                return ".tfrecord.zz";
            default:
                return ".tfrecord";
        }
    }

    /** The directory of bucket {@code bucket} under the base path ("" is the base path). */
    public String bucketDir(String bucket) {
        return ShardLayout.dataDir(basePath, bucket);
    }

    /** The directory of the manifests of bucket {@code bucket}'s shards. */
    public String metadataDir(String bucket) {
        return layout.metadataDir(basePath, bucket);
    }
}
