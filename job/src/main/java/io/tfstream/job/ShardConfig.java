package io.tfstream.job;

import static io.tfstream.job.OptionChecks.atLeastOneByte;
import static io.tfstream.job.OptionChecks.positive;

import io.tfstream.operators.shards.BucketSkewGuard;
import io.tfstream.operators.shards.LateBucketGuard;
import io.tfstream.operators.shards.ShardSettings;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;

/**
 * The {@code shards.*} options: TFRecord shards of the accepted records in event-time buckets, the
 * guards in front of them (bucket skew, late buckets) and the shard sink's {@link ShardSettings}.
 * Nothing is checked or built without {@code shards.path}.
 */
final class ShardConfig {
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
        String scheme = path.contains("://") ? path.substring(0, path.indexOf("://")) : "";
        if (!List.of("file", "s3", "s3a").contains(scheme)) {
            throw OptionChecks.invalid(path, "shards.path", "file:///dir or s3://bucket/prefix");
        }
        String prefix = c.get(JobOptions.SHARDS_PREFIX);
        if (prefix.isEmpty()
                || prefix.startsWith(".")
                || prefix.startsWith("_")
                || prefix.contains("/")) {
            throw OptionChecks.invalid(
                    prefix,
                    "shards.prefix",
                    "a name not starting with '.' or '_' (readers skip those) and without '/'");
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
        positive(c, JobOptions.SHARDS_MAX_AGE);
        if (c.contains(JobOptions.SHARDS_MAX_BUCKET_SKEW)) {
            positive(c, JobOptions.SHARDS_MAX_BUCKET_SKEW);
        }
        atLeastOneByte(c, JobOptions.SHARDS_TARGET_SIZE);
        if (c.get(JobOptions.SHARDS_SUCCESS_MARKERS) && !c.get(JobOptions.SHARDS_MANIFESTS)) {
            throw new JobConfigException(
                    "shards.success-markers: true lists the shards by their manifests; set"
                            + " shards.manifests: true or shards.success-markers: false");
        }
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

    /** The skew guard in front of the shards; empty without shards or without a skew check. */
    Optional<BucketSkewGuard> skewGuard() {
        return enabled()
                ? maxBucketSkew().map(s -> new BucketSkewGuard(s, skewAction()))
                : Optional.empty();
    }

    BucketSkewGuard.Action skewAction() {
        return c.get(JobOptions.SHARDS_SKEW_ACTION);
    }

    /** The guard of complete buckets; only with {@code _SUCCESS} markers. */
    Optional<LateBucketGuard> lateBucketGuard() {
        if (!enabled() || !c.get(JobOptions.SHARDS_SUCCESS_MARKERS)) {
            return Optional.empty();
        }
        return Optional.of(
                new LateBucketGuard(
                        c.get(JobOptions.SHARDS_BUCKET_PATTERN),
                        zone(),
                        c.get(JobOptions.SHARDS_SUCCESS_DELAY),
                        lateBucketAction()));
    }

    LateBucketGuard.Action lateBucketAction() {
        return c.get(JobOptions.SHARDS_LATE_RECORDS);
    }

    ShardSettings settings(String schemaFingerprint) {
        // A shard's age is counted in checkpoints: it can only be finished at one.
        long interval = c.get(JobOptions.CHECKPOINT_INTERVAL).toMillis();
        long maxAge = c.get(JobOptions.SHARDS_MAX_AGE).toMillis();
        int checkpoints =
                (int) Math.max(1, Math.min(Integer.MAX_VALUE, (maxAge + interval - 1) / interval));
        return new ShardSettings(
                c.get(JobOptions.SHARDS_PATH),
                c.get(JobOptions.SHARDS_COMPRESSION),
                c.get(JobOptions.SHARDS_PREFIX),
                c.get(JobOptions.SHARDS_TARGET_SIZE).getBytes(),
                checkpoints,
                c.get(JobOptions.SHARDS_BUCKET_PATTERN),
                zone(),
                skewAction() == BucketSkewGuard.Action.PROCESSING_TIME
                        ? maxBucketSkew().orElse(null)
                        : null,
                c.get(JobOptions.SHARDS_MANIFESTS),
                schemaFingerprint,
                c.get(JobOptions.SHARDS_SUCCESS_MARKERS),
                c.get(JobOptions.SHARDS_SUCCESS_DELAY));
    }
}
