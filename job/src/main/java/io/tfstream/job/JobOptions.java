package io.tfstream.job;

import static org.apache.flink.configuration.ConfigOptions.key;

import io.tfstream.convert.InputFormat;
import io.tfstream.operators.deadletter.DeadLetterGuard;
import io.tfstream.operators.files.TfRecordFileFormat;
import io.tfstream.operators.kafka.TensorBatchSerializationSchema;
import io.tfstream.operators.parse.BatchTriggers;
import io.tfstream.operators.parse.EventTimeSettings;
import io.tfstream.operators.parse.SchemaUpdates;
import io.tfstream.operators.shards.BucketSkewGuard;
import io.tfstream.operators.shards.LateBucketGuard;
import io.tfstream.operators.shards.LostShards;
import io.tfstream.operators.window.WindowSettings;
import io.tfstream.parse.ParseLimits;
import io.tfstream.tfrecord.Compression;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.MemorySize;

/**
 * Every setting of the streaming job, as typed Flink {@link ConfigOption}s with defaults and
 * descriptions; dotted keys grouped by stage. An option that picks an operator's behaviour is typed
 * by that operator's own enum (e.g. {@link TfRecordFileFormat.OnCorruption}); enums declared here
 * exist only at the job level. {@code tfstream run --help} and the option table of
 * docs/streaming-job.md#options are generated from {@link #ALL}. Keys under {@link
 * #SOURCE_PROPERTIES_PREFIX} and {@link #OUTPUT_PROPERTIES_PREFIX} pass through to the Kafka
 * clients; keys under {@link #FLINK_PREFIX} to Flink's own configuration.
 */
public final class JobOptions {
    private JobOptions() {}

    /** {@code source.properties.<kafka consumer key>}: passed to the Kafka consumer as is. */
    public static final String SOURCE_PROPERTIES_PREFIX = "source.properties.";

    /** {@code output.properties.<kafka producer key>}: passed to every Kafka producer as is. */
    public static final String OUTPUT_PROPERTIES_PREFIX = "output.properties.";

    /** {@code flink.<flink key>}: passed to Flink's configuration (e.g. restart strategy). */
    public static final String FLINK_PREFIX = "flink.";

    public static final Duration DEFAULT_TRANSACTION_TIMEOUT = Duration.ofMinutes(10);
    public static final Duration DEFAULT_CHECKPOINT_INTERVAL = Duration.ofSeconds(10);
    public static final Duration DEFAULT_OUT_OF_ORDERNESS = Duration.ofSeconds(5);
    public static final Duration DEFAULT_IDLENESS = Duration.ofSeconds(30);
    public static final int DEFAULT_MAX_ERROR_BYTES = 1024;
    public static final int DEFAULT_REST_PORT = 8081;

    /** {@code shards.max-bucket-skew} of a Kafka source when it is not set. */
    public static final Duration DEFAULT_MAX_BUCKET_SKEW = Duration.ofDays(7);

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
            key("source.files.paths")
                    .stringType()
                    .asList()
                    .noDefaultValue()
                    .withDescription(
                            "TFRecord files, directories (read recursively) or globs in the last"
                                    + " path segments (file:///data/*.tfrecord.gz,"
                                    + " s3://bucket/shards/dt=*/*); names starting with '.' or '_'"
                                    + " are skipped. Compression is detected per file.");

    public static final ConfigOption<FilesMode> SOURCE_FILES_MODE =
            key("source.files.mode")
                    .enumType(FilesMode.class)
                    .defaultValue(FilesMode.BOUNDED)
                    .withDescription(
                            "bounded: read the files there at start, then finish (a final"
                                    + " checkpoint commits every output); continuous: also pick up"
                                    + " new files every source.files.discovery-interval.");

    public static final ConfigOption<Duration> SOURCE_FILES_DISCOVERY_INTERVAL =
            key("source.files.discovery-interval")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription("How often a continuous file source looks for new files.");

    public static final ConfigOption<TfRecordFileFormat.OnCorruption> SOURCE_FILES_ON_CORRUPTION =
            key("source.files.on-corruption")
                    .enumType(TfRecordFileFormat.OnCorruption.class)
                    .defaultValue(TfRecordFileFormat.OnCorruption.DEAD_LETTER)
                    .withDescription(
                            "A damaged region of a file (bad CRC, bad length, truncation):"
                                    + " dead_letter"
                                    + " (dead letter with reason corrupt_input, file and byte"
                                    + " offset; reading resumes at the next valid record) or fail"
                                    + " (the job stops without restarts).");

    public static final ConfigOption<String> SOURCE_BOOTSTRAP_SERVERS =
            key("source.bootstrap-servers")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("Kafka bootstrap servers of the input (required).");

    public static final ConfigOption<List<String>> SOURCE_TOPICS =
            key("source.topics")
                    .stringType()
                    .asList()
                    .noDefaultValue()
                    .withDescription(
                            "Input topics (a YAML list or a ';'-separated string). Exactly one of"
                                    + " source.topics and source.topic-pattern.");

    public static final ConfigOption<String> SOURCE_TOPIC_PATTERN =
            key("source.topic-pattern")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Java regular expression of input topics; new matching topics are"
                                    + " picked up while the job runs.");

    public static final ConfigOption<String> SOURCE_GROUP_ID =
            key("source.group-id")
                    .stringType()
                    .defaultValue("tfstream")
                    .withDescription(
                            "Kafka consumer group; offsets are committed to it on checkpoints"
                                    + " (for monitoring and for source.starting-offsets:"
                                    + " committed).");

    public static final ConfigOption<String> SOURCE_STARTING_OFFSETS =
            key("source.starting-offsets")
                    .stringType()
                    .defaultValue("committed")
                    .withDescription(
                            "Where a job without a checkpoint starts: committed (the group's"
                                    + " committed offsets, earliest where none), earliest,"
                                    + " latest, or timestamp:<epoch ms>.");

    public static final ConfigOption<StoppingOffsets> SOURCE_STOPPING_OFFSETS =
            key("source.stopping-offsets")
                    .enumType(StoppingOffsets.class)
                    .defaultValue(StoppingOffsets.NONE)
                    .withDescription(
                            "none: read forever; latest: stop at the end offsets the partitions"
                                    + " have when the job starts (a bounded run, e.g. a backfill:"
                                    + " the job finishes after a final checkpoint that commits"
                                    + " every output).");

    public static final ConfigOption<InputFormat> SOURCE_FORMAT =
            key("source.format")
                    .enumType(InputFormat.class)
                    .defaultValue(InputFormat.EXAMPLE)
                    .withDescription(
                            "What each input record holds: example (a serialized tf.Example or"
                                    + " SequenceExample, as schema.kind says), json (one UTF-8 JSON"
                                    + " object) or avro (Avro binary of source.avro.schema-path,"
                                    + " optionally with the Confluent framing). json and avro are"
                                    + " converted to the schema's Example before the parse"
                                    + " (docs/conversion.md); a record that does not convert is a"
                                    + " dead letter with reason conversion_error.");

    public static final ConfigOption<String> SOURCE_AVRO_SCHEMA_PATH =
            key("source.avro.schema-path")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The Avro writer schema (.avsc) of source.format avro (required"
                                    + " then). No schema registry is asked.");

    public static final ConfigOption<Integer> SOURCE_AVRO_SCHEMA_ID =
            key("source.avro.schema-id")
                    .intType()
                    .noDefaultValue()
                    .withDescription(
                            "When set, every Avro record must carry the Confluent framing (magic"
                                    + " byte 0, 4-byte schema id) with this id; others are dead"
                                    + " letters. Unset: framed and plain records are both read.");

    public static final ConfigOption<JsonBytes> SOURCE_JSON_BYTES =
            key("source.json.bytes")
                    .enumType(JsonBytes.class)
                    .defaultValue(JsonBytes.UTF8)
                    .withDescription(
                            "How a JSON string becomes a BYTES feature value: utf8 (its UTF-8"
                                    + " bytes) or base64 (decoded, for binary values).");

    public static final ConfigOption<Boolean> SOURCE_CONVERT_FLATTEN =
            key("source.convert.flatten")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Read nested JSON objects and Avro records as features named"
                                    + " parent.child. false: a nested object or record holding"
                                    + " schema features is refused.");

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

    public static final ConfigOption<SchemaKind> SCHEMA_KIND =
            key("schema.kind")
                    .enumType(SchemaKind.class)
                    .defaultValue(SchemaKind.EXAMPLE)
                    .withDescription(
                            "Record type: example (tf.train.Example, parse_example) or"
                                    + " sequence_example (parse_sequence_example); must match"
                                    + " the schema.");

    public static final ConfigOption<Boolean> SCHEMA_LEGACY_DEFAULTS =
            key("schema.legacy-defaults")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Fixed-shape schema features without a default get the legacy"
                                    + " defaults (b'', -1, -1.0) instead of being required.");

    public static final ConfigOption<SchemaUpdate> SCHEMA_UPDATE =
            key("schema.update")
                    .enumType(SchemaUpdate.class)
                    .defaultValue(SchemaUpdate.NONE)
                    .withDescription(
                            "none: the schema or spec file is read once at start. poll: every"
                                    + " parse subtask watches the file (any Flink file system)"
                                    + " and takes up a changed one at its next checkpoint"
                                    + " (docs/schema-changes.md); a file that does not convert to"
                                    + " a spec, or fails schema.compatibility, is refused with a"
                                    + " SCHEMA alert and the old schema stays.");

    public static final ConfigOption<Duration> SCHEMA_POLL_INTERVAL =
            key("schema.poll-interval")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(30))
                    .withDescription(
                            "With schema.update: poll, how often each parse subtask reads the"
                                    + " schema or spec file.");

    public static final ConfigOption<SchemaUpdates.Compatibility> SCHEMA_COMPATIBILITY =
            key("schema.compatibility")
                    .enumType(SchemaUpdates.Compatibility.class)
                    .defaultValue(SchemaUpdates.Compatibility.ANY)
                    .withDescription(
                            "With schema.update: poll, which new schemas are taken up: any (every"
                                    + " one that converts to a spec) or backward (only one under"
                                    + " which every record the schema in force accepts stays"
                                    + " accepted, as tfstream schema diff decides).");

    // --- parse limits

    public static final ConfigOption<MemorySize> MAX_RECORD_BYTES =
            key("parse.max-record-bytes")
                    .memoryType()
                    .defaultValue(new MemorySize(ParseLimits.DEFAULT_MAX_RECORD_BYTES))
                    .withDescription(
                            "Largest record parsed; larger ones are dead-lettered with reason"
                                    + " limit_exceeded.");

    public static final ConfigOption<Integer> MAX_VALUES_PER_FEATURE =
            key("parse.max-values-per-feature")
                    .intType()
                    .defaultValue(ParseLimits.DEFAULT_MAX_VALUES_PER_FEATURE)
                    .withDescription("Most values one feature of one record may hold.");

    public static final ConfigOption<Integer> MAX_FEATURES_PER_EXAMPLE =
            key("parse.max-features-per-example")
                    .intType()
                    .defaultValue(ParseLimits.DEFAULT_MAX_FEATURES_PER_EXAMPLE)
                    .withDescription("Most feature map entries one record may hold.");

    public static final ConfigOption<MemorySize> MAX_BYTES_PER_VALUE =
            key("parse.max-bytes-per-value")
                    .memoryType()
                    .defaultValue(new MemorySize(ParseLimits.DEFAULT_MAX_BYTES_PER_VALUE))
                    .withDescription("Largest single bytes_list value.");

    public static final ConfigOption<Integer> MAX_RAGGED_ROWS =
            key("parse.max-ragged-rows")
                    .intType()
                    .defaultValue(ParseLimits.DEFAULT_MAX_RAGGED_ROWS)
                    .withDescription(
                            "Most rows a RaggedFeature's value_rowids partition may give one"
                                    + " batch.");

    // --- event time

    public static final ConfigOption<EventTimeSettings.Source> EVENT_TIME_SOURCE =
            key("event-time.source")
                    .enumType(EventTimeSettings.Source.class)
                    .defaultValue(EventTimeSettings.Source.KAFKA_TIMESTAMP)
                    .withDescription(
                            "Where event time comes from: kafka_timestamp (the record's Kafka"
                                    + " timestamp) or feature (event-time.feature).");

    public static final ConfigOption<String> EVENT_TIME_FEATURE =
            key("event-time.feature")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "int64 feature (a context feature for SequenceExamples) holding the"
                                    + " event time; a record without a valid value is"
                                    + " dead-lettered with reason parse_error.");

    public static final ConfigOption<EventTimeSettings.Unit> EVENT_TIME_UNIT =
            key("event-time.unit")
                    .enumType(EventTimeSettings.Unit.class)
                    .defaultValue(EventTimeSettings.Unit.MILLIS)
                    .withDescription(
                            "Unit of event-time.feature: millis or seconds since the epoch.");

    public static final ConfigOption<Duration> EVENT_TIME_OUT_OF_ORDERNESS =
            key("event-time.max-out-of-orderness")
                    .durationType()
                    .defaultValue(DEFAULT_OUT_OF_ORDERNESS)
                    .withDescription("How far behind the newest event time a record may arrive.");

    public static final ConfigOption<Duration> EVENT_TIME_IDLENESS =
            key("event-time.idleness")
                    .durationType()
                    .defaultValue(DEFAULT_IDLENESS)
                    .withDescription(
                            "A partition without records for this long stops holding back the"
                                    + " watermark (0: never).");

    // --- batching

    public static final ConfigOption<Integer> BATCH_MAX_RECORDS =
            key("batch.max-records")
                    .intType()
                    .defaultValue(BatchTriggers.DEFAULT_MAX_RECORDS)
                    .withDescription("A batch closes at this many records.");

    public static final ConfigOption<MemorySize> BATCH_MAX_BYTES =
            key("batch.max-bytes")
                    .memoryType()
                    .defaultValue(new MemorySize(BatchTriggers.DEFAULT_MAX_BYTES))
                    .withDescription("A batch closes at this many bytes of records.");

    public static final ConfigOption<Duration> BATCH_MAX_DELAY =
            key("batch.max-delay")
                    .durationType()
                    .defaultValue(BatchTriggers.DEFAULT_MAX_DELAY)
                    .withDescription(
                            "A batch closes this long (processing time) after its first record;"
                                    + " also always before a checkpoint.");

    public static final ConfigOption<BatchMode> BATCH_MODE =
            key("batch.mode")
                    .enumType(BatchMode.class)
                    .defaultValue(BatchMode.COUNT)
                    .withDescription(
                            "count: batches per subtask closed by batch.max-records, -bytes or"
                                    + " -delay (Kafka order kept); event_time_window: tumbling"
                                    + " event-time windows of batch.window per batch.key, closed"
                                    + " by the watermark (Kafka-timestamp event time only).");

    public static final ConfigOption<Duration> BATCH_WINDOW =
            key("batch.window")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription("Size of the tumbling event-time windows.");

    public static final ConfigOption<Duration> BATCH_ALLOWED_LATENESS =
            key("batch.allowed-lateness")
                    .durationType()
                    .defaultValue(Duration.ZERO)
                    .withDescription(
                            "A window closes when the watermark passes its end plus this; later"
                                    + " records are late (batch.late-records).");

    public static final ConfigOption<WindowSettings.LateRecords> BATCH_LATE_RECORDS =
            key("batch.late-records")
                    .enumType(WindowSettings.LateRecords.class)
                    .defaultValue(WindowSettings.LateRecords.DEAD_LETTER)
                    .withDescription(
                            "A record whose window has closed: dead_letter (dead letter, reason"
                                    + " late) or drop; counted either way (metric lateRecords).");

    /**
     * 8 batches of the default batch.max-bytes: a closing window holds its records and, briefly,
     * their payloads (about as large again), one window at a time per subtask.
     */
    public static final MemorySize DEFAULT_WINDOW_MAX_BUFFERED_BYTES = MemorySize.ofMebiBytes(64);

    public static final ConfigOption<MemorySize> BATCH_WINDOW_MAX_BUFFERED_BYTES =
            key("batch.window-max-buffered-bytes")
                    .memoryType()
                    .defaultValue(DEFAULT_WINDOW_MAX_BUFFERED_BYTES)
                    .withDescription(
                            "Memory bound of event-time windows: one key's window buffers at most"
                                    + " this many bytes of record values; the record that reaches"
                                    + " it makes the buffer be parsed and emitted early as payloads"
                                    + " of that window (parts 0: total not known yet) and the"
                                    + " window goes on.");

    public static final ConfigOption<String> BATCH_KEY =
            key("batch.key")
                    .stringType()
                    .defaultValue("source_partition")
                    .withDescription(
                            "Grouping key of window batches (a window's batch never mixes keys):"
                                    + " kafka_key, source_partition, or feature:<name> (its first"
                                    + " value; a context feature for SequenceExamples).");

    // --- dead letters

    public static final ConfigOption<String> DLQ_TOPIC =
            key("dlq.topic")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Dead-letter topic (required): rejected records, byte for byte, with"
                                    + " tfstream.* headers.");

    public static final ConfigOption<Integer> DLQ_MAX_ERROR_BYTES =
            key("dlq.max-error-bytes")
                    .intType()
                    .defaultValue(DEFAULT_MAX_ERROR_BYTES)
                    .withDescription("The tfstream.error header is cut to this many UTF-8 bytes.");

    public static final ConfigOption<Double> DLQ_MAX_FRACTION =
            key("dlq.max-fraction")
                    .doubleType()
                    .defaultValue(1.0)
                    .withDescription(
                            "Circuit breaker: stop the job (no restart) when more than this"
                                    + " fraction of one subtask's records within dlq.window are"
                                    + " dead-lettered (1: off); records diverted by"
                                    + " validation.actions do not count.");

    public static final ConfigOption<Duration> DLQ_WINDOW =
            key("dlq.window")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(1))
                    .withDescription("Window of the dead-letter circuit breaker.");

    public static final ConfigOption<Long> DLQ_MIN_RECORDS =
            key("dlq.min-records")
                    .longType()
                    .defaultValue(DeadLetterGuard.DEFAULT_MIN_RECORDS)
                    .withDescription(
                            "The circuit breaker judges a window only once it holds this many"
                                    + " records.");

    // --- outputs

    public static final ConfigOption<String> OUTPUT_BOOTSTRAP_SERVERS =
            key("output.bootstrap-servers")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Kafka bootstrap servers of the outputs (default:"
                                    + " source.bootstrap-servers).");

    public static final ConfigOption<String> OUTPUT_RECORDS_TOPIC =
            key("output.records.topic")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Optional topic of the accepted records, byte for byte with keys and"
                                    + " headers, exactly once.");

    public static final ConfigOption<String> OUTPUT_BATCHES_TOPIC =
            key("output.batches.topic")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Optional topic of the batched tensor payloads: one tfstream.v1."
                                    + "TensorBatch message per parsed batch (parse_example over"
                                    + " its accepted rows), exactly once.");

    public static final ConfigOption<TensorBatchSerializationSchema.KeyMode> OUTPUT_BATCHES_KEY =
            key("output.batches.key")
                    .enumType(TensorBatchSerializationSchema.KeyMode.class)
                    .defaultValue(TensorBatchSerializationSchema.KeyMode.NONE)
                    .withDescription(
                            "Kafka key of a payload: none, source_partition (the batch's first"
                                    + " source partition as <topic>-<partition>), or batch_key"
                                    + " (batch.mode event_time_window only: the window's"
                                    + " batch.key, i.e. the Kafka key's bytes, <topic>-<partition>"
                                    + " or the feature's value).");

    public static final ConfigOption<MemorySize> OUTPUT_BATCHES_MAX_MESSAGE_BYTES =
            key("output.batches.max-message-bytes")
                    .memoryType()
                    .noDefaultValue()
                    .withDescription(
                            "Largest payload Kafka message (default: output.properties."
                                    + "max.request.size, else 1 MiB; at most the topic's"
                                    + " max.message.bytes, checked at start). 1 KiB of it is kept"
                                    + " for key, headers and framing; a batch over the rest is"
                                    + " split by rows into parts, a record too big alone is"
                                    + " dead-lettered (too_large).");

    public static final ConfigOption<Duration> OUTPUT_TRANSACTION_TIMEOUT =
            key("output.transaction-timeout")
                    .durationType()
                    .defaultValue(DEFAULT_TRANSACTION_TIMEOUT)
                    .withDescription(
                            "Kafka transaction timeout of the exactly-once sinks; at most the"
                                    + " broker's transaction.max.timeout.ms and well above"
                                    + " checkpoint.interval plus the longest expected restart.");

    // --- TFRecord shards

    public static final ConfigOption<String> SHARDS_PATH =
            key("shards.path")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Base path of the TFRecord shards of accepted records: s3://bucket/prefix"
                                    + " (s3a:// too; needs a file-system checkpoint directory), or any"
                                    + " scheme whose Flink file system has a resumable recoverable"
                                    + " writer (file:///dir, hdfs://, gs://, abfs://, ...); unset:"
                                    + " no shards.");

    public static final ConfigOption<Compression> SHARDS_COMPRESSION =
            key("shards.compression")
                    .enumType(Compression.class)
                    .defaultValue(Compression.NONE)
                    .withDescription(
                            "Shard compression: none (.tfrecord), gzip (.tfrecord.gz, one gzip"
                                    + " member per checkpoint) or zlib (.tfrecord.zz, one zlib"
                                    + " stream per shard).");

    /** TensorFlow's (zlib's) default deflate level. */
    public static final int DEFAULT_COMPRESSION_LEVEL = 6;

    public static final ConfigOption<Integer> SHARDS_COMPRESSION_LEVEL =
            key("shards.compression-level")
                    .intType()
                    .defaultValue(DEFAULT_COMPRESSION_LEVEL)
                    .withDescription(
                            "Deflate level of gzip and zlib shards, 0-9 (6: TensorFlow's"
                                    + " default; 1: fastest).");

    /** The smallest part of an S3 multipart upload but the last. */
    public static final MemorySize MIN_PART_SIZE = MemorySize.parse("5 mb");

    public static final ConfigOption<MemorySize> SHARDS_PART_SIZE =
            key("shards.part-size")
                    .memoryType()
                    .defaultValue(MIN_PART_SIZE)
                    .withDescription(
                            "S3 shards only: part size of a shard's multipart upload, at least 5"
                                    + " MiB; each open shard holds one part on the heap, and the"
                                    + " unfinished part is kept in the checkpoint.");

    public static final ConfigOption<MemorySize> SHARDS_TARGET_SIZE =
            key("shards.target-size")
                    .memoryType()
                    .defaultValue(MemorySize.parse("128 mb"))
                    .withDescription(
                            "A shard is finished once it reaches about this size (bytes as"
                                    + " stored, compressed or not); it stays open across"
                                    + " checkpoints until then.");

    public static final ConfigOption<Duration> SHARDS_MAX_AGE =
            key("shards.max-age")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(15))
                    .withDescription(
                            "A shard is finished at the first checkpoint this long (processing"
                                    + " time) after it was opened, however small.");

    public static final ConfigOption<String> SHARDS_BUCKET_PATTERN =
            key("shards.bucket-pattern")
                    .stringType()
                    .defaultValue("'dt='yyyy-MM-dd/'hour='HH")
                    .withDescription(
                            "java.time DateTimeFormatter pattern of the bucket directory, applied"
                                    + " to the record's event time.");

    public static final ConfigOption<String> SHARDS_ZONE =
            key("shards.zone")
                    .stringType()
                    .defaultValue("UTC")
                    .withDescription("Time zone of shards.bucket-pattern.");

    public static final ConfigOption<String> SHARDS_PREFIX =
            key("shards.prefix")
                    .stringType()
                    .defaultValue("part")
                    .withDescription(
                            "Shard file names are"
                                    + " <prefix>-<jobId>-<run>-<subtask>-<counter><suffix> (run:"
                                    + " 16 hex digits drawn by each writer instance); must"
                                    + " not start with '.' or '_' (names readers skip).");

    public static final ConfigOption<Boolean> SHARDS_MANIFESTS =
            key("shards.manifests")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Write <shard>.manifest.json beside each finished shard once it is"
                                    + " committed: records, bytes, compression, CRC32C of the"
                                    + " file, schema fingerprint, event-time range, source offset"
                                    + " ranges (checked by tfstream verify --manifest).");

    public static final ConfigOption<Boolean> SHARDS_SUCCESS_MARKERS =
            key("shards.success-markers")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Write a _SUCCESS file into an event-time bucket once the watermark has"
                                    + " passed the bucket's end plus shards.success-delay and its"
                                    + " shards are committed, listing them with their record"
                                    + " counts; written again when late records add a shard."
                                    + " Needs shards.manifests.");

    public static final ConfigOption<Duration> SHARDS_SUCCESS_DELAY =
            key("shards.success-delay")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(1))
                    .withDescription(
                            "How long after a bucket's end (in event time, by the watermark) the"
                                    + " bucket is complete and gets its _SUCCESS marker.");

    public static final ConfigOption<LateBucketGuard.Action> SHARDS_LATE_RECORDS =
            key("shards.late-records")
                    .enumType(LateBucketGuard.Action.class)
                    .defaultValue(LateBucketGuard.Action.WRITE)
                    .withDescription(
                            "A record whose bucket is complete (its end plus shards.success-delay"
                                    + " is behind the watermark), counted in lateBucketRecords:"
                                    + " write (a new shard in the bucket, its _SUCCESS written"
                                    + " again) or dead_letter (reason late, not in the shards nor"
                                    + " the records topic).");

    public static final ConfigOption<LostShards.Action> SHARDS_ON_LOST_SHARD =
            key("shards.on-lost-shard")
                    .enumType(LostShards.Action.class)
                    .defaultValue(LostShards.Action.FAIL)
                    .withDescription(
                            "A shard that a restored checkpoint or savepoint holds but whose bytes"
                                    + " the store lost (its multipart upload aborted or expired,"
                                    + " its in-progress file gone): fail (the job fails naming the"
                                    + " shard and the source ranges it held, again after every"
                                    + " restart) or drop (logged with the same, counted in"
                                    + " tfstream.shardsLost and tfstream.shardRecordsLost; those"
                                    + " records are in no shard).");

    public static final ConfigOption<MemorySize> SHARDS_CHECKPOINT_BUDGET =
            key("shards.checkpoint-budget")
                    .memoryType()
                    .defaultValue(MemorySize.parse("64 mb"))
                    .withDescription(
                            "S3 shards only: bytes of unfinished parts (each open shard's tail below"
                                    + " 5 MiB) one writer subtask keeps in a checkpoint at most;"
                                    + " beyond it the shards with the largest tails are finished"
                                    + " at the checkpoint. Every checkpoint holds every tail again:"
                                    + " without a bound, slow buckets cost up to shards.max-age /"
                                    + " (2 x checkpoint interval) bytes of checkpoint per byte of"
                                    + " data.");

    public static final ConfigOption<Boolean> SHARDS_S3_PROBE =
            key("shards.s3-probe")
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

    public static final ConfigOption<Duration> SHARDS_MAX_BUCKET_SKEW =
            key("shards.max-bucket-skew")
                    .durationType()
                    .noDefaultValue()
                    .withDescription(
                            "A record whose event time is further than this from the current"
                                    + " time (either way) is handled by shards.skew-action."
                                    + " Unset: 7 d with source.type kafka; no check with"
                                    + " source.type files, whose event times (modification times,"
                                    + " or event-time.feature) are old in a backfill: its records"
                                    + " keep the buckets of their event times.");

    public static final ConfigOption<BucketSkewGuard.Action> SHARDS_SKEW_ACTION =
            key("shards.skew-action")
                    .enumType(BucketSkewGuard.Action.class)
                    .defaultValue(BucketSkewGuard.Action.DEAD_LETTER)
                    .withDescription(
                            "What happens to a record beyond shards.max-bucket-skew: dead_letter"
                                    + " (reason validation, not in any output) or processing_time"
                                    + " (bucketed by the time it is written); counted in the"
                                    + " metric tfstream.skewedRecords either way.");

    // --- validation

    public static final Duration DEFAULT_VALIDATION_WINDOW = Duration.ofMinutes(1);

    public static final ConfigOption<Boolean> VALIDATION_ENABLED =
            key("validation.enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Validate every accepted record against the TFMD schema of"
                                    + " schema.path (TFDV anomaly types), and each event-time"
                                    + " window of validation.window as a whole; alerts go to"
                                    + " validation.alerts-topic. Needs schema.path (not"
                                    + " spec.path).");

    public static final ConfigOption<String> VALIDATION_ENVIRONMENT =
            key("validation.environment")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The schema environment to validate in (e.g. SERVING), as TFDV's"
                                    + " environment argument: a feature is checked when it is"
                                    + " in_environment, or when it is not not_in_environment and"
                                    + " the environment is one of default_environment. Unset:"
                                    + " every feature is checked.");

    public static final ConfigOption<Duration> VALIDATION_WINDOW =
            key("validation.window")
                    .durationType()
                    .defaultValue(DEFAULT_VALIDATION_WINDOW)
                    .withDescription(
                            "Size of the tumbling event-time windows evaluated as one dataset"
                                    + " (presence, example counts, unique values, drift against"
                                    + " the previous non-empty window). A window fires when the"
                                    + " watermark passes its end; a window without records"
                                    + " fires too (0 examples).");

    public static final ConfigOption<String> VALIDATION_ALERTS_TOPIC =
            key("validation.alerts-topic")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Kafka topic of the alerts (one JSON record per window x feature"
                                    + " path x anomaly type, key = alert_id), written exactly"
                                    + " once with transactional id prefix <job.name>-alerts."
                                    + " Required with validation.enabled; with schema.update:"
                                    + " poll it also gets the SCHEMA alerts of refused schema"
                                    + " files.");

    public static final ConfigOption<String> VALIDATION_ANOMALIES_TOPIC =
            key("validation.anomalies-topic")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Kafka topic of each window's TFDV Anomalies proto (one per window"
                                    + " and feature-path split, key = <window start>/<split>;"
                                    + " for a schema taken up by schema.update: poll one more"
                                    + " per window, key <window start>/<split>/<fingerprint>),"
                                    + " exactly once with prefix <job.name>-anomalies; its"
                                    + " baseline (the schema) is left out when the message would"
                                    + " exceed 900 KiB. Unset: not written.");

    public static final ConfigOption<Integer> VALIDATION_SPLITS =
            key("validation.splits")
                    .intType()
                    .defaultValue(-1)
                    .withDescription(
                            "Feature-path hash splits the window evaluation is keyed by (-1: the"
                                    + " job's parallelism), each on its own subtask. More splits"
                                    + " spread large schemas over more subtasks; each window sends"
                                    + " one partial per subtask and split. Set it explicitly to"
                                    + " restore a savepoint at another parallelism: open windows"
                                    + " are kept per split.");

    public static final ConfigOption<Long> VALIDATION_MIN_DRIFT_EXAMPLES =
            key("validation.min-drift-examples")
                    .longType()
                    .defaultValue(
                            io.tfstream.validation.ValidationOptions.DEFAULT_MIN_DRIFT_EXAMPLES)
                    .withDescription(
                            "Fewest examples with a feature, in the window and in the previous"
                                    + " one, before its drift comparator is computed (small"
                                    + " samples diverge by chance).");

    public static final ConfigOption<List<String>> VALIDATION_ACTIONS =
            key("validation.actions")
                    .stringType()
                    .asList()
                    .noDefaultValue()
                    .withDescription(
                            "What happens to a record with a per-record anomaly, as NAME=action"
                                    + " entries (';'-separated); NAME an anomaly type (e.g."
                                    + " INT_TYPE_BIG_INT) or a severity (ERROR, WARNING), action"
                                    + " pass, mark (header tfstream.anomalies = the type names)"
                                    + " or divert (dead letter, reason validation). A type's"
                                    + " entry wins over its severity's; a record takes its"
                                    + " strongest action. Unset: pass.");

    public static final ConfigOption<List<String>> VALIDATION_SEVERITY_OVERRIDES =
            key("validation.severity-overrides")
                    .stringType()
                    .asList()
                    .noDefaultValue()
                    .withDescription(
                            "TFDV's severity_overrides as TYPE=SEVERITY entries (';'-separated),"
                                    + " e.g. SCHEMA_NEW_COLUMN=WARNING: the severity of alerts and"
                                    + " Anomalies reasons of that type, and the severity"
                                    + " validation.actions matches. Dataset-level anomalies stay"
                                    + " ERROR, as in TFDV. Unset: every type is ERROR.");

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

    /** Every option, in the order help and docs list them. */
    public static final List<ConfigOption<?>> ALL =
            List.of(
                    JOB_NAME,
                    PARALLELISM,
                    CHECKPOINT_INTERVAL,
                    CHECKPOINT_DIR,
                    REST_PORT,
                    SOURCE_TYPE,
                    SOURCE_FILES_PATHS,
                    SOURCE_FILES_MODE,
                    SOURCE_FILES_DISCOVERY_INTERVAL,
                    SOURCE_FILES_ON_CORRUPTION,
                    SOURCE_BOOTSTRAP_SERVERS,
                    SOURCE_TOPICS,
                    SOURCE_TOPIC_PATTERN,
                    SOURCE_GROUP_ID,
                    SOURCE_STARTING_OFFSETS,
                    SOURCE_STOPPING_OFFSETS,
                    SOURCE_FORMAT,
                    SOURCE_AVRO_SCHEMA_PATH,
                    SOURCE_AVRO_SCHEMA_ID,
                    SOURCE_JSON_BYTES,
                    SOURCE_CONVERT_FLATTEN,
                    SCHEMA_PATH,
                    SPEC_PATH,
                    SCHEMA_KIND,
                    SCHEMA_LEGACY_DEFAULTS,
                    SCHEMA_UPDATE,
                    SCHEMA_POLL_INTERVAL,
                    SCHEMA_COMPATIBILITY,
                    MAX_RECORD_BYTES,
                    MAX_VALUES_PER_FEATURE,
                    MAX_FEATURES_PER_EXAMPLE,
                    MAX_BYTES_PER_VALUE,
                    MAX_RAGGED_ROWS,
                    EVENT_TIME_SOURCE,
                    EVENT_TIME_FEATURE,
                    EVENT_TIME_UNIT,
                    EVENT_TIME_OUT_OF_ORDERNESS,
                    EVENT_TIME_IDLENESS,
                    BATCH_MAX_RECORDS,
                    BATCH_MAX_BYTES,
                    BATCH_MAX_DELAY,
                    BATCH_MODE,
                    BATCH_WINDOW,
                    BATCH_ALLOWED_LATENESS,
                    BATCH_LATE_RECORDS,
                    BATCH_WINDOW_MAX_BUFFERED_BYTES,
                    BATCH_KEY,
                    DLQ_TOPIC,
                    DLQ_MAX_ERROR_BYTES,
                    DLQ_MAX_FRACTION,
                    DLQ_WINDOW,
                    DLQ_MIN_RECORDS,
                    OUTPUT_BOOTSTRAP_SERVERS,
                    OUTPUT_RECORDS_TOPIC,
                    OUTPUT_BATCHES_TOPIC,
                    OUTPUT_BATCHES_KEY,
                    OUTPUT_BATCHES_MAX_MESSAGE_BYTES,
                    OUTPUT_TRANSACTION_TIMEOUT,
                    SHARDS_PATH,
                    SHARDS_COMPRESSION,
                    SHARDS_COMPRESSION_LEVEL,
                    SHARDS_TARGET_SIZE,
                    SHARDS_PART_SIZE,
                    SHARDS_MAX_AGE,
                    SHARDS_BUCKET_PATTERN,
                    SHARDS_ZONE,
                    SHARDS_PREFIX,
                    SHARDS_MANIFESTS,
                    SHARDS_SUCCESS_MARKERS,
                    SHARDS_SUCCESS_DELAY,
                    SHARDS_LATE_RECORDS,
                    SHARDS_ON_LOST_SHARD,
                    SHARDS_CHECKPOINT_BUDGET,
                    SHARDS_S3_PROBE,
                    SHARDS_MAX_BUCKET_SKEW,
                    SHARDS_SKEW_ACTION,
                    VALIDATION_ENABLED,
                    VALIDATION_ENVIRONMENT,
                    VALIDATION_WINDOW,
                    VALIDATION_ALERTS_TOPIC,
                    VALIDATION_ANOMALIES_TOPIC,
                    VALIDATION_SPLITS,
                    VALIDATION_MIN_DRIFT_EXAMPLES,
                    VALIDATION_ACTIONS,
                    VALIDATION_SEVERITY_OVERRIDES,
                    S3_ENDPOINT,
                    S3_PATH_STYLE_ACCESS,
                    S3_CREDENTIALS_FILE,
                    S3_SERVER_SIDE_ENCRYPTION,
                    S3_SSE_KMS_KEY_ID);

    /** {@code schema.kind}. */
    public enum SchemaKind {
        EXAMPLE,
        SEQUENCE_EXAMPLE
    }

    /** {@code schema.update}. */
    public enum SchemaUpdate {
        NONE,
        POLL
    }

    /** {@code batch.mode}. */
    public enum BatchMode {
        COUNT,
        EVENT_TIME_WINDOW
    }

    /** {@code source.type}. */
    public enum SourceType {
        KAFKA,
        FILES
    }

    /** {@code source.json.bytes}. */
    public enum JsonBytes {
        UTF8,
        BASE64
    }

    /** {@code source.files.mode}. */
    public enum FilesMode {
        BOUNDED,
        CONTINUOUS
    }

    /** {@code source.stopping-offsets}. */
    public enum StoppingOffsets {
        NONE,
        LATEST
    }
}
