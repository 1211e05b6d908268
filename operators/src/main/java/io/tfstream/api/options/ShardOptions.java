package io.tfstream.api.options;

import static org.apache.flink.configuration.ConfigOptions.key;

import io.tfstream.api.model.LateRecords;
import io.tfstream.api.model.LostShardAction;
import io.tfstream.api.model.ShardIndex;
import io.tfstream.api.model.SkewAction;
import io.tfstream.shards.ShardLayout;
import io.tfstream.shards.TfxSplits;
import io.tfstream.tfrecord.Compression;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The TFRecord shards of accepted records (the job's {@code shards.*}): where, how compressed, when
 * finished, bucket layout, markers. Keys are relative to the stage; {@link #OPTIONS} lists them
 * with their types and checks.
 */
@PublicEvolving
public final class ShardOptions {
    private ShardOptions() {}

    /** S3's smallest part but the last: the least {@link #PART_SIZE}. */
    public static final int MIN_PART_SIZE = 5 * 1024 * 1024;

    /** The largest {@link #PART_SIZE}: one part per open shard is held on the heap. */
    public static final int MAX_PART_SIZE = 1024 * 1024 * 1024;

    public static final ConfigOption<String> PATH =
            key("path")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Base path of the TFRecord shards of accepted records: s3://bucket/prefix"
                                    + " (s3a:// too; needs a file-system checkpoint directory), or any"
                                    + " scheme whose Flink file system has a resumable recoverable"
                                    + " writer (file:///dir, hdfs://, gs://, abfs://, ...); unset:"
                                    + " no shards.");

    public static final ConfigOption<Compression> COMPRESSION =
            key("compression")
                    .enumType(Compression.class)
                    .defaultValue(Compression.NONE)
                    .withDescription(
                            "Shard compression: none (.tfrecord), gzip (.tfrecord.gz, one gzip"
                                    + " member per checkpoint) or zlib (.tfrecord.zz, one zlib"
                                    + " stream per shard).");

    public static final ConfigOption<Integer> COMPRESSION_LEVEL =
            key("compression-level")
                    .intType()
                    .defaultValue(6)
                    .withDescription(
                            "Deflate level of gzip and zlib shards, 0-9 (6: TensorFlow's"
                                    + " default; 1: fastest).");

    public static final ConfigOption<MemorySize> TARGET_SIZE =
            key("target-size")
                    .memoryType()
                    .defaultValue(MemorySize.parse("128 mb"))
                    .withDescription(
                            "A shard is finished once it reaches about this size (bytes as"
                                    + " stored, compressed or not); it stays open across"
                                    + " checkpoints until then.");

    public static final ConfigOption<MemorySize> PART_SIZE =
            key("part-size")
                    .memoryType()
                    .defaultValue(MemorySize.parse("5 mb"))
                    .withDescription(
                            "S3 shards only: part size of a shard's multipart upload, at least 5"
                                    + " MiB; each open shard holds one part on the heap, and the"
                                    + " unfinished part is kept in the checkpoint.");

    public static final ConfigOption<Duration> MAX_AGE =
            key("max-age")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(15))
                    .withDescription(
                            "A shard is finished at the first checkpoint this long (processing"
                                    + " time) after it was opened, however small.");

    public static final ConfigOption<String> BUCKET_PATTERN =
            key("bucket-pattern")
                    .stringType()
                    .defaultValue("'dt='yyyy-MM-dd/'hour='HH")
                    .withDescription(
                            "java.time DateTimeFormatter pattern of the bucket directory, applied"
                                    + " to the record's event time.");

    public static final ConfigOption<String> ZONE =
            key("zone")
                    .stringType()
                    .defaultValue("UTC")
                    .withDescription("Time zone of shards.bucket-pattern.");

    public static final ConfigOption<String> PREFIX =
            key("prefix")
                    .stringType()
                    .defaultValue("part")
                    .withDescription(
                            "Shard file names are"
                                    + " <prefix>-<jobId>-<run>-<subtask>-<counter><suffix> (run:"
                                    + " 16 hex digits drawn by each writer instance); must"
                                    + " not start with '.' or '_' (names readers skip).");

    public static final ConfigOption<Boolean> MANIFESTS =
            key("manifests")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Write <shard>.manifest.json for each finished shard once it is"
                                    + " committed (where shards.metadata-layout says): records, bytes, compression, CRC32C of the"
                                    + " file, schema fingerprint, event-time range, source offset"
                                    + " ranges (checked by tfstream verify --manifest).");

    public static final ConfigOption<Boolean> SUCCESS_MARKERS =
            key("success-markers")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Write a bucket's _SUCCESS (where shards.metadata-layout says) once the"
                                    + " watermark has"
                                    + " passed the bucket's end plus shards.success-delay and its"
                                    + " shards are committed, listing them with their record"
                                    + " counts; written again when late records add a shard."
                                    + " Needs shards.manifests.");

    public static final ConfigOption<ShardLayout> METADATA_LAYOUT =
            key("metadata-layout")
                    .enumType(ShardLayout.class)
                    .defaultValue(ShardLayout.SEPARATE)
                    .withDescription(
                            "Where manifests, _SUCCESS markers and index files go: separate (a"
                                    + " tree under <path>/_tfstream/ mirroring the bucket"
                                    + " directories, every name in it starting with '_', so that"
                                    + " listers, Flink's partition discovery and globs inside a"
                                    + " bucket directory see shards only) or inline (beside the"
                                    + " shards, the layout before separate).");

    public static final ConfigOption<ShardIndex> INDEX =
            key("index")
                    .enumType(ShardIndex.class)
                    .defaultValue(ShardIndex.NONE)
                    .withDescription(
                            "An index file per finished shard, committed with it: none or dali"
                                    + " (NVIDIA DALI's <shard>.idx, one '<offset> <length>' line per"
                                    + " record, in the metadata tree; for DALI's"
                                    + " fn.readers.tfrecord index_path). dali needs uncompressed"
                                    + " shards (DALI reads no compressed TFRecords) and is the"
                                    + " default compression none then, also with shards.splits;"
                                    + " the committer reads each shard back once to write it.");

    public static final ConfigOption<Boolean> STATISTICS =
            key("statistics")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "TFDV's feature statistics of every finished bucket, written before its"
                                    + " _SUCCESS (needs shards.success-markers) in its metadata"
                                    + " directory as _statistics/Split-<name>/FeatureStats.pb per"
                                    + " data split (without shards.splits"
                                    + " _statistics/FeatureStats.pb): a binary"
                                    + " DatasetFeatureStatisticsList, one dataset named \"\", of"
                                    + " every feature of the records in the shards the marker lists,"
                                    + " as TFX's ExampleStatistics artifact holds it and"
                                    + " tfdv.load_stats_binary reads it. Shaped by the schema"
                                    + " (schema.path) and statistics.epsilon and"
                                    + " statistics.weight-feature as the window statistics are;"
                                    + " top values and uniques sketched. Each shard keeps the"
                                    + " statistics of its records (the sink parses each record once"
                                    + " more), in checkpoints while open and in"
                                    + " _<shard>.statistics beside its manifest once committed.");

    public static final ConfigOption<Boolean> STATISTICS_REPORT =
            key("statistics-report")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "With shards.statistics: also each finished bucket's report.html beside"
                                    + " its FeatureStats.pb (per data split), the self-contained"
                                    + " page of tfstream report: every feature's figures and"
                                    + " histograms, compared with the previous event-time bucket"
                                    + " (its drift per feature) when that one has statistics.");

    public static final ConfigOption<Boolean> SCHEMA_COPIES =
            key("schema-copies")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Write the TFMD schema the shards' records were parsed with, once per"
                                    + " fingerprint (the configured one and each one schema.update"
                                    + " takes up), in text format to"
                                    + " <path>/_tfstream/_schemas/_<fingerprint>/_schema.pbtxt, and name"
                                    + " it in each manifest (schema); not with spec.path, which is"
                                    + " no schema.");

    public static final ConfigOption<Duration> SUCCESS_DELAY =
            key("success-delay")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(1))
                    .withDescription(
                            "How long after a bucket's end (in event time, by the watermark) the"
                                    + " bucket is complete and gets its _SUCCESS marker.");

    public static final ConfigOption<LateRecords> LATE_RECORDS =
            key("late-records")
                    .enumType(LateRecords.class)
                    .defaultValue(LateRecords.WRITE)
                    .withDescription(
                            "A record whose bucket is complete (its end plus shards.success-delay"
                                    + " is behind the watermark), counted in lateBucketRecords:"
                                    + " write (a new shard in the bucket, its _SUCCESS written"
                                    + " again) or dead_letter (reason late, not in the shards nor"
                                    + " the records topic).");

    public static final ConfigOption<LostShardAction> ON_LOST_SHARD =
            key("on-lost-shard")
                    .enumType(LostShardAction.class)
                    .defaultValue(LostShardAction.FAIL)
                    .withDescription(
                            "A shard that a restored checkpoint or savepoint holds but whose bytes"
                                    + " the store lost (its multipart upload aborted or expired,"
                                    + " its in-progress file gone): fail (the job fails naming the"
                                    + " shard and the source ranges it held, again after every"
                                    + " restart) or drop (logged with the same, counted in"
                                    + " tfstream.shardsLost and tfstream.shardRecordsLost; those"
                                    + " records are in no shard).");

    public static final ConfigOption<Boolean> ADOPT_UPLOADS =
            key("adopt-uploads")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Restored from a snapshot of another job (the job id in a shard's"
                                    + " name), continue and complete that job's open shards that"
                                    + " are resumed in place: S3 shards with uploaded parts, whose"
                                    + " multipart upload is the one both jobs would complete. true"
                                    + " suits a job that replaces the one that took the savepoint."
                                    + " false is for a second job beside a first that keeps"
                                    + " running (blue/green, with output.adopt-transactions:"
                                    + " false): such shards are left to the first job and are lost"
                                    + " to this one (shards.on-lost-shard: fail refuses the"
                                    + " restore, drop goes on without their records), so the first"
                                    + " job never loses one. Shards the store copies (file systems,"
                                    + " S3 shards without parts) carry on in both jobs either"
                                    + " way. In the streaming job, unset: as"
                                    + " output.adopt-transactions.");

    public static final ConfigOption<MemorySize> CHECKPOINT_BUDGET =
            key("checkpoint-budget")
                    .memoryType()
                    .defaultValue(MemorySize.parse("64 mb"))
                    .withDescription(
                            "Bytes of data one writer subtask keeps in a checkpoint at most: on"
                                    + " S3 the unfinished parts (each open shard's tail below 5"
                                    + " MiB), and with shards.statistics the statistics sketches of"
                                    + " every open shard (as large as at the last checkpoint);"
                                    + " beyond it the shards holding the most are finished at the"
                                    + " checkpoint. Every checkpoint holds all of them again:"
                                    + " without a bound, slow buckets cost up to shards.max-age /"
                                    + " (2 x checkpoint interval) bytes of checkpoint per byte of"
                                    + " data.");

    public static final ConfigOption<Boolean> S3_PROBE =
            key("s3-probe")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "S3 shards only: before the job starts, create and abort a multipart"
                                    + " upload under shards.path, list uploads there and HEAD a"
                                    + " missing key (which must answer 404), and refuse to start"
                                    + " naming the permission that is missing. Runs where the job"
                                    + " is built, with the job's S3 settings: turn it off when"
                                    + " that machine cannot reach the store or read"
                                    + " s3.credentials-file.");

    public static final ConfigOption<Duration> MAX_BUCKET_SKEW =
            key("max-bucket-skew")
                    .durationType()
                    .noDefaultValue()
                    .withDescription(
                            "A record whose event time is further than this from the current"
                                    + " time (either way) is handled by shards.skew-action."
                                    + " Unset: 7 d with source.type kafka; no check with"
                                    + " source.type files, whose event times (modification times,"
                                    + " or event-time.feature) are old in a backfill: its records"
                                    + " keep the buckets of their event times.");

    public static final ConfigOption<SkewAction> SKEW_ACTION =
            key("skew-action")
                    .enumType(SkewAction.class)
                    .defaultValue(SkewAction.DEAD_LETTER)
                    .withDescription(
                            "What happens to a record beyond shards.max-bucket-skew: dead_letter"
                                    + " (reason validation, not in any output) or processing_time"
                                    + " (bucketed by the time it is written); counted in the"
                                    + " metric tfstream.skewedRecords either way.");

    public static final ConfigOption<String> SPLITS =
            key("splits")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "TFX data splits as name:hash-buckets entries, e.g. train:2,eval:1 (TFX"
                                    + " ExampleGen's default): each accepted record goes to"
                                    + " <bucket>/Split-<name>/ by ExampleGen's rule (sha256 of the"
                                    + " record's bytes, or of split-feature, modulo the buckets), so"
                                    + " every bucket directory is a TFX Examples artifact; shards"
                                    + " are gzip unless shards.compression says otherwise. Unset:"
                                    + " no splits.");

    public static final ConfigOption<String> SPLIT_FEATURE =
            key("split-feature")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "With shards.splits: split by this feature (int64 or bytes list; of"
                                    + " the context for SequenceExamples) as ExampleGen's"
                                    + " partition_feature_name, so that all records of one value"
                                    + " land in one split. A record without it is a dead letter"
                                    + " (reason validation, counted in tfstream.unsplitRecords).");

    /**
     * Checks what the options say together (a bucket pattern valid in its zone, a split feature
     * with splits, DALI indexes of uncompressed shards, statistics with markers, markers with
     * manifests); an error names each key as {@code prefix + key}.
     *
     * @throws IllegalArgumentException naming the keys that disagree and how to mend them
     */
    public static void checkCombinations(ReadableConfig config, String prefix) {
        try {
            DateTimeFormatter.ofPattern(config.get(BUCKET_PATTERN))
                    .withZone(ZoneId.of(config.get(ZONE)))
                    .format(Instant.EPOCH);
        } catch (DateTimeException | IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "invalid "
                            + prefix
                            + "bucket-pattern / "
                            + prefix
                            + "zone ('"
                            + config.get(BUCKET_PATTERN)
                            + "' in "
                            + config.get(ZONE)
                            + "): "
                            + e.getMessage(),
                    e);
        }
        if (config.getOptional(SPLIT_FEATURE).isPresent() && config.getOptional(SPLITS).isEmpty()) {
            throw new IllegalArgumentException(
                    prefix
                            + "split-feature names the partition feature of "
                            + prefix
                            + "splits; set "
                            + prefix
                            + "splits (e.g. train:2,eval:1)");
        }
        Compression compression = config.getOptional(COMPRESSION).orElse(Compression.NONE);
        if (config.get(INDEX) == ShardIndex.DALI && compression != Compression.NONE) {
            // Unset, the compression of DALI-indexed shards is none (see the builder's rule).
            throw new IllegalArgumentException(
                    prefix
                            + "index: dali indexes uncompressed shards (DALI reads no compressed"
                            + " TFRecords); set "
                            + prefix
                            + "compression: none, not "
                            + compression.cliName());
        }
        if (config.get(STATISTICS) && !config.get(SUCCESS_MARKERS)) {
            throw new IllegalArgumentException(
                    prefix
                            + "statistics: true writes a bucket's statistics with its _SUCCESS;"
                            + " set "
                            + prefix
                            + "success-markers: true or "
                            + prefix
                            + "statistics: false");
        }
        if (config.get(STATISTICS_REPORT) && !config.get(STATISTICS)) {
            throw new IllegalArgumentException(
                    prefix
                            + "statistics-report: true writes each bucket's report beside its"
                            + " statistics; set "
                            + prefix
                            + "statistics: true or "
                            + prefix
                            + "statistics-report: false");
        }
        if (config.get(SUCCESS_MARKERS) && !config.get(MANIFESTS)) {
            throw new IllegalArgumentException(
                    prefix
                            + "success-markers: true lists the shards by their manifests; set "
                            + prefix
                            + "manifests: true or "
                            + prefix
                            + "success-markers: false");
        }
    }

    /** Every option above, in order, with its type and check. */
    public static final OptionList OPTIONS =
            OptionList.builder()
                    .add(PATH, String.class, null)
                    .add(COMPRESSION)
                    .add(COMPRESSION_LEVEL, OptionCheck.between(0, 9))
                    .add(TARGET_SIZE, OptionCheck.oneByteOrMore())
                    .add(
                            PART_SIZE,
                            (m, name) -> {
                                if (m.getBytes() < MIN_PART_SIZE || m.getBytes() > MAX_PART_SIZE) {
                                    throw OptionCheck.invalid(
                                            m,
                                            name,
                                            "5 mb (S3's smallest part but the last) to 1 gb (one part per open shard is"
                                                    + " held on the heap)");
                                }
                            })
                    .add(MAX_AGE, OptionCheck.positive())
                    .add(BUCKET_PATTERN)
                    .add(ZONE)
                    .add(
                            PREFIX,
                            (p, name) -> {
                                if (p.isEmpty()
                                        || p.startsWith(".")
                                        || p.startsWith("_")
                                        || p.contains("/")) {
                                    throw OptionCheck.invalid(
                                            p,
                                            name,
                                            "a name not starting with '.' or '_' (readers skip those) and without '/'");
                                }
                            })
                    .add(MANIFESTS)
                    .add(SUCCESS_MARKERS)
                    .add(METADATA_LAYOUT)
                    .add(INDEX)
                    .add(STATISTICS)
                    .add(STATISTICS_REPORT)
                    .add(SCHEMA_COPIES)
                    .add(SUCCESS_DELAY, OptionCheck.notNegative())
                    .add(
                            LATE_RECORDS,
                            OptionCheck.oneOf(LateRecords.WRITE, LateRecords.DEAD_LETTER))
                    .add(ON_LOST_SHARD)
                    .add(ADOPT_UPLOADS)
                    .add(CHECKPOINT_BUDGET)
                    .add(S3_PROBE)
                    .add(MAX_BUCKET_SKEW, Duration.class, OptionCheck.positive())
                    .add(SKEW_ACTION)
                    .add(
                            SPLITS,
                            String.class,
                            (v, name) -> {
                                try {
                                    TfxSplits.parse(v);
                                } catch (IllegalArgumentException e) {
                                    throw OptionCheck.invalid(
                                            v,
                                            name,
                                            "name:buckets entries, e.g. train:2,eval:1 ("
                                                    + e.getMessage()
                                                    + ")");
                                }
                            })
                    .add(SPLIT_FEATURE, String.class, null)
                    .build();
}
