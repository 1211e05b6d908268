package io.tfstream.operators.shards;

import io.tfstream.tfrecord.Compression;
import java.io.Serializable;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Objects;

/**
 * What the shard sink needs: where, how compressed, how big, how old at most, how bucketed and
 * named.
 *
 * @param basePath base path ({@code file://} or {@code s3://})
 * @param compression shard compression
 * @param prefix the part prefix
 * @param targetSize a shard is finished once its parts reach this many bytes
 * @param compactEveryCheckpoints a shard is finished at the latest after this many checkpoints
 * @param bucketPattern DateTimeFormatter pattern of the bucket
 * @param zone zone of the bucket pattern
 * @param maxBucketSkew event times further than this from now are bucketed by processing time (when
 *     the skew action keeps them), or null when such records never reach the sink
 * @param manifests whether each finished shard gets its {@code <shard>.manifest.json}
 * @param schemaFingerprint the fingerprint of the schema that accepted the records (manifests)
 * @param successMarkers whether a bucket gets its {@code _SUCCESS} marker once it is complete
 * @param successDelay how long after a bucket's end (in event time) it is complete
 */
public record ShardSettings(
        String basePath,
        Compression compression,
        String prefix,
        long targetSize,
        int compactEveryCheckpoints,
        String bucketPattern,
        ZoneId zone,
        Duration maxBucketSkew,
        boolean manifests,
        String schemaFingerprint,
        boolean successMarkers,
        Duration successDelay)
        implements Serializable {
    public ShardSettings {
        Objects.requireNonNull(basePath, "basePath");
        Objects.requireNonNull(compression, "compression");
        Objects.requireNonNull(prefix, "prefix");
        if (prefix.isEmpty() || prefix.startsWith(".") || prefix.startsWith("_")) {
            throw new IllegalArgumentException(
                    "shards.prefix must be non-empty and not start with '.' or '_', got '"
                            + prefix
                            + "'");
        }
        if (targetSize < 1) {
            throw new IllegalArgumentException("shards.target-size must be positive");
        }
        if (successMarkers && !manifests) {
            throw new IllegalArgumentException(
                    "shards.success-markers lists the shards' manifests: it needs"
                            + " shards.manifests: true");
        }
        Objects.requireNonNull(successDelay, "successDelay");
        if (successDelay.isNegative()) {
            throw new IllegalArgumentException("shards.success-delay must not be negative");
        }
        if (compactEveryCheckpoints < 1) {
            throw new IllegalArgumentException("compaction needs at least one checkpoint");
        }
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
}
