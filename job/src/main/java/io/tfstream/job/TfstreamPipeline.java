package io.tfstream.job;

import io.tfstream.operators.deadletter.DeadLetter;
import io.tfstream.operators.deadletter.DeadLetterGuard;
import io.tfstream.operators.deadletter.DeadLetterOutput;
import io.tfstream.operators.deadletter.DeadLetterSerializationSchema;
import io.tfstream.operators.files.FilePaths;
import io.tfstream.operators.files.TfRecordFileFormat;
import io.tfstream.operators.kafka.AcceptedRecordSerializationSchema;
import io.tfstream.operators.kafka.TensorBatchSerializationSchema;
import io.tfstream.operators.parse.BatchParseOperator;
import io.tfstream.operators.parse.BatchTriggers;
import io.tfstream.operators.parse.EventTimeSettings;
import io.tfstream.operators.parse.ParseSettings;
import io.tfstream.operators.shards.BucketSkewGuard;
import io.tfstream.operators.shards.LateBucketGuard;
import io.tfstream.operators.shards.ShardSettings;
import io.tfstream.operators.shards.TfRecordShardSink;
import io.tfstream.operators.source.SourceRecord;
import io.tfstream.operators.source.SourceRecordDeserializer;
import io.tfstream.operators.source.SourceRecordSerializer;
import io.tfstream.operators.validation.ValidationSettings;
import io.tfstream.operators.window.BatchKeySelector;
import io.tfstream.operators.window.WindowBatchParseOperator;
import io.tfstream.operators.window.WindowSettings;
import io.tfstream.parse.ParseLimits;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordReadOptions;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Pattern;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Builds the streaming job's dataflow (job contract §1) on an environment: KafkaSource → event time
 * and watermarks → batch-and-parse (chained to the source, one per subtask) → accepted records
 * (optional exactly-once records topic, optional TFRecord shards), the batches' tensor payloads
 * (optional exactly-once batches topic) and dead letters (exactly-once dead-letter topic); with
 * {@code validation.enabled}, the rows validated inside batch-and-parse and the window evaluation
 * of the {@link ValidationStage}. Every stage runs at the job's parallelism; nothing runs at
 * parallelism 1.
 */
public final class TfstreamPipeline {
    /** Stable operator ids: state in checkpoints and savepoints is matched by them. */
    public static final String SOURCE_UID = "kafka-source";

    public static final String FILE_SOURCE_UID = "file-source";

    public static final String PARSE_UID = "batch-and-parse";
    public static final String WINDOW_PARSE_UID = "window-batch-and-parse";
    public static final String FEATURE_TIME_UID = "feature-event-time";
    public static final String DLQ_SINK_UID = "dead-letter-sink";
    public static final String RECORDS_SINK_UID = "records-sink";
    public static final String SKEW_GUARD_UID = "bucket-skew-guard";
    public static final String LATE_BUCKET_GUARD_UID = "late-bucket-guard";
    public static final String SHARD_SINK_UID = "shard-sink";
    public static final String BATCHES_SINK_UID = "batches-sink";

    private TfstreamPipeline() {}

    /** The accepted-records stream (event time as record timestamps) of the built job. */
    public static DataStream<SourceRecord> build(
            StreamExecutionEnvironment env, JobConfig config, JobSchema schema) {
        env.enableCheckpointing(
                config.get(JobOptions.CHECKPOINT_INTERVAL).toMillis(),
                CheckpointingMode.EXACTLY_ONCE);
        int parallelism = config.get(JobOptions.PARALLELISM);
        if (parallelism > 0) {
            env.setParallelism(parallelism);
        }
        boolean kafkaTime =
                config.get(JobOptions.EVENT_TIME_SOURCE)
                        == JobOptions.EventTimeSource.KAFKA_TIMESTAMP;
        WatermarkStrategy<SourceRecord> sourceWatermarks =
                kafkaTime ? watermarks(config) : WatermarkStrategy.noWatermarks();
        DataStream<SourceRecord> raw =
                config.get(JobOptions.SOURCE_TYPE) == JobOptions.SourceType.FILES
                        ? env.fromSource(
                                        fileSource(config),
                                        // A file record's timestamp: the file's modification time.
                                        sourceWatermarks.withTimestampAssigner(
                                                (r, previous) -> r.timestamp()),
                                        "file-source")
                                .uid(FILE_SOURCE_UID)
                        : env.fromSource(source(config), sourceWatermarks, "kafka-source")
                                .uid(SOURCE_UID);
        // Chained to the source (the default chaining strategy, checked by a test).
        boolean windows =
                config.get(JobOptions.BATCH_MODE) == JobOptions.BatchMode.EVENT_TIME_WINDOW;
        BatchKeySelector keys = windows ? batchKey(config, schema) : null;
        boolean validation = config.get(JobOptions.VALIDATION_ENABLED);
        ParseSettings parse = parseSettings(config, schema);
        ValidationSettings validationSettings = null;
        if (validation) {
            validationSettings =
                    ValidationStage.settings(
                            config, schema, parseLimits(config), env.getParallelism());
            parse =
                    parse.withValidation(
                            validationSettings,
                            config.get(JobOptions.EVENT_TIME_OUT_OF_ORDERNESS).toMillis());
        }
        SingleOutputStreamOperator<SourceRecord> accepted =
                windows
                        ? raw.keyBy(keys, Types.STRING)
                                .transform(
                                        "window-batch-and-parse",
                                        SourceRecordSerializer.typeInfo(),
                                        new WindowBatchParseOperator(
                                                parse, windowSettings(config), keys))
                                .uid(WINDOW_PARSE_UID)
                        : raw.transform(
                                        "batch-and-parse",
                                        SourceRecordSerializer.typeInfo(),
                                        new BatchParseOperator(parse))
                                .uid(PARSE_UID);
        DataStream<DeadLetter> deadLetters = accepted.getSideOutput(DeadLetterOutput.TAG);
        if (config.contains(JobOptions.OUTPUT_BATCHES_TOPIC)) {
            Properties producer = config.outputProperties();
            long message = config.batchesMaxMessageBytes();
            producer.setProperty("max.request.size", Long.toString(message));
            long buffer =
                    Long.parseLong(producer.getProperty("buffer.memory", Long.toString(32L << 20)));
            if (buffer < 2 * message) {
                producer.setProperty("buffer.memory", Long.toString(2 * message));
            }
            accepted.getSideOutput(BatchParseOperator.TENSOR_BATCHES)
                    .sinkTo(
                            sink(
                                    config,
                                    producer,
                                    new TensorBatchSerializationSchema(
                                            config.get(JobOptions.OUTPUT_BATCHES_TOPIC),
                                            TensorBatchSerializationSchema.KeyMode.valueOf(
                                                    config.get(JobOptions.OUTPUT_BATCHES_KEY)
                                                            .name())),
                                    config.get(JobOptions.JOB_NAME) + "-batches"))
                    .name("batches-sink")
                    .uid(BATCHES_SINK_UID);
        }
        DataStream<SourceRecord> timed =
                kafkaTime
                        ? accepted
                        : accepted.assignTimestampsAndWatermarks(watermarks(config))
                                .name("feature-event-time")
                                .uid(FEATURE_TIME_UID);
        if (validation) {
            ValidationStage.apply(accepted, config, validationSettings, kafkaTime);
        }
        boolean shards = config.contains(JobOptions.SHARDS_PATH);
        Optional<Duration> maxSkew = config.maxBucketSkew();
        if (shards && maxSkew.isPresent()) {
            // With processing_time the guard only counts: the bucket assigner re-buckets.
            boolean deadLetter =
                    config.get(JobOptions.SHARDS_SKEW_ACTION) == JobOptions.SkewAction.DEAD_LETTER;
            SingleOutputStreamOperator<SourceRecord> guarded =
                    timed.process(
                                    new BucketSkewGuard(
                                            maxSkew.get(),
                                            deadLetter
                                                    ? BucketSkewGuard.Action.DEAD_LETTER
                                                    : BucketSkewGuard.Action.PASS_THROUGH))
                            .returns(SourceRecordSerializer.typeInfo())
                            .name("bucket-skew-guard")
                            .uid(SKEW_GUARD_UID);
            if (deadLetter) {
                deadLetters = deadLetters.union(guarded.getSideOutput(DeadLetterOutput.TAG));
            }
            timed = guarded;
        }
        if (shards && config.get(JobOptions.SHARDS_SUCCESS_MARKERS)) {
            boolean deadLetter =
                    config.get(JobOptions.SHARDS_LATE_RECORDS)
                            == JobOptions.LateBucketAction.DEAD_LETTER;
            SingleOutputStreamOperator<SourceRecord> guarded =
                    timed.process(
                                    new LateBucketGuard(
                                            config.get(JobOptions.SHARDS_BUCKET_PATTERN),
                                            ZoneId.of(config.get(JobOptions.SHARDS_ZONE)),
                                            config.get(JobOptions.SHARDS_SUCCESS_DELAY),
                                            deadLetter
                                                    ? LateBucketGuard.Action.DEAD_LETTER
                                                    : LateBucketGuard.Action.WRITE))
                            .returns(SourceRecordSerializer.typeInfo())
                            .name("late-bucket-guard")
                            .uid(LATE_BUCKET_GUARD_UID);
            if (deadLetter) {
                deadLetters = deadLetters.union(guarded.getSideOutput(DeadLetterOutput.TAG));
            }
            timed = guarded;
        }
        String job = config.get(JobOptions.JOB_NAME);
        deadLetters
                .sinkTo(
                        sink(
                                config,
                                new DeadLetterSerializationSchema(
                                        config.get(JobOptions.DLQ_TOPIC),
                                        schema.fingerprint(),
                                        config.get(JobOptions.DLQ_MAX_ERROR_BYTES)),
                                job + "-dlq"))
                .name("dead-letter-sink")
                .uid(DLQ_SINK_UID);
        if (shards) {
            timed.sinkTo(new TfRecordShardSink(shardSettings(config, schema.fingerprint())))
                    .name("shard-sink")
                    .uid(SHARD_SINK_UID);
        }
        if (config.contains(JobOptions.OUTPUT_RECORDS_TOPIC)) {
            timed.sinkTo(
                            sink(
                                    config,
                                    new AcceptedRecordSerializationSchema(
                                            config.get(JobOptions.OUTPUT_RECORDS_TOPIC)),
                                    job + "-records"))
                    .name("records-sink")
                    .uid(RECORDS_SINK_UID);
        }
        return timed;
    }

    static KafkaSource<SourceRecord> source(JobConfig config) {
        KafkaSourceBuilder<SourceRecord> b =
                KafkaSource.<SourceRecord>builder()
                        .setBootstrapServers(config.get(JobOptions.SOURCE_BOOTSTRAP_SERVERS))
                        .setGroupId(config.get(JobOptions.SOURCE_GROUP_ID))
                        .setStartingOffsets(
                                StartingOffsets.parse(
                                        config.get(JobOptions.SOURCE_STARTING_OFFSETS)))
                        .setDeserializer(new SourceRecordDeserializer());
        if (config.get(JobOptions.SOURCE_STOPPING_OFFSETS) == JobOptions.StoppingOffsets.LATEST) {
            b.setBounded(
                    org.apache.flink.connector.kafka.source.enumerator.initializer
                            .OffsetsInitializer.latest());
        }
        Properties p = config.sourceProperties();
        // Inputs written by exactly-once producers: never read aborted transactions.
        p.putIfAbsent("isolation.level", "read_committed");
        b.setProperties(p);
        if (config.contains(JobOptions.SOURCE_TOPICS)) {
            b.setTopics(config.get(JobOptions.SOURCE_TOPICS));
        } else {
            b.setTopicPattern(Pattern.compile(config.get(JobOptions.SOURCE_TOPIC_PATTERN)));
        }
        return b.build();
    }

    static WindowSettings windowSettings(JobConfig config) {
        return new WindowSettings(
                config.get(JobOptions.BATCH_WINDOW).toMillis(),
                config.get(JobOptions.BATCH_ALLOWED_LATENESS).toMillis(),
                config.get(JobOptions.BATCH_LATE_RECORDS) == JobOptions.LateRecords.DLQ,
                config.get(JobOptions.BATCH_WINDOW_MAX_BUFFERED_BYTES).getBytes());
    }

    /** The grouping key of window batches ({@code batch.key}). */
    static BatchKeySelector batchKey(JobConfig config, JobSchema schema) {
        String key = config.get(JobOptions.BATCH_KEY);
        if (key.equals("kafka_key")) {
            return BatchKeySelector.kafkaKey();
        }
        if (key.equals("source_partition")) {
            return BatchKeySelector.sourcePartition();
        }
        try {
            return BatchKeySelector.feature(key.substring("feature:".length()), schema.spec());
        } catch (IllegalArgumentException e) {
            throw new JobSchemaRejectedException("batch.key " + key + ": " + e.getMessage(), e);
        }
    }

    /** The TFRecord file source of {@code source.type: files}. */
    static FileSource<SourceRecord> fileSource(JobConfig config) {
        FilePaths paths = FilePaths.of(config.get(JobOptions.SOURCE_FILES_PATHS));
        TfRecordFileFormat format =
                new TfRecordFileFormat(
                        config.get(JobOptions.SOURCE_FILES_ON_CORRUPTION)
                                        == JobOptions.OnCorruption.FAIL
                                ? TfRecordFileFormat.OnCorruption.FAIL
                                : TfRecordFileFormat.OnCorruption.DEAD_LETTER,
                        // Longer records are the parser's to refuse (limit_exceeded), not damage.
                        (int)
                                Math.max(
                                        config.get(JobOptions.MAX_RECORD_BYTES).getBytes(),
                                        TfRecordReadOptions.DEFAULT_MAX_RECORD_LENGTH),
                        CORRUPT_BYTES_KEPT);
        FileSource.FileSourceBuilder<SourceRecord> b =
                FileSource.forBulkFileFormat(format, paths.bases())
                        .setFileEnumerator(paths.enumerator());
        if (config.get(JobOptions.SOURCE_FILES_MODE) == JobOptions.FilesMode.CONTINUOUS) {
            b.monitorContinuously(config.get(JobOptions.SOURCE_FILES_DISCOVERY_INTERVAL));
        }
        return b.build();
    }

    /** Bytes of a damaged file region its dead-letter record carries. */
    static final int CORRUPT_BYTES_KEPT = 64 << 10;

    static WatermarkStrategy<SourceRecord> watermarks(JobConfig config) {
        WatermarkStrategy<SourceRecord> w =
                WatermarkStrategy.forBoundedOutOfOrderness(
                        config.get(JobOptions.EVENT_TIME_OUT_OF_ORDERNESS));
        Duration idle = config.get(JobOptions.EVENT_TIME_IDLENESS);
        return idle.isZero() ? w : w.withIdleness(idle);
    }

    static ParseLimits parseLimits(JobConfig config) {
        return new ParseLimits(
                (int) config.get(JobOptions.MAX_RECORD_BYTES).getBytes(),
                config.get(JobOptions.MAX_VALUES_PER_FEATURE),
                config.get(JobOptions.MAX_FEATURES_PER_EXAMPLE),
                (int) config.get(JobOptions.MAX_BYTES_PER_VALUE).getBytes(),
                config.get(JobOptions.MAX_RAGGED_ROWS));
    }

    static ParseSettings parseSettings(JobConfig config, JobSchema schema) {
        ParseLimits limits = parseLimits(config);
        BatchTriggers triggers =
                new BatchTriggers(
                        config.get(JobOptions.BATCH_MAX_RECORDS),
                        config.get(JobOptions.BATCH_MAX_BYTES).getBytes(),
                        config.get(JobOptions.BATCH_MAX_DELAY));
        EventTimeSettings eventTime =
                config.get(JobOptions.EVENT_TIME_SOURCE) == JobOptions.EventTimeSource.FEATURE
                        ? EventTimeSettings.feature(
                                config.get(JobOptions.EVENT_TIME_FEATURE),
                                config.get(JobOptions.EVENT_TIME_UNIT)
                                                == JobOptions.EventTimeUnit.SECONDS
                                        ? EventTimeSettings.Unit.SECONDS
                                        : EventTimeSettings.Unit.MILLIS)
                        : EventTimeSettings.kafkaTimestamp();
        DeadLetterGuard guard =
                new DeadLetterGuard(
                        config.get(JobOptions.DLQ_MAX_FRACTION),
                        config.get(JobOptions.DLQ_WINDOW),
                        config.get(JobOptions.DLQ_MIN_RECORDS));
        ParseSettings settings =
                new ParseSettings(
                        schema.bytes(),
                        schema.fileName(),
                        config.get(JobOptions.SCHEMA_LEGACY_DEFAULTS),
                        limits,
                        triggers,
                        eventTime,
                        guard);
        return config.contains(JobOptions.OUTPUT_BATCHES_TOPIC)
                ? settings.withTensorBatches(schema.fingerprint(), config.batchesMaxPayloadBytes())
                : settings;
    }

    static ShardSettings shardSettings(JobConfig config, String schemaFingerprint) {
        long interval = config.get(JobOptions.CHECKPOINT_INTERVAL).toMillis();
        long maxAge = config.get(JobOptions.SHARDS_MAX_AGE).toMillis();
        int checkpoints =
                (int) Math.max(1, Math.min(Integer.MAX_VALUE, (maxAge + interval - 1) / interval));
        return new ShardSettings(
                config.get(JobOptions.SHARDS_PATH),
                Compression.valueOf(config.get(JobOptions.SHARDS_COMPRESSION).name()),
                config.get(JobOptions.SHARDS_PREFIX),
                config.get(JobOptions.SHARDS_TARGET_SIZE).getBytes(),
                checkpoints,
                config.get(JobOptions.SHARDS_BUCKET_PATTERN),
                ZoneId.of(config.get(JobOptions.SHARDS_ZONE)),
                config.get(JobOptions.SHARDS_SKEW_ACTION) == JobOptions.SkewAction.PROCESSING_TIME
                        ? config.maxBucketSkew().orElse(null)
                        : null,
                config.get(JobOptions.SHARDS_MANIFESTS),
                schemaFingerprint,
                config.get(JobOptions.SHARDS_SUCCESS_MARKERS),
                config.get(JobOptions.SHARDS_SUCCESS_DELAY));
    }

    /** An exactly-once Kafka sink with its own transactional-id prefix. */
    static <T> KafkaSink<T> sink(
            JobConfig config,
            KafkaRecordSerializationSchema<T> schema,
            String transactionalIdPrefix) {
        return sink(config, config.outputProperties(), schema, transactionalIdPrefix);
    }

    /** An exactly-once Kafka sink with producer properties {@code p}. */
    static <T> KafkaSink<T> sink(
            JobConfig config,
            Properties p,
            KafkaRecordSerializationSchema<T> schema,
            String transactionalIdPrefix) {
        p.setProperty(
                "transaction.timeout.ms",
                Long.toString(config.get(JobOptions.OUTPUT_TRANSACTION_TIMEOUT).toMillis()));
        return KafkaSink.<T>builder()
                .setBootstrapServers(config.outputBootstrapServers())
                .setKafkaProducerConfig(p)
                .setRecordSerializer(schema)
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix(transactionalIdPrefix)
                .build();
    }
}
