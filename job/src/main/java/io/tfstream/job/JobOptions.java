package io.tfstream.job;

import static org.apache.flink.configuration.ConfigOptions.key;

import io.tfstream.api.model.EventTimeSettings;
import io.tfstream.api.model.LateRecords;
import io.tfstream.api.model.LostShardAction;
import io.tfstream.api.model.OnCorruption;
import io.tfstream.api.model.PayloadKeyMode;
import io.tfstream.api.model.SchemaCompatibility;
import io.tfstream.api.model.ShardIndex;
import io.tfstream.api.model.SkewAction;
import io.tfstream.api.options.BatchOptions;
import io.tfstream.api.options.DeadLetterOptions;
import io.tfstream.api.options.EventTimeOptions;
import io.tfstream.api.options.FileSourceOptions;
import io.tfstream.api.options.KafkaSinkOptions;
import io.tfstream.api.options.KafkaSourceOptions;
import io.tfstream.api.options.OptionCheck;
import io.tfstream.api.options.OptionList;
import io.tfstream.api.options.ParseOptions;
import io.tfstream.api.options.PayloadOptions;
import io.tfstream.api.options.SchemaOptions;
import io.tfstream.api.options.ShardOptions;
import io.tfstream.api.options.SourceFormatOptions;
import io.tfstream.api.options.StatisticsOptions;
import io.tfstream.api.options.ValidationOptions;
import io.tfstream.convert.InputFormat;
import io.tfstream.shards.ShardLayout;
import io.tfstream.tfrecord.Compression;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.MemorySize;

/**
 * The streaming job's options: the job's own (job name, parallelism, checkpoints, REST port, source
 * type, schema and spec paths, S3 client) declared here, and each stage's options ({@code
 * io.tfstream.api.options}) under the prefix the job gives the stage ({@link JobOptionStage}). The
 * constants name the job's keys for the code that reads them; {@link #ALL} lists every option in
 * the order {@code tfstream run --help} and the generated table of docs/streaming-job.md show them.
 * Keys under {@link #SOURCE_PROPERTIES_PREFIX} and {@link #OUTPUT_PROPERTIES_PREFIX} pass through
 * to the Kafka clients; keys under {@link #FLINK_PREFIX} to Flink's own configuration.
 */
public final class JobOptions {
    private JobOptions() {}

    /** {@code source.properties.<kafka consumer key>}: passed to the Kafka consumer as is. */
    public static final String SOURCE_PROPERTIES_PREFIX = "source.properties.";

    /** {@code output.properties.<kafka producer key>}: passed to every Kafka producer as is. */
    public static final String OUTPUT_PROPERTIES_PREFIX = "output.properties.";

    /** {@code flink.<flink key>}: passed to Flink's configuration (e.g. restart strategy). */
    public static final String FLINK_PREFIX = "flink.";

    public static final Duration DEFAULT_CHECKPOINT_INTERVAL = Duration.ofSeconds(10);
    public static final int DEFAULT_REST_PORT = 8081;

    // --- job

    public static final ConfigOption<String> JOB_NAME =
            key("job.name")
                    .stringType()
                    .defaultValue("tfstream")
                    .withDescription(
                            "Name of the Flink job; also the start of every Kafka sink's"
                                    + " transactional id (<job.name>-dlq, -records, -batches, -alerts, -anomalies)."
                                    + " Two jobs writing to one cluster need different names.");

    public static final ConfigOption<Integer> PARALLELISM =
            key("parallelism")
                    .intType()
                    .defaultValue(-1)
                    .withDescription(
                            "Parallelism of every operator (-1: the cluster's default). More"
                                    + " subtasks than input partitions leave some idle.");

    public static final ConfigOption<Duration> CHECKPOINT_INTERVAL =
            key("checkpoint.interval")
                    .durationType()
                    .noDefaultValue()
                    .withDescription(
                            "Exactly-once checkpoint interval. Outputs become visible to"
                                    + " read_committed consumers and as finished shards at each"
                                    + " checkpoint. Unset: the cluster's"
                                    + " execution.checkpointing.interval (tfstream run's embedded"
                                    + " cluster: 10 s); the job refuses to start when neither"
                                    + " turns checkpointing on.");

    /** Flink's key for the checkpoint directory, as given under {@link #FLINK_PREFIX}. */
    public static final String FLINK_CHECKPOINT_DIR = "execution.checkpointing.dir";

    public static final ConfigOption<String> CHECKPOINT_DIR =
            key("checkpoint.dir")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Deprecated: read as flink.execution.checkpointing.dir (Flink's own"
                                    + " key, the one name of the checkpoint directory; savepoints"
                                    + " go there too unless"
                                    + " flink.execution.checkpointing.savepoint-dir is set), with"
                                    + " a warning.");

    public static final ConfigOption<Integer> REST_PORT =
            key("rest.port")
                    .intType()
                    .defaultValue(DEFAULT_REST_PORT)
                    .withDescription(
                            "Port of the Flink web UI and REST API of tfstream run's embedded"
                                    + " cluster (0: any free port).");

    // --- source

    public static final ConfigOption<SourceType> SOURCE_TYPE =
            key("source.type")
                    .enumType(SourceType.class)
                    .defaultValue(SourceType.KAFKA)
                    .withDescription(
                            "kafka: records from Kafka topics; files: records from TFRecord files"
                                    + " (source.files.*), e.g. a backfill; the rest of the job is"
                                    + " the same.");

    public static final ConfigOption<List<String>> SOURCE_FILES_PATHS =
            JobOptionStage.FILE_SOURCE.option(FileSourceOptions.PATHS);

    public static final ConfigOption<FileSourceOptions.Mode> SOURCE_FILES_MODE =
            JobOptionStage.FILE_SOURCE.option(FileSourceOptions.MODE);

    public static final ConfigOption<Duration> SOURCE_FILES_DISCOVERY_INTERVAL =
            JobOptionStage.FILE_SOURCE.option(FileSourceOptions.DISCOVERY_INTERVAL);

    public static final ConfigOption<OnCorruption> SOURCE_FILES_ON_CORRUPTION =
            JobOptionStage.FILE_SOURCE.option(FileSourceOptions.ON_CORRUPTION);

    public static final ConfigOption<String> SOURCE_BOOTSTRAP_SERVERS =
            JobOptionStage.SOURCE.option(KafkaSourceOptions.BOOTSTRAP_SERVERS);

    public static final ConfigOption<List<String>> SOURCE_TOPICS =
            JobOptionStage.SOURCE.option(KafkaSourceOptions.TOPICS);

    public static final ConfigOption<String> SOURCE_TOPIC_PATTERN =
            JobOptionStage.SOURCE.option(KafkaSourceOptions.TOPIC_PATTERN);

    public static final ConfigOption<String> SOURCE_GROUP_ID =
            JobOptionStage.SOURCE.option(KafkaSourceOptions.GROUP_ID);

    public static final ConfigOption<String> SOURCE_STARTING_OFFSETS =
            JobOptionStage.SOURCE.option(KafkaSourceOptions.STARTING_OFFSETS);

    public static final ConfigOption<KafkaSourceOptions.StoppingOffsets> SOURCE_STOPPING_OFFSETS =
            JobOptionStage.SOURCE.option(KafkaSourceOptions.STOPPING_OFFSETS);

    public static final ConfigOption<InputFormat> SOURCE_FORMAT =
            JobOptionStage.CONVERT.option(SourceFormatOptions.FORMAT);

    public static final ConfigOption<String> SOURCE_AVRO_SCHEMA_PATH =
            JobOptionStage.CONVERT.option(SourceFormatOptions.AVRO_SCHEMA_PATH);

    public static final ConfigOption<Integer> SOURCE_AVRO_SCHEMA_ID =
            JobOptionStage.CONVERT.option(SourceFormatOptions.AVRO_SCHEMA_ID);

    public static final ConfigOption<SourceFormatOptions.JsonBytes> SOURCE_JSON_BYTES =
            JobOptionStage.CONVERT.option(SourceFormatOptions.JSON_BYTES);

    public static final ConfigOption<Boolean> SOURCE_CONVERT_FLATTEN =
            JobOptionStage.CONVERT.option(SourceFormatOptions.CONVERT_FLATTEN);

    // --- schema

    public static final ConfigOption<String> SCHEMA_PATH =
            key("schema.path")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "TFMD Schema (.pbtxt text or .pb binary) the parse spec is derived"
                                    + " from by the tfx-bsl/TFT rules. Exactly one of schema.path"
                                    + " and spec.path.");

    public static final ConfigOption<String> SPEC_PATH =
            key("spec.path")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("SPEC.json / SEQSPEC.json feature spec, used as is.");

    public static final ConfigOption<SchemaOptions.Kind> SCHEMA_KIND =
            JobOptionStage.SCHEMA.option(SchemaOptions.KIND);

    public static final ConfigOption<Boolean> SCHEMA_LEGACY_DEFAULTS =
            JobOptionStage.SCHEMA.option(SchemaOptions.LEGACY_DEFAULTS);

    public static final ConfigOption<SchemaOptions.Update> SCHEMA_UPDATE =
            JobOptionStage.SCHEMA.option(SchemaOptions.UPDATE);

    public static final ConfigOption<Duration> SCHEMA_POLL_INTERVAL =
            JobOptionStage.SCHEMA.option(SchemaOptions.POLL_INTERVAL);

    public static final ConfigOption<SchemaCompatibility> SCHEMA_COMPATIBILITY =
            JobOptionStage.SCHEMA.option(SchemaOptions.COMPATIBILITY);

    // --- parse limits

    public static final ConfigOption<MemorySize> MAX_RECORD_BYTES =
            JobOptionStage.PARSE.option(ParseOptions.MAX_RECORD_BYTES);

    public static final ConfigOption<Integer> MAX_VALUES_PER_FEATURE =
            JobOptionStage.PARSE.option(ParseOptions.MAX_VALUES_PER_FEATURE);

    public static final ConfigOption<Integer> MAX_FEATURES_PER_EXAMPLE =
            JobOptionStage.PARSE.option(ParseOptions.MAX_FEATURES_PER_EXAMPLE);

    public static final ConfigOption<MemorySize> MAX_BYTES_PER_VALUE =
            JobOptionStage.PARSE.option(ParseOptions.MAX_BYTES_PER_VALUE);

    public static final ConfigOption<Integer> MAX_RAGGED_ROWS =
            JobOptionStage.PARSE.option(ParseOptions.MAX_RAGGED_ROWS);

    // --- event time

    public static final ConfigOption<EventTimeSettings.Source> EVENT_TIME_SOURCE =
            JobOptionStage.EVENT_TIME.option(EventTimeOptions.SOURCE);

    public static final ConfigOption<String> EVENT_TIME_FEATURE =
            JobOptionStage.EVENT_TIME.option(EventTimeOptions.FEATURE);

    public static final ConfigOption<EventTimeSettings.Unit> EVENT_TIME_UNIT =
            JobOptionStage.EVENT_TIME.option(EventTimeOptions.UNIT);

    public static final ConfigOption<Duration> EVENT_TIME_OUT_OF_ORDERNESS =
            JobOptionStage.EVENT_TIME.option(EventTimeOptions.OUT_OF_ORDERNESS);

    public static final ConfigOption<Duration> EVENT_TIME_IDLENESS =
            JobOptionStage.EVENT_TIME.option(EventTimeOptions.IDLENESS);

    // --- batching

    public static final ConfigOption<Integer> BATCH_MAX_RECORDS =
            JobOptionStage.BATCH.option(BatchOptions.MAX_RECORDS);

    public static final ConfigOption<MemorySize> BATCH_MAX_BYTES =
            JobOptionStage.BATCH.option(BatchOptions.MAX_BYTES);

    public static final ConfigOption<Duration> BATCH_MAX_DELAY =
            JobOptionStage.BATCH.option(BatchOptions.MAX_DELAY);

    public static final ConfigOption<BatchOptions.Mode> BATCH_MODE =
            JobOptionStage.BATCH.option(BatchOptions.MODE);

    public static final ConfigOption<Duration> BATCH_WINDOW =
            JobOptionStage.BATCH.option(BatchOptions.WINDOW);

    public static final ConfigOption<Duration> BATCH_ALLOWED_LATENESS =
            JobOptionStage.BATCH.option(BatchOptions.ALLOWED_LATENESS);

    public static final ConfigOption<LateRecords> BATCH_LATE_RECORDS =
            JobOptionStage.BATCH.option(BatchOptions.LATE_RECORDS);

    public static final ConfigOption<MemorySize> BATCH_WINDOW_MAX_BUFFERED_BYTES =
            JobOptionStage.BATCH.option(BatchOptions.WINDOW_MAX_BUFFERED_BYTES);

    public static final ConfigOption<String> BATCH_KEY =
            JobOptionStage.BATCH.option(BatchOptions.KEY);

    // --- dead letters

    public static final ConfigOption<String> DLQ_TOPIC =
            JobOptionStage.DEAD_LETTERS.option(DeadLetterOptions.TOPIC);

    public static final ConfigOption<Integer> DLQ_MAX_ERROR_BYTES =
            JobOptionStage.DEAD_LETTERS.option(DeadLetterOptions.MAX_ERROR_BYTES);

    public static final ConfigOption<Double> DLQ_MAX_FRACTION =
            JobOptionStage.DEAD_LETTERS.option(DeadLetterOptions.MAX_FRACTION);

    public static final ConfigOption<Duration> DLQ_WINDOW =
            JobOptionStage.DEAD_LETTERS.option(DeadLetterOptions.WINDOW);

    public static final ConfigOption<Long> DLQ_MIN_RECORDS =
            JobOptionStage.DEAD_LETTERS.option(DeadLetterOptions.MIN_RECORDS);

    // --- outputs

    public static final ConfigOption<String> OUTPUT_BOOTSTRAP_SERVERS =
            JobOptionStage.KAFKA_SINKS.option(KafkaSinkOptions.BOOTSTRAP_SERVERS);

    public static final ConfigOption<String> OUTPUT_RECORDS_TOPIC =
            JobOptionStage.KAFKA_SINKS.option(KafkaSinkOptions.RECORDS_TOPIC);

    public static final ConfigOption<String> OUTPUT_BATCHES_TOPIC =
            JobOptionStage.PAYLOADS.option(PayloadOptions.TOPIC);

    public static final ConfigOption<PayloadKeyMode> OUTPUT_BATCHES_KEY =
            JobOptionStage.PAYLOADS.option(PayloadOptions.KEY);

    public static final ConfigOption<MemorySize> OUTPUT_BATCHES_MAX_MESSAGE_BYTES =
            JobOptionStage.PAYLOADS.option(PayloadOptions.MAX_MESSAGE_BYTES);

    public static final ConfigOption<Duration> OUTPUT_TRANSACTION_TIMEOUT =
            JobOptionStage.KAFKA_SINKS.option(KafkaSinkOptions.TRANSACTION_TIMEOUT);

    public static final ConfigOption<Boolean> OUTPUT_ADOPT_TRANSACTIONS =
            JobOptionStage.KAFKA_SINKS.option(KafkaSinkOptions.ADOPT_TRANSACTIONS);

    // --- TFRecord shards

    public static final ConfigOption<String> SHARDS_PATH =
            JobOptionStage.SHARDS.option(ShardOptions.PATH);

    public static final ConfigOption<Compression> SHARDS_COMPRESSION =
            JobOptionStage.SHARDS.option(ShardOptions.COMPRESSION);

    /** TensorFlow's (zlib's) default deflate level. */
    public static final ConfigOption<Integer> SHARDS_COMPRESSION_LEVEL =
            JobOptionStage.SHARDS.option(ShardOptions.COMPRESSION_LEVEL);

    /** The smallest part of an S3 multipart upload but the last. */
    public static final ConfigOption<MemorySize> SHARDS_PART_SIZE =
            JobOptionStage.SHARDS.option(ShardOptions.PART_SIZE);

    public static final ConfigOption<MemorySize> SHARDS_TARGET_SIZE =
            JobOptionStage.SHARDS.option(ShardOptions.TARGET_SIZE);

    public static final ConfigOption<Duration> SHARDS_MAX_AGE =
            JobOptionStage.SHARDS.option(ShardOptions.MAX_AGE);

    public static final ConfigOption<String> SHARDS_BUCKET_PATTERN =
            JobOptionStage.SHARDS.option(ShardOptions.BUCKET_PATTERN);

    public static final ConfigOption<String> SHARDS_ZONE =
            JobOptionStage.SHARDS.option(ShardOptions.ZONE);

    public static final ConfigOption<String> SHARDS_PREFIX =
            JobOptionStage.SHARDS.option(ShardOptions.PREFIX);

    public static final ConfigOption<Boolean> SHARDS_MANIFESTS =
            JobOptionStage.SHARDS.option(ShardOptions.MANIFESTS);

    public static final ConfigOption<ShardLayout> SHARDS_METADATA_LAYOUT =
            JobOptionStage.SHARDS.option(ShardOptions.METADATA_LAYOUT);

    public static final ConfigOption<ShardIndex> SHARDS_INDEX =
            JobOptionStage.SHARDS.option(ShardOptions.INDEX);

    public static final ConfigOption<Boolean> SHARDS_STATISTICS =
            JobOptionStage.SHARDS.option(ShardOptions.STATISTICS);

    public static final ConfigOption<Boolean> SHARDS_STATISTICS_REPORT =
            JobOptionStage.SHARDS.option(ShardOptions.STATISTICS_REPORT);

    public static final ConfigOption<Boolean> SHARDS_SCHEMA_COPIES =
            JobOptionStage.SHARDS.option(ShardOptions.SCHEMA_COPIES);

    public static final ConfigOption<Boolean> SHARDS_SUCCESS_MARKERS =
            JobOptionStage.SHARDS.option(ShardOptions.SUCCESS_MARKERS);

    public static final ConfigOption<Duration> SHARDS_SUCCESS_DELAY =
            JobOptionStage.SHARDS.option(ShardOptions.SUCCESS_DELAY);

    public static final ConfigOption<LateRecords> SHARDS_LATE_RECORDS =
            JobOptionStage.SHARDS.option(ShardOptions.LATE_RECORDS);

    public static final ConfigOption<LostShardAction> SHARDS_ON_LOST_SHARD =
            JobOptionStage.SHARDS.option(ShardOptions.ON_LOST_SHARD);

    public static final ConfigOption<Boolean> SHARDS_ADOPT_UPLOADS =
            JobOptionStage.SHARDS.option(ShardOptions.ADOPT_UPLOADS);

    public static final ConfigOption<MemorySize> SHARDS_CHECKPOINT_BUDGET =
            JobOptionStage.SHARDS.option(ShardOptions.CHECKPOINT_BUDGET);

    public static final ConfigOption<Boolean> SHARDS_S3_PROBE =
            JobOptionStage.SHARDS.option(ShardOptions.S3_PROBE);

    public static final ConfigOption<Duration> SHARDS_MAX_BUCKET_SKEW =
            JobOptionStage.SHARDS.option(ShardOptions.MAX_BUCKET_SKEW);

    public static final ConfigOption<SkewAction> SHARDS_SKEW_ACTION =
            JobOptionStage.SHARDS.option(ShardOptions.SKEW_ACTION);

    public static final ConfigOption<String> SHARDS_SPLITS =
            JobOptionStage.SHARDS.option(ShardOptions.SPLITS);

    public static final ConfigOption<String> SHARDS_SPLIT_FEATURE =
            JobOptionStage.SHARDS.option(ShardOptions.SPLIT_FEATURE);

    // --- validation

    public static final ConfigOption<Boolean> VALIDATION_ENABLED =
            JobOptionStage.VALIDATION.option(ValidationOptions.ENABLED);

    public static final ConfigOption<String> VALIDATION_ENVIRONMENT =
            JobOptionStage.VALIDATION.option(ValidationOptions.ENVIRONMENT);

    public static final ConfigOption<Duration> VALIDATION_WINDOW =
            JobOptionStage.VALIDATION.option(ValidationOptions.WINDOW);

    public static final ConfigOption<String> VALIDATION_ALERTS_TOPIC =
            JobOptionStage.VALIDATION.option(ValidationOptions.ALERTS_TOPIC);

    public static final ConfigOption<String> VALIDATION_ANOMALIES_TOPIC =
            JobOptionStage.VALIDATION.option(ValidationOptions.ANOMALIES_TOPIC);

    public static final ConfigOption<Integer> VALIDATION_SPLITS =
            JobOptionStage.VALIDATION.option(ValidationOptions.SPLITS);

    public static final ConfigOption<Long> VALIDATION_MIN_DRIFT_EXAMPLES =
            JobOptionStage.VALIDATION.option(ValidationOptions.MIN_DRIFT_EXAMPLES);

    public static final ConfigOption<List<String>> VALIDATION_ACTIONS =
            JobOptionStage.VALIDATION.option(ValidationOptions.ACTIONS);

    public static final ConfigOption<List<String>> VALIDATION_SEVERITY_OVERRIDES =
            JobOptionStage.VALIDATION.option(ValidationOptions.SEVERITY_OVERRIDES);

    // --- statistics

    public static final ConfigOption<Boolean> STATISTICS_ENABLED =
            JobOptionStage.STATISTICS.option(StatisticsOptions.ENABLED);

    public static final ConfigOption<String> STATISTICS_TOPIC =
            JobOptionStage.STATISTICS.option(StatisticsOptions.TOPIC);

    public static final ConfigOption<Double> STATISTICS_EPSILON =
            JobOptionStage.STATISTICS.option(StatisticsOptions.EPSILON);

    public static final ConfigOption<String> STATISTICS_WEIGHT_FEATURE =
            JobOptionStage.STATISTICS.option(StatisticsOptions.WEIGHT_FEATURE);

    // --- S3

    public static final ConfigOption<String> S3_ENDPOINT =
            key("s3.endpoint")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "S3 endpoint URL for s3:// paths (unset: AWS). Credentials come from"
                                    + " the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)"
                                    + " or s3.credentials-file, and are never printed.");

    public static final ConfigOption<Boolean> S3_PATH_STYLE_ACCESS =
            key("s3.path-style-access")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Path-style S3 requests (endpoint/bucket/key), as S3Proxy and MinIO"
                                    + " need.");

    public static final ConfigOption<String> S3_CREDENTIALS_FILE =
            key("s3.credentials-file")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "A properties file with access-key and secret-key, read at start"
                                    + " instead of the environment.");

    public static final ConfigOption<S3ServerSideEncryption> S3_SERVER_SIDE_ENCRYPTION =
            key("s3.server-side-encryption")
                    .enumType(S3ServerSideEncryption.class)
                    .defaultValue(S3ServerSideEncryption.NONE)
                    .withDescription(
                            "Server-side encryption requested for every shard object on S3:"
                                    + " none (the bucket's default), sse_s3 (AES256), sse_kms"
                                    + " (aws:kms) or dsse_kms (aws:kms:dsse); sent on each upload,"
                                    + " so a bucket policy that denies unencrypted uploads admits"
                                    + " them.");

    public static final ConfigOption<String> S3_SSE_KMS_KEY_ID =
            key("s3.sse-kms-key-id")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "KMS key id or ARN for s3.server-side-encryption sse_kms or dsse_kms"
                                    + " (unset: the bucket's or account's default key).");

    /** The server-side encryption of shard objects on S3 (s3.server-side-encryption). */
    public enum S3ServerSideEncryption {
        NONE(null),
        SSE_S3("AES256"),
        SSE_KMS("aws:kms"),
        DSSE_KMS("aws:kms:dsse");

        private final String header;

        S3ServerSideEncryption(String header) {
            this.header = header;
        }

        /** The x-amz-server-side-encryption value, or null. */
        public String header() {
            return header;
        }
    }

    /**
     * Values still accepted for an option though spelled differently before: {@link JobConfig}
     * reads the old spelling as the new one and warns ({@link JobConfig#warnings()}).
     */
    static final Map<ConfigOption<?>, Map<String, String>> DEPRECATED_VALUES =
            Map.of(
                    SOURCE_FILES_ON_CORRUPTION, Map.of("dlq", "dead_letter"),
                    BATCH_LATE_RECORDS, Map.of("dlq", "dead_letter"));

    /** The job's own options before the stages': job-wide settings and the source type. */
    private static final OptionList JOB =
            OptionList.builder()
                    .add(
                            JOB_NAME,
                            (v, name) -> {
                                if (v.isBlank()) {
                                    throw new IllegalArgumentException(name + " must not be empty");
                                }
                            })
                    .add(
                            PARALLELISM,
                            (p, name) -> {
                                if (p == 0 || p < -1) {
                                    throw OptionCheck.invalid(p, name, "-1 or a positive integer");
                                }
                            })
                    .add(CHECKPOINT_INTERVAL, Duration.class, OptionCheck.positive())
                    .add(CHECKPOINT_DIR, String.class, null)
                    .add(
                            REST_PORT,
                            (port, name) -> {
                                if (port < 0 || port > 65535) {
                                    throw OptionCheck.invalid(port, name, "0..65535");
                                }
                            })
                    .add(SOURCE_TYPE)
                    .build();

    /** The files the parse spec comes from. */
    private static final OptionList INPUTS =
            OptionList.builder()
                    .add(SCHEMA_PATH, String.class, null)
                    .add(SPEC_PATH, String.class, null)
                    .build();

    /** The S3 client of s3:// paths. */
    private static final OptionList S3 =
            OptionList.builder()
                    .add(S3_ENDPOINT, String.class, null)
                    .add(S3_PATH_STYLE_ACCESS)
                    .add(S3_CREDENTIALS_FILE, String.class, null)
                    .add(S3_SERVER_SIDE_ENCRYPTION)
                    .add(S3_SSE_KMS_KEY_ID, String.class, null)
                    .build();

    /** Every stage, in the order help and docs list their options. */
    static final List<JobOptionStage> STAGES =
            List.of(
                    new JobOptionStage("", JOB),
                    JobOptionStage.FILE_SOURCE,
                    JobOptionStage.SOURCE,
                    JobOptionStage.CONVERT,
                    new JobOptionStage("", INPUTS),
                    JobOptionStage.SCHEMA,
                    JobOptionStage.PARSE,
                    JobOptionStage.EVENT_TIME,
                    JobOptionStage.BATCH,
                    JobOptionStage.DEAD_LETTERS,
                    JobOptionStage.KAFKA_SINKS,
                    JobOptionStage.PAYLOADS,
                    JobOptionStage.SHARDS,
                    JobOptionStage.VALIDATION,
                    JobOptionStage.STATISTICS,
                    new JobOptionStage("", S3));

    /** Every option, in the order help and docs list them. */
    public static final List<ConfigOption<?>> ALL =
            STAGES.stream().flatMap(s -> s.options().stream()).toList();

    /** The stage {@code option} (a job key) belongs to. */
    static JobOptionStage stageOf(ConfigOption<?> option) {
        for (JobOptionStage s : STAGES) {
            if (s.has(option)) {
                return s;
            }
        }
        throw new IllegalArgumentException(option.key() + " is not a job option");
    }

    /** {@code source.type}. */
    public enum SourceType {
        KAFKA,
        FILES
    }
}
