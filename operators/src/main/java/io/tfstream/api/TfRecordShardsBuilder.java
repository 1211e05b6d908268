package io.tfstream.api;

import io.tfstream.api.model.LateRecords;
import io.tfstream.api.model.LostShardAction;
import io.tfstream.api.model.ShardIndex;
import io.tfstream.api.model.SkewAction;
import io.tfstream.api.model.StatisticsSettings;
import io.tfstream.api.options.SchemaOptions;
import io.tfstream.api.options.ShardOptions;
import io.tfstream.operators.shards.BucketSkewGuard;
import io.tfstream.operators.shards.LateBucketGuard;
import io.tfstream.operators.shards.ShardFeatureStatistics;
import io.tfstream.operators.shards.ShardSettings;
import io.tfstream.operators.shards.SplitGuard;
import io.tfstream.operators.shards.store.RecoverableShardStoreFactory;
import io.tfstream.operators.shards.store.ShardStoreFactory;
import io.tfstream.shards.ShardLayout;
import io.tfstream.shards.TfxSplits;
import io.tfstream.spec.MalformedSpecFileException;
import io.tfstream.spec.schema.SchemaLoader;
import io.tfstream.stats.StatsRole;
import io.tfstream.text.Quoted;
import io.tfstream.tfrecord.Compression;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ReadableConfig;
import org.tensorflow.metadata.v0.FeatureType;
import org.tensorflow.metadata.v0.Schema;

/**
 * Settings of {@link TfRecordShards}, with the defaults of {@code tfstream run}'s {@code shards.*}
 * options. Setters only record; {@link #build()} checks every setting once and names the one that
 * is wrong.
 */
@PublicEvolving
public final class TfRecordShardsBuilder {
    /** The shard sink's uid by default. */
    public static final String DEFAULT_UID = "shard-sink";

    /** The uid of the sink's marker coordinator by default. */
    public static final String DEFAULT_COORDINATOR_UID = "shard-marker-coordinator";

    /** The uid of the sink's committable router by default. */
    public static final String DEFAULT_ROUTER_UID = "shard-committable-router";

    /** The uid of the bucket-skew guard by default. */
    public static final String DEFAULT_SKEW_GUARD_UID = "bucket-skew-guard";

    /** The uid of the late-bucket guard by default. */
    public static final String DEFAULT_LATE_BUCKET_GUARD_UID = "late-bucket-guard";

    /** The uid of the split guard by default. */
    public static final String DEFAULT_SPLIT_GUARD_UID = "split-guard";

    private final String basePath;
    private ShardStoreFactory storeFactory;
    // defaults: the shards.* options' (ShardOptions)
    // null: not set, see compression()
    private Compression compression;
    private int compressionLevel = ShardOptions.COMPRESSION_LEVEL.defaultValue();
    private String prefix = ShardOptions.PREFIX.defaultValue();
    private long targetSize = ShardOptions.TARGET_SIZE.defaultValue().getBytes();
    private Duration maxAge = ShardOptions.MAX_AGE.defaultValue();
    private String bucketPattern = ShardOptions.BUCKET_PATTERN.defaultValue();
    private ZoneId zone = ZoneId.of(ShardOptions.ZONE.defaultValue()).normalized();
    private Duration maxBucketSkew;
    private boolean manifests = ShardOptions.MANIFESTS.defaultValue();
    private ShardLayout layout = ShardOptions.METADATA_LAYOUT.defaultValue();
    private ShardIndex index = ShardOptions.INDEX.defaultValue();
    private String schemaFingerprint = "";
    private boolean successMarkers = ShardOptions.SUCCESS_MARKERS.defaultValue();
    private Duration successDelay = ShardOptions.SUCCESS_DELAY.defaultValue();
    private LostShardAction onLostShard = ShardOptions.ON_LOST_SHARD.defaultValue();
    private boolean adoptUploads = ShardOptions.ADOPT_UPLOADS.defaultValue();
    private long checkpointBudget = ShardOptions.CHECKPOINT_BUDGET.defaultValue().getBytes();
    private String uid = DEFAULT_UID;
    private String coordinatorUid = DEFAULT_COORDINATOR_UID;
    private String routerUid = DEFAULT_ROUTER_UID;
    private Duration skewGuard;
    private SkewAction skewAction = ShardOptions.SKEW_ACTION.defaultValue();
    private LateRecords lateRecords = ShardOptions.LATE_RECORDS.defaultValue();
    private String skewGuardUid = DEFAULT_SKEW_GUARD_UID;
    private String lateBucketGuardUid = DEFAULT_LATE_BUCKET_GUARD_UID;
    private String splitGuardUid = DEFAULT_SPLIT_GUARD_UID;
    private String splits;
    private String splitFeature;
    private boolean sequenceExample;
    private boolean statistics = ShardOptions.STATISTICS.defaultValue();
    private boolean statisticsReport = ShardOptions.STATISTICS_REPORT.defaultValue();
    private double statisticsEpsilon = StatisticsSettings.DEFAULT_EPSILON;
    private String statisticsWeightFeature;
    private byte[] statisticsSchema;
    private String statisticsSchemaName;

    TfRecordShardsBuilder(String basePath) {
        this.basePath = basePath;
    }

    /**
     * Takes every {@link ShardOptions} set in {@code config} (keys relative to the stage, e.g.
     * {@code compression}, {@code target-size}), checked alone and together as {@code tfstream run}
     * checks {@code shards.*}, and with them {@link SchemaOptions#KIND}; {@code statistics: true}
     * turns the statistics on with the settings given to {@link #setStatistics(StatisticsSettings)}
     * (default {@link StatisticsSettings#defaults()}). Not taken: {@code path} (the builder's base
     * path), the S3 store's {@code part-size} and {@code s3-probe} (set with {@link
     * #setStoreFactory}) and {@code schema-copies} (the parse's {@link
     * TfstreamParseBuilder#setSchemaCopies}). Unset options keep their values.
     *
     * @throws IllegalArgumentException naming the key of a value out of range
     */
    public TfRecordShardsBuilder fromConfig(ReadableConfig config) {
        ShardOptions.OPTIONS.checkAll(config, "");
        ShardOptions.checkCombinations(config, "");
        config.getOptional(ShardOptions.COMPRESSION).ifPresent(this::setCompression);
        config.getOptional(ShardOptions.COMPRESSION_LEVEL).ifPresent(this::setCompressionLevel);
        config.getOptional(ShardOptions.PREFIX).ifPresent(this::setPrefix);
        config.getOptional(ShardOptions.TARGET_SIZE).ifPresent(m -> setTargetSize(m.getBytes()));
        config.getOptional(ShardOptions.MAX_AGE).ifPresent(this::setMaxAge);
        config.getOptional(ShardOptions.BUCKET_PATTERN).ifPresent(this::setBucketPattern);
        config.getOptional(ShardOptions.ZONE).ifPresent(z -> setZone(ZoneId.of(z)));
        config.getOptional(ShardOptions.MAX_BUCKET_SKEW).ifPresent(this::setSkewLimit);
        config.getOptional(ShardOptions.SKEW_ACTION).ifPresent(this::setSkewAction);
        config.getOptional(ShardOptions.MANIFESTS).ifPresent(this::setManifests);
        config.getOptional(ShardOptions.METADATA_LAYOUT).ifPresent(this::setMetadataLayout);
        config.getOptional(ShardOptions.INDEX).ifPresent(this::setIndex);
        config.getOptional(ShardOptions.SUCCESS_MARKERS).ifPresent(this::setSuccessMarkers);
        config.getOptional(ShardOptions.SUCCESS_DELAY).ifPresent(this::setSuccessDelay);
        config.getOptional(ShardOptions.LATE_RECORDS).ifPresent(this::setLateRecords);
        config.getOptional(ShardOptions.ON_LOST_SHARD).ifPresent(this::setOnLostShard);
        config.getOptional(ShardOptions.ADOPT_UPLOADS).ifPresent(this::setAdoptUploads);
        config.getOptional(ShardOptions.SPLITS)
                .ifPresent(
                        s ->
                                setDataSplits(
                                        s,
                                        config.getOptional(ShardOptions.SPLIT_FEATURE)
                                                .orElse(null)));
        config.getOptional(ShardOptions.CHECKPOINT_BUDGET)
                .ifPresent(m -> setCheckpointBudget(m.getBytes()));
        config.getOptional(ShardOptions.STATISTICS)
                .ifPresent(
                        on ->
                                setStatistics(
                                        !on
                                                ? null
                                                : statistics
                                                        ? currentStatistics()
                                                        : StatisticsSettings.defaults()));
        config.getOptional(ShardOptions.STATISTICS_REPORT).ifPresent(this::setStatisticsReport);
        config.getOptional(SchemaOptions.KIND)
                .ifPresent(k -> setSequenceExample(k == SchemaOptions.Kind.SEQUENCE_EXAMPLE));
        return this;
    }

    /**
     * TFX data splits (default none): {@code name:buckets} entries such as {@code train:2,eval:1};
     * each record goes to {@code <bucket>/Split-<name>/} by TFX ExampleGen's rule ({@link
     * TfxSplits}), by its bytes or, with {@code partitionFeature} (not null), by that feature (of a
     * SequenceExample's context with {@link #setSequenceExample}); records without a usable
     * partition feature are dead-lettered by the split guard ({@link TfRecordShards#guards()}).
     * Shards with splits are gzip unless {@link #setCompression} says otherwise.
     */
    public TfRecordShardsBuilder setDataSplits(String splits, String partitionFeature) {
        this.splits = splits;
        this.splitFeature = partitionFeature;
        return this;
    }

    /**
     * TFX data splits (default none): {@code name:buckets} entries such as {@code train:2,eval:1};
     * each record goes to {@code <bucket>/Split-<name>/} by TFX ExampleGen's rule ({@link
     * TfxSplits}), by its bytes or, with {@code partitionFeature} (not null), by that feature (of a
     * SequenceExample's context when {@code sequenceExample}); records without a usable partition
     * feature are dead-lettered by the split guard ({@link TfRecordShards#guards()}).
     *
     * @deprecated {@link #setDataSplits} and {@link #setSequenceExample}: one setter per setting,
     *     and a name that is not the validation builder's feature-path splits
     */
    @Deprecated
    public TfRecordShardsBuilder setSplits(
            String splits, String partitionFeature, boolean sequenceExample) {
        return setDataSplits(splits, partitionFeature).setSequenceExample(sequenceExample);
    }

    /** Whether records are SequenceExamples (default false): for statistics and data splits. */
    public TfRecordShardsBuilder setSequenceExample(boolean sequenceExample) {
        this.sequenceExample = sequenceExample;
        return this;
    }

    /**
     * TFDV's feature statistics of each shard and, merged, of each finished bucket, computed as
     * {@code statistics} says (null, the default: none), written before the bucket's {@code
     * _SUCCESS} as {@code _statistics/Split-<name>/FeatureStats.pb} in its metadata directory
     * (without splits {@code _statistics/FeatureStats.pb}), as TFX's {@code ExampleStatistics}
     * artifact holds them; top values and uniques from TFDV's sketches. Needs success markers. Each
     * record is parsed once more in the sink for them.
     */
    public TfRecordShardsBuilder setStatistics(StatisticsSettings statistics) {
        this.statistics = statistics != null;
        if (statistics != null) {
            this.statisticsEpsilon = statistics.epsilon();
            this.statisticsWeightFeature = statistics.weightFeature();
        }
        return this;
    }

    private StatisticsSettings currentStatistics() {
        return StatisticsSettings.builder()
                .setEpsilon(statisticsEpsilon)
                .setWeightFeature(statisticsWeightFeature)
                .build();
    }

    /**
     * TFDV's feature statistics of each shard and bucket, quantiles from sketches of error {@code
     * epsilon}.
     *
     * @deprecated {@link #setStatistics(StatisticsSettings)}: one value for the statistics
     */
    @Deprecated
    public TfRecordShardsBuilder setStatistics(boolean statistics, double epsilon) {
        this.statistics = statistics;
        this.statisticsEpsilon = epsilon;
        return this;
    }

    /**
     * With statistics: also each bucket's {@code report.html} beside its {@code FeatureStats.pb}
     * (default false), the page of {@code tfstream report}, comparing the bucket with the previous
     * event-time bucket when that one has statistics.
     */
    public TfRecordShardsBuilder setStatisticsReport(boolean report) {
        this.statisticsReport = report;
        return this;
    }

    /**
     * With statistics: weighted statistics too (TFDV's {@code weight_feature}, default none), each
     * record weighted by {@code feature}'s one INT or FLOAT value (a SequenceExample's context
     * feature); a record without exactly one value weighs 0.
     */
    public TfRecordShardsBuilder setStatisticsWeightFeature(String feature) {
        this.statisticsWeightFeature = feature;
        return this;
    }

    /**
     * With statistics: the TFMD schema (text or binary, named {@code fileName} in errors) whose
     * domains shape them as TFDV's {@code StatsOptions(schema=...)} does (default none): image
     * domains get bytes statistics, categorical ints and floats string statistics of their text.
     */
    public TfRecordShardsBuilder setStatisticsSchema(byte[] schema, String fileName) {
        this.statisticsSchema = schema == null ? null : schema.clone();
        this.statisticsSchemaName = fileName;
        return this;
    }

    /**
     * Where shards are written (default: Flink's recoverable writer of the base path's file
     * system); tfstream's own S3 store is set this way.
     */
    public TfRecordShardsBuilder setStoreFactory(ShardStoreFactory storeFactory) {
        this.storeFactory = storeFactory;
        return this;
    }

    /**
     * Shard compression. Default none; with a DALI index none (DALI reads uncompressed files only);
     * with splits gzip, as TFX's ExampleGen writes its splits. null: that default.
     */
    public TfRecordShardsBuilder setCompression(Compression compression) {
        this.compression = compression;
        return this;
    }

    /** The compression in force: as set, else by {@link #setCompression}'s rule. */
    private Compression compression() {
        if (compression != null) {
            return compression;
        }
        return index != ShardIndex.DALI && splits != null
                ? Compression.GZIP
                : ShardOptions.COMPRESSION.defaultValue();
    }

    /** Deflate level 0-9 of gzip and zlib shards (default 6). */
    public TfRecordShardsBuilder setCompressionLevel(int compressionLevel) {
        this.compressionLevel = compressionLevel;
        return this;
    }

    /** The shard file name prefix (default {@code part}). */
    public TfRecordShardsBuilder setPrefix(String prefix) {
        this.prefix = prefix;
        return this;
    }

    /** A shard is finished once it holds this many bytes as stored (default 128 MiB). */
    public TfRecordShardsBuilder setTargetSize(long targetSize) {
        this.targetSize = targetSize;
        return this;
    }

    /** A shard is finished at the first checkpoint this long after it opened (default 15 min). */
    public TfRecordShardsBuilder setMaxAge(Duration maxAge) {
        this.maxAge = maxAge;
        return this;
    }

    /** The bucket directory as a DateTimeFormatter pattern of event time (default by hour). */
    public TfRecordShardsBuilder setBucketPattern(String bucketPattern) {
        this.bucketPattern = bucketPattern;
        return this;
    }

    /** The zone of the bucket pattern (default UTC). */
    public TfRecordShardsBuilder setZone(ZoneId zone) {
        this.zone = zone;
        return this;
    }

    /**
     * Event times further than this from now are bucketed by processing time (default off).
     *
     * @deprecated {@link #setSkewLimit} with {@link #setSkewAction}({@link
     *     SkewAction#PROCESSING_TIME}), which also counts the records it re-buckets: one knob for
     *     one setting
     */
    @Deprecated
    public TfRecordShardsBuilder setMaxBucketSkew(Duration maxBucketSkew) {
        this.maxBucketSkew = maxBucketSkew;
        return this;
    }

    /** Whether each finished shard gets its {@code <shard>.manifest.json} (default true). */
    public TfRecordShardsBuilder setManifests(boolean manifests) {
        this.manifests = manifests;
        return this;
    }

    /**
     * Where manifests, markers and index files go (default {@link ShardLayout#SEPARATE}: under
     * {@code <base>/_tfstream/}, out of the bucket directories).
     */
    public TfRecordShardsBuilder setMetadataLayout(ShardLayout layout) {
        this.layout = java.util.Objects.requireNonNull(layout, "layout");
        return this;
    }

    /**
     * The index file of each finished shard (default {@link ShardIndex#NONE}); {@link
     * ShardIndex#DALI} needs uncompressed shards.
     */
    public TfRecordShardsBuilder setIndex(ShardIndex index) {
        this.index = java.util.Objects.requireNonNull(index, "index");
        return this;
    }

    /** The schema fingerprint manifests carry (default empty). */
    public TfRecordShardsBuilder setSchemaFingerprint(String schemaFingerprint) {
        this.schemaFingerprint = schemaFingerprint;
        return this;
    }

    /** Whether a complete bucket gets its {@code _SUCCESS} marker (default true). */
    public TfRecordShardsBuilder setSuccessMarkers(boolean successMarkers) {
        this.successMarkers = successMarkers;
        return this;
    }

    /** How long after a bucket's end (event time) it is complete (default 1 min). */
    public TfRecordShardsBuilder setSuccessDelay(Duration successDelay) {
        this.successDelay = successDelay;
        return this;
    }

    /**
     * Bytes of unfinished S3 parts one writer subtask keeps in a checkpoint at most (default 64
     * MiB); beyond it the shards with the largest ones are finished at the checkpoint.
     */
    public TfRecordShardsBuilder setCheckpointBudget(long checkpointBudget) {
        this.checkpointBudget = checkpointBudget;
        return this;
    }

    /**
     * What happens to a shard that a restored checkpoint holds but whose bytes the store lost (an
     * aborted or expired upload, a missing in-progress file): {@code FAIL} (default) or {@code
     * DROP} (logged and counted, its records in no shard).
     */
    public TfRecordShardsBuilder setOnLostShard(LostShardAction onLostShard) {
        this.onLostShard = onLostShard;
        return this;
    }

    /**
     * Whether a job restored from another job's snapshot continues that job's shards the store
     * resumes in place (S3 shards with uploaded parts; default true). false for a second job beside
     * a first that keeps running: those shards are left to the first and lost here.
     */
    public TfRecordShardsBuilder setAdoptUploads(boolean adoptUploads) {
        this.adoptUploads = adoptUploads;
        return this;
    }

    /**
     * Records whose event time is further than {@code limit} from now (either way) are handled by
     * {@link #setSkewAction} in the guards step ({@link TfRecordShards#guards()}), and counted in
     * {@code tfstream.skewedRecords}. Default off (null).
     */
    public TfRecordShardsBuilder setSkewLimit(Duration limit) {
        this.skewGuard = limit;
        return this;
    }

    /**
     * What happens to a record beyond {@link #setSkewLimit}: {@code DEAD_LETTER} (default; reason
     * {@code validation}, by the guards step) or {@code PROCESSING_TIME} (bucketed by the time it
     * is written, by the sink).
     */
    public TfRecordShardsBuilder setSkewAction(SkewAction action) {
        this.skewAction = action;
        return this;
    }

    /**
     * A guard for records further than {@code maxSkew} from now.
     *
     * @deprecated {@link #setSkewLimit} and {@link #setSkewAction}: one setter per setting
     */
    @Deprecated
    public TfRecordShardsBuilder setSkewGuard(Duration maxSkew, SkewAction action) {
        return setSkewLimit(maxSkew).setSkewAction(action);
    }

    /**
     * What records for a bucket already marked complete do in the guards step ({@link
     * TfRecordShards#guards()}, with success markers): written into a new shard and counted
     * (default), or dead-lettered.
     */
    public TfRecordShardsBuilder setLateRecords(LateRecords lateRecords) {
        this.lateRecords = lateRecords;
        return this;
    }

    /**
     * The uids of the sink's operators and guards, all from one prefix: {@code <prefix>-sink},
     * {@code -marker-coordinator}, {@code -committable-router}, {@code -skew-guard}, {@code
     * -late-bucket-guard} and {@code -split-guard}. Unset, they are {@value #DEFAULT_UID}, {@value
     * #DEFAULT_COORDINATOR_UID}, {@value #DEFAULT_ROUTER_UID}, {@value #DEFAULT_SKEW_GUARD_UID},
     * {@value #DEFAULT_LATE_BUCKET_GUARD_UID} and {@value #DEFAULT_SPLIT_GUARD_UID}, as in {@code
     * tfstream run}. Two shard sinks in one job need different prefixes; a sink's uids must stay
     * the same for its state to restore.
     */
    public TfRecordShardsBuilder setUidPrefix(String prefix) {
        check(nonEmpty(prefix), "uidPrefix must be non-empty");
        this.uid = prefix + "-sink";
        this.coordinatorUid = prefix + "-marker-coordinator";
        this.routerUid = prefix + "-committable-router";
        this.skewGuardUid = prefix + "-skew-guard";
        this.lateBucketGuardUid = prefix + "-late-bucket-guard";
        this.splitGuardUid = prefix + "-split-guard";
        return this;
    }

    /**
     * The uids of the bucket-skew and late-bucket guards.
     *
     * @deprecated {@link #setUidPrefix}: one prefix for every uid
     */
    @Deprecated
    public TfRecordShardsBuilder setGuardUids(String skewGuard, String lateBucketGuard) {
        this.skewGuardUid = skewGuard;
        this.lateBucketGuardUid = lateBucketGuard;
        return this;
    }

    /**
     * The uids of the sink and of its marker coordinator and committable router.
     *
     * @deprecated {@link #setUidPrefix}: one prefix for every uid
     */
    @Deprecated
    public TfRecordShardsBuilder setUids(String sink, String coordinator, String router) {
        this.uid = sink;
        this.coordinatorUid = coordinator;
        this.routerUid = router;
        return this;
    }

    /**
     * The shards, every setting checked.
     *
     * @throws IllegalArgumentException naming the first wrong or missing setting
     */
    public TfRecordShards build() {
        if (basePath == null || basePath.isEmpty()) {
            throw new IllegalArgumentException("basePath must be a non-empty path or URI");
        }
        Compression compression = compression();
        check(
                index != ShardIndex.DALI || compression == Compression.NONE,
                "index: dali indexes uncompressed shards: they need setCompression(NONE), not "
                        + compression.cliName());
        ShardOptions.OPTIONS.check(
                ShardOptions.COMPRESSION_LEVEL, compressionLevel, "compressionLevel");
        check(prefix != null, "prefix must be set");
        ShardOptions.OPTIONS.check(ShardOptions.PREFIX, prefix, "prefix");
        check(targetSize >= 1, "targetSize must be positive, got " + targetSize);
        check(maxAge != null, "maxAge must be set");
        ShardOptions.OPTIONS.check(ShardOptions.MAX_AGE, maxAge, "maxAge");
        check(zone != null, "zone must be set");
        try {
            DateTimeFormatter.ofPattern(bucketPattern).withZone(zone).format(Instant.EPOCH);
        } catch (DateTimeException | IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException(
                    "bucketPattern '"
                            + Quoted.cut(bucketPattern)
                            + "' is invalid: "
                            + Quoted.cut(e.getMessage(), Quoted.MAX_MESSAGE_CHARS),
                    e);
        }
        ShardOptions.OPTIONS.check(ShardOptions.MAX_BUCKET_SKEW, maxBucketSkew, "maxBucketSkew");
        check(schemaFingerprint != null, "schemaFingerprint must be set");
        check(
                !successMarkers || manifests,
                "successMarkers list the shards' manifests: they need setManifests(true)");
        check(
                successDelay != null && !successDelay.isNegative(),
                "successDelay must be zero or positive, got " + successDelay);
        check(
                nonEmpty(uid) && nonEmpty(coordinatorUid) && nonEmpty(routerUid),
                "uids must be non-empty");
        check(
                skewGuard == null || (!skewGuard.isNegative() && !skewGuard.isZero()),
                "skewLimit must be positive, got " + skewGuard);
        check(skewGuard == null || skewAction != null, "skewAction must be set");
        check(lateRecords != null, "lateRecords must be set (it was set to null)");
        check(
                lateRecords != LateRecords.DROP,
                "lateRecords of a complete bucket must be WRITE or DEAD_LETTER, got DROP");
        check(onLostShard != null, "onLostShard must be set (it was set to null)");
        check(
                checkpointBudget >= 0,
                "checkpointBudget must not be negative, got " + checkpointBudget);
        check(
                nonEmpty(skewGuardUid) && nonEmpty(lateBucketGuardUid),
                "guard uids must be non-empty");
        TfxSplits dataSplits = null;
        if (splits != null) {
            try {
                dataSplits = TfxSplits.parse(splits);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("splits: " + e.getMessage(), e);
            }
        }
        check(
                splitFeature == null || dataSplits != null,
                "splits: a partition feature needs splits");
        check(
                splitFeature == null || !splitFeature.isEmpty(),
                "splits: the partition feature must be a non-empty name");
        Duration sinkSkew =
                maxBucketSkew == null
                                && skewGuard != null
                                && skewAction == SkewAction.PROCESSING_TIME
                        ? skewGuard
                        : maxBucketSkew;
        check(
                statistics || !statisticsReport,
                "statistics-report: a bucket's report shows its statistics: it needs"
                        + " setStatistics(...)");
        ShardFeatureStatistics featureStatistics =
                statistics ? featureStatistics().withReport(statisticsReport) : null;
        ShardStoreFactory store =
                storeFactory != null ? storeFactory : new RecoverableShardStoreFactory(basePath);
        return new TfRecordShards(
                new ShardSettings(
                        basePath,
                        store,
                        compression,
                        compressionLevel,
                        prefix,
                        targetSize,
                        maxAge,
                        bucketPattern,
                        zone,
                        sinkSkew,
                        manifests,
                        schemaFingerprint,
                        successMarkers,
                        successDelay,
                        onLostShard,
                        checkpointBudget,
                        dataSplits,
                        splitFeature,
                        sequenceExample,
                        layout,
                        index,
                        featureStatistics,
                        adoptUploads),
                uid,
                coordinatorUid,
                routerUid,
                new TfRecordShards.Guards(
                        skewGuard == null ? null : new BucketSkewGuard(skewGuard, skewAction),
                        skewAction == SkewAction.DEAD_LETTER,
                        skewGuardUid,
                        successMarkers
                                ? new LateBucketGuard(
                                        bucketPattern, zone, successDelay, lateRecords)
                                : null,
                        lateRecords == LateRecords.DEAD_LETTER,
                        lateBucketGuardUid,
                        splitFeature == null
                                ? null
                                : new SplitGuard(dataSplits, splitFeature, sequenceExample),
                        splitGuardUid));
    }

    private ShardFeatureStatistics featureStatistics() {
        check(
                successMarkers,
                "statistics: a bucket's statistics are written with its _SUCCESS marker: they"
                        + " need setSuccessMarkers(true)");
        check(
                statisticsEpsilon >= 0 && statisticsEpsilon < 1,
                "statistics: epsilon must be in [0, 1), got " + statisticsEpsilon);
        check(
                statisticsWeightFeature == null || !statisticsWeightFeature.isEmpty(),
                "statistics: the weight feature must be a non-empty name");
        Map<String, StatsRole> roles = Map.of();
        if (statisticsSchema != null) {
            Schema schema;
            try {
                schema = SchemaLoader.parse(statisticsSchema, statisticsSchemaName);
            } catch (MalformedSpecFileException e) {
                throw new IllegalArgumentException(
                        "statistics: schema " + statisticsSchemaName + ": " + e.getMessage(), e);
            }
            roles = StatsRole.of(schema);
            check(
                    statisticsWeightFeature == null
                            || schema.getFeatureList().stream()
                                    .anyMatch(
                                            f ->
                                                    f.getName().equals(statisticsWeightFeature)
                                                            && (f.getType() == FeatureType.INT
                                                                    || f.getType()
                                                                            == FeatureType.FLOAT)),
                    "statistics: the weight feature '"
                            + statisticsWeightFeature
                            + "' is no top-level INT or FLOAT feature of schema "
                            + statisticsSchemaName);
        }
        return ShardFeatureStatistics.of(
                statisticsEpsilon, statisticsWeightFeature, roles, sequenceExample);
    }

    private static boolean nonEmpty(String s) {
        return s != null && !s.isEmpty();
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
