package io.tfstream.job;

import io.tfstream.api.TfstreamParse;
import io.tfstream.api.TfstreamParseBuilder;
import io.tfstream.api.model.EventTimeSettings;
import io.tfstream.api.options.BatchOptions;
import io.tfstream.api.options.EventTimeOptions;
import io.tfstream.api.options.ParseOptions;
import io.tfstream.api.options.SchemaOptions;
import io.tfstream.parse.ParseLimits;
import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.ConfigOption;

/**
 * The options of parse and batching: {@code schema.*}, {@code parse.*} limits, {@code event-time.*}
 * and {@code batch.*} (count batches or event-time windows), checked and turned into the library's
 * parse builder.
 */
final class ParseConfig {
    private final JobConfig c;
    // parse.*, schema.*, batch.*, event-time.*
    private final StageView v;

    ParseConfig(JobConfig c) {
        this.c = c;
        this.v =
                c.view(
                        JobOptionStage.PARSE,
                        JobOptionStage.SCHEMA,
                        JobOptionStage.BATCH,
                        JobOptionStage.EVENT_TIME);
        if (c.contains(JobOptions.SCHEMA_PATH) == c.contains(JobOptions.SPEC_PATH)) {
            throw new JobConfigException("set exactly one of schema.path and spec.path");
        }
        if (!kafkaTime() && !v.has(EventTimeOptions.FEATURE)) {
            throw new JobConfigException(
                    "event-time.source: feature needs event-time.feature (an int64 feature)");
        }
        if (schemaUpdates()) {
            if (windows() && c.convert().enabled()) {
                // Windows are keyed before the parse, so records would be converted with the
                // schema the job started with: silently wrong after a change.
                throw new JobConfigException(
                        "schema.update: poll with source.format json or avro needs count batches"
                                + " (batch.mode count): event-time windows would convert records"
                                + " with the schema the job started with");
            }
        }
        if (windows()) {
            checkWindows();
        }
    }

    private void checkWindows() {
        if (!kafkaTime()) {
            throw new JobConfigException(
                    "batch.mode event_time_window needs event-time.source kafka_timestamp (the"
                            + " window of a record must be known before it is parsed)");
        }
    }

    /** Whether the schema file is watched and taken up while the job runs. */
    boolean schemaUpdates() {
        return v.get(SchemaOptions.UPDATE) == SchemaOptions.Update.POLL;
    }

    /** Whether event time is the Kafka timestamp (known at the source) rather than a feature. */
    boolean kafkaTime() {
        return v.get(EventTimeOptions.SOURCE) == EventTimeSettings.Source.KAFKA_TIMESTAMP;
    }

    /** Whether batches are event-time windows per key rather than count batches per subtask. */
    boolean windows() {
        return v.get(BatchOptions.MODE) == BatchOptions.Mode.EVENT_TIME_WINDOW;
    }

    /** The job's one watermark strategy: bounded out-of-orderness, idle inputs released. */
    <T> WatermarkStrategy<T> watermarks() {
        WatermarkStrategy<T> w = WatermarkStrategy.forBoundedOutOfOrderness(outOfOrderness());
        Duration idle = v.get(EventTimeOptions.IDLENESS);
        return idle.isZero() ? w : w.withIdleness(idle);
    }

    /** Whether fixed-length features without a default take TF's legacy zero default. */
    boolean legacyDefaults() {
        return v.get(SchemaOptions.LEGACY_DEFAULTS);
    }

    /** Whether the records are SequenceExamples ({@code schema.kind}). */
    boolean sequenceExamples() {
        return v.get(SchemaOptions.KIND) == SchemaOptions.Kind.SEQUENCE_EXAMPLE;
    }

    /** {@code event-time.feature}, or null. */
    String eventTimeFeature() {
        return v.orNull(EventTimeOptions.FEATURE);
    }

    /** How far behind the largest event time the watermark trails. */
    Duration outOfOrderness() {
        return v.get(EventTimeOptions.OUT_OF_ORDERNESS);
    }

    ParseLimits limits() {
        return ParseOptions.limits(v, "");
    }

    /**
     * The parse of {@code schema} as the library's builder takes it from the options (the pipeline
     * adds payloads, conversion, validation and uids).
     */
    TfstreamParseBuilder builder(JobSchema schema) {
        TfstreamParseBuilder b =
                TfstreamParse.builder().fromConfig(v).setDeadLetterGuard(c.deadLetters().guard());
        if (schemaUpdates()) {
            b.setSchemaUpdates(
                    c.get(c.schemaFileOption()),
                    v.get(SchemaOptions.POLL_INTERVAL),
                    v.get(SchemaOptions.COMPATIBILITY));
        }
        if (c.shards().enabled() && c.shards().schemaCopies()) {
            b.setSchemaCopies(c.shards().path());
        }
        return b.setSchema(schema.bytes(), schema.fileName());
    }

    /**
     * {@code parse} built; a {@code batch.key} feature the schema does not have refuses the schema
     * naming both.
     */
    TfstreamParse build(TfstreamParseBuilder parse) {
        try {
            return parse.build();
        } catch (IllegalArgumentException e) {
            if (e.getMessage() == null || !e.getMessage().startsWith("batchKey ")) {
                throw e;
            }
            ConfigOption<String> file = c.schemaFileOption();
            throw new JobSchemaRejectedException(
                    "batch.key "
                            + e.getMessage().substring("batchKey ".length())
                            + " of "
                            + file.key()
                            + " "
                            + c.get(file),
                    e);
        }
    }
}
