package io.tfstream.local;

import io.tfstream.api.options.BatchOptions;
import io.tfstream.api.options.DeadLetterOptions;
import io.tfstream.api.options.FileSourceOptions;
import io.tfstream.api.options.KafkaSinkOptions;
import io.tfstream.api.options.KafkaSourceOptions;
import io.tfstream.api.options.PayloadOptions;
import io.tfstream.api.options.SchemaOptions;
import io.tfstream.api.options.ShardOptions;
import io.tfstream.api.options.SourceFormatOptions;
import io.tfstream.api.options.ValidationOptions;
import io.tfstream.job.JobConfig;
import io.tfstream.job.JobConfigException;
import io.tfstream.job.JobConfigFiles;
import io.tfstream.job.JobOptionStage;
import io.tfstream.job.JobOptions;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.spec.SpecSource;
import io.tfstream.spec.schema.FixedLenDefaults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;

/**
 * The job's settings in local mode, in three layers: the options the run owns (broker, topics,
 * schema, shards path, parallelism: set from its command line, refused in {@code --config} and
 * {@code --set}), local defaults (short checkpoint interval and batch delay, ...), then {@code
 * --config} and {@code --set}. Every setting names its {@link JobOptions} constant, so the owned
 * keys are exactly those the run sets or excludes.
 */
final class LocalJobSettings {
    private final LocalOptions o;
    private final Path schemaFile;
    private final Path avroSchema;
    private final Path shardsDir;
    private final String runId;

    /**
     * @param schemaFile the schema or spec the job reads
     * @param shardsDir where shards go unless they go to S3
     * @param runId names the run's prefix on S3
     */
    LocalJobSettings(LocalOptions o, Path schemaFile, Path shardsDir, String runId) {
        this(o, schemaFile, shardsDir, runId, null);
    }

    /**
     * With {@code --input-format avro}, {@code avroSchema} is the input file's writer schema
     * written out as {@code .avsc}: the job's {@code source.avro.schema-path}.
     */
    LocalJobSettings(
            LocalOptions o, Path schemaFile, Path shardsDir, String runId, Path avroSchema) {
        this.avroSchema = avroSchema;
        this.o = o;
        this.schemaFile = schemaFile;
        this.shardsDir = shardsDir;
        this.runId = runId;
    }

    /** The schema or spec file the job reads (and, with {@code --next-schema}, watches). */
    Path schemaFile() {
        return schemaFile;
    }

    /**
     * The job's configuration reading {@code topics} on {@code bootstrap}, with shards on {@code
     * s3} (null: under the shards directory); a refused or invalid setting is a {@link
     * LocalRun.UsageException}.
     */
    JobConfig config(LocalBroker broker, LocalTopics topics, LocalOptions.S3Target s3) {
        Layers m = new Layers();
        m.fallback(JobOptions.JOB_NAME, "tfstream-local");
        m.own(JobOptions.PARALLELISM, o.parallelism());
        m.fallback(JobOptions.CHECKPOINT_INTERVAL, "1 s");
        m.own(JobOptionStage.SOURCE, KafkaSourceOptions.BOOTSTRAP_SERVERS, broker.bootstrap());
        broker.jobSettings()
                .forEach(
                        (k, v) -> {
                            m.fallback(JobOptions.SOURCE_PROPERTIES_PREFIX + k, v);
                            m.fallback(JobOptions.OUTPUT_PROPERTIES_PREFIX + k, v);
                        });
        m.exclude(JobOptionStage.SOURCE, KafkaSourceOptions.TOPIC_PATTERN);
        m.fallback(JobOptionStage.SOURCE, KafkaSourceOptions.STARTING_OFFSETS, "earliest");
        m.fallback(JobOptionStage.SOURCE, KafkaSourceOptions.GROUP_ID, "tfstream-local");
        if (o.nextSchema() != null) {
            // The run writes the next schema over the watched file while the job runs.
            m.own(JobOptionStage.SCHEMA, SchemaOptions.UPDATE, "poll");
            m.fallback(JobOptionStage.SCHEMA, SchemaOptions.POLL_INTERVAL, "100 ms");
        }
        if (o.files() == null) {
            m.own(JobOptionStage.SOURCE, KafkaSourceOptions.TOPICS, List.of(topics.input()));
            // With --next-schema the input is produced while the job runs, which the run stops.
            m.own(
                    JobOptionStage.SOURCE,
                    KafkaSourceOptions.STOPPING_OFFSETS,
                    o.nextSchema() != null ? "none" : "latest");
            m.exclude(JobOptions.SOURCE_TYPE);
            m.exclude(JobOptionStage.FILE_SOURCE, FileSourceOptions.PATHS);
        } else {
            m.exclude(JobOptionStage.SOURCE, KafkaSourceOptions.TOPICS);
            m.exclude(JobOptionStage.SOURCE, KafkaSourceOptions.STOPPING_OFFSETS);
            m.own(JobOptions.SOURCE_TYPE, "files");
            m.own(
                    JobOptionStage.FILE_SOURCE,
                    FileSourceOptions.PATHS,
                    List.of(o.files().toAbsolutePath().toUri().toString()));
            m.fallback(JobOptionStage.FILE_SOURCE, FileSourceOptions.MODE, "bounded");
        }
        m.own(
                JobOptionStage.CONVERT,
                SourceFormatOptions.FORMAT,
                o.inputFormat().name().toLowerCase(java.util.Locale.ROOT));
        if (avroSchema != null) {
            m.own(
                    JobOptionStage.CONVERT,
                    SourceFormatOptions.AVRO_SCHEMA_PATH,
                    avroSchema.toString());
        } else {
            m.exclude(JobOptionStage.CONVERT, SourceFormatOptions.AVRO_SCHEMA_PATH);
        }
        if (o.featureSpec() != null) {
            m.own(JobOptions.SPEC_PATH, schemaFile.toString());
            m.exclude(JobOptions.SCHEMA_PATH);
        } else {
            m.own(JobOptions.SCHEMA_PATH, schemaFile.toString());
            m.exclude(JobOptions.SPEC_PATH);
        }
        if (sequenceSchema(schemaFile)) {
            m.fallback(JobOptionStage.SCHEMA, SchemaOptions.KIND, "sequence_example");
        }
        m.own(JobOptionStage.DEAD_LETTERS, DeadLetterOptions.TOPIC, topics.dlq());
        m.own(JobOptionStage.KAFKA_SINKS, KafkaSinkOptions.RECORDS_TOPIC, topics.records());
        m.own(JobOptionStage.PAYLOADS, PayloadOptions.TOPIC, topics.batches());
        // Used when validation is on (--set validation.enabled=true).
        m.own(JobOptionStage.VALIDATION, ValidationOptions.ALERTS_TOPIC, topics.alerts());
        if (o.compression() != null) {
            m.fallback(
                    JobOptionStage.SHARDS,
                    ShardOptions.COMPRESSION,
                    o.compression().name().toLowerCase());
        }
        m.fallback(JobOptionStage.BATCH, BatchOptions.MAX_DELAY, "200 ms");
        m.fallback(JobOptionStage.KAFKA_SINKS, KafkaSinkOptions.TRANSACTION_TIMEOUT, "5 min");
        if (s3 == null) {
            m.own(JobOptionStage.SHARDS, ShardOptions.PATH, shardsDir.toUri().toString());
        } else {
            m.own(
                    JobOptionStage.SHARDS,
                    ShardOptions.PATH,
                    "s3://" + s3.bucket() + "/tfstream-local/" + runId);
            // S3 shards keep each open shard's unfinished part in the checkpoint: durable storage
            m.fallbackCheckpointDir(
                    shardsDir.resolveSibling("checkpoints").toAbsolutePath().toUri().toString());
            if (s3.endpoint() != null) {
                m.fallback(JobOptions.S3_ENDPOINT, s3.endpoint());
            }
            m.fallback(JobOptions.S3_PATH_STYLE_ACCESS, s3.pathStyle());
            if (s3.credentialsFile() != null) {
                m.fallback(JobOptions.S3_CREDENTIALS_FILE, s3.credentialsFile().toString());
            }
        }
        try {
            return JobConfig.of(m.with(JobConfigFiles.read(o.config(), o.sets())));
        } catch (JobConfigException e) {
            throw new LocalRun.UsageException(e.getMessage(), e);
        }
    }

    /** Whether the schema or spec file describes SequenceExamples; false when unreadable. */
    private static boolean sequenceSchema(Path file) {
        try {
            return SpecSource.parse(
                            Files.readAllBytes(file),
                            file.getFileName().toString(),
                            FixedLenDefaults.NONE)
                    instanceof SequenceFeatureSpecs;
        } catch (Exception e) {
            // JobSchema.load reports the problem with its own message.
            return false;
        }
    }

    /** Settings with the keys the run owns remembered. */
    private static final class Layers {
        private final Map<String, Object> values = new LinkedHashMap<>();
        private final Set<String> owned = new LinkedHashSet<>();
        private String checkpointDir;

        /** {@link #own} of a stage's option, under the stage's prefix. */
        void own(JobOptionStage stage, ConfigOption<?> option, Object value) {
            own(stage.option(option), value);
        }

        /** {@link #exclude} of a stage's option. */
        void exclude(JobOptionStage stage, ConfigOption<?> option) {
            exclude(stage.option(option));
        }

        /** {@link #fallback} of a stage's option. */
        void fallback(JobOptionStage stage, ConfigOption<?> option, Object value) {
            fallback(stage.option(option), value);
        }

        /** Set by the run; --config and --set may not touch it. */
        void own(ConfigOption<?> option, Object value) {
            owned.add(option.key());
            values.put(option.key(), value);
        }

        /** Left unset by the run, and not to be set by the user either: it would contradict it. */
        void exclude(ConfigOption<?> option) {
            owned.add(option.key());
        }

        /** The run's default; --config and --set win. */
        void fallback(ConfigOption<?> option, Object value) {
            fallback(option.key(), value);
        }

        /** The run's default of setting {@code key}; --config and --set win. */
        void fallback(String key, Object value) {
            values.put(key, value);
        }

        /** The checkpoint directory unless the user names one (under either of its keys). */
        void fallbackCheckpointDir(String dir) {
            checkpointDir = dir;
        }

        /** These settings with the user's over them; refuses a user setting of an owned key. */
        Map<String, Object> with(Map<String, Object> user) {
            for (String key : user.keySet()) {
                if (owned.contains(key)) {
                    throw new LocalRun.UsageException(
                            key
                                    + " is set by tfstream local itself (see its options:"
                                    + " --broker, --schema, --feature-spec, --parallelism, --s3);"
                                    + " remove it from --config/--set");
                }
            }
            Map<String, Object> all = new LinkedHashMap<>(values);
            String flinkDir = JobOptions.FLINK_PREFIX + JobOptions.FLINK_CHECKPOINT_DIR;
            if (checkpointDir != null
                    && !user.containsKey(flinkDir)
                    && !user.containsKey(JobOptions.CHECKPOINT_DIR.key())) {
                all.put(flinkDir, checkpointDir);
            }
            all.putAll(user);
            return all;
        }
    }
}
