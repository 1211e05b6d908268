package io.tfstream.job;

import io.tfstream.api.TfstreamParse;
import io.tfstream.api.TfstreamParseBuilder;
import io.tfstream.api.model.BatchKeySelector;
import io.tfstream.api.model.DeadLetterGuard;
import io.tfstream.api.model.EventTimeSettings;
import io.tfstream.api.model.WindowSettings;
import io.tfstream.api.options.BatchOptions;
import io.tfstream.api.options.SchemaOptions;
import io.tfstream.convert.InputFormat;
import io.tfstream.operators.parse.ParseSettings;
import io.tfstream.parse.ParseLimits;
import java.time.Duration;
import java.util.Locale;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.ConfigOption;

/**
 * The options of parse and batching: {@code schema.*}, {@code parse.*} limits, {@code event-time.*}
 * and {@code batch.*} (count batches or event-time windows), checked and turned into the
 * batch-and-parse operators' {@link ParseSettings} and {@link WindowSettings}.
 */
final class ParseConfig {
    private static final String FEATURE_KEY = "feature:";

    private final JobConfig c;

    ParseConfig(JobConfig c) {
        this.c = c;
        if (c.contains(JobOptions.SCHEMA_PATH) == c.contains(JobOptions.SPEC_PATH)) {
            throw new JobConfigException("set exactly one of schema.path and spec.path");
        }
        if (!kafkaTime() && !c.contains(JobOptions.EVENT_TIME_FEATURE)) {
            throw new JobConfigException(
                    "event-time.source: feature needs event-time.feature (an int64 feature)");
        }
        if (schemaUpdates()) {
            if (windows() && c.get(JobOptions.SOURCE_FORMAT) != InputFormat.EXAMPLE) {
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
        String key = c.get(JobOptions.BATCH_KEY);
        if (kind(key) == null) {
            throw OptionChecks.invalid(
                    key, "batch.key", "kafka_key, source_partition or feature:<name>");
        }
    }

    /** The kind of {@code batch.key}, or null when it is none. */
    private static BatchKeySelector.Kind kind(String key) {
        if (key.startsWith(FEATURE_KEY)) {
            return key.length() > FEATURE_KEY.length() ? BatchKeySelector.Kind.FEATURE : null;
        }
        for (BatchKeySelector.Kind k : BatchKeySelector.Kind.values()) {
            if (k != BatchKeySelector.Kind.FEATURE
                    && k.name().toLowerCase(Locale.ROOT).equals(key)) {
                return k;
            }
        }
        return null;
    }

    /** Whether the schema file is watched and taken up while the job runs. */
    boolean schemaUpdates() {
        return c.get(JobOptions.SCHEMA_UPDATE) == SchemaOptions.Update.POLL;
    }

    /** Whether event time is the Kafka timestamp (known at the source) rather than a feature. */
    boolean kafkaTime() {
        return c.get(JobOptions.EVENT_TIME_SOURCE) == EventTimeSettings.Source.KAFKA_TIMESTAMP;
    }

    /** Whether batches are event-time windows per key rather than count batches per subtask. */
    boolean windows() {
        return c.get(JobOptions.BATCH_MODE) == BatchOptions.Mode.EVENT_TIME_WINDOW;
    }

    /** The job's one watermark strategy: bounded out-of-orderness, idle inputs released. */
    <T> WatermarkStrategy<T> watermarks() {
        WatermarkStrategy<T> w =
                WatermarkStrategy.forBoundedOutOfOrderness(
                        c.get(JobOptions.EVENT_TIME_OUT_OF_ORDERNESS));
        Duration idle = c.get(JobOptions.EVENT_TIME_IDLENESS);
        return idle.isZero() ? w : w.withIdleness(idle);
    }

    ParseLimits limits() {
        return new ParseLimits(
                (int) c.get(JobOptions.MAX_RECORD_BYTES).getBytes(),
                c.get(JobOptions.MAX_VALUES_PER_FEATURE),
                c.get(JobOptions.MAX_FEATURES_PER_EXAMPLE),
                (int) c.get(JobOptions.MAX_BYTES_PER_VALUE).getBytes(),
                c.get(JobOptions.MAX_RAGGED_ROWS));
    }

    /**
     * The parse of {@code schema} with the dead-letter circuit breaker {@code guard}, as the
     * library's builder (the pipeline adds payloads, validation and windows).
     */
    TfstreamParseBuilder builder(JobSchema schema, DeadLetterGuard guard) {
        EventTimeSettings eventTime =
                kafkaTime()
                        ? EventTimeSettings.kafkaTimestamp()
                        : EventTimeSettings.feature(
                                c.get(JobOptions.EVENT_TIME_FEATURE),
                                c.get(JobOptions.EVENT_TIME_UNIT));
        TfstreamParseBuilder b = TfstreamParse.builder();
        if (schemaUpdates()) {
            b.setSchemaUpdates(
                    c.get(
                            c.contains(JobOptions.SCHEMA_PATH)
                                    ? JobOptions.SCHEMA_PATH
                                    : JobOptions.SPEC_PATH),
                    c.get(JobOptions.SCHEMA_POLL_INTERVAL),
                    c.get(JobOptions.SCHEMA_COMPATIBILITY));
        }
        if (c.contains(JobOptions.SHARDS_PATH) && c.get(JobOptions.SHARDS_SCHEMA_COPIES)) {
            b.setSchemaCopies(c.get(JobOptions.SHARDS_PATH));
        }
        return b.setSchema(schema.bytes(), schema.fileName())
                .setLegacyDefaults(c.get(JobOptions.SCHEMA_LEGACY_DEFAULTS))
                .setLimits(limits())
                .setMaxRecords(c.get(JobOptions.BATCH_MAX_RECORDS))
                .setMaxBytes(c.get(JobOptions.BATCH_MAX_BYTES).getBytes())
                .setMaxDelay(c.get(JobOptions.BATCH_MAX_DELAY))
                .setEventTime(eventTime)
                .setDeadLetterGuard(guard);
    }

    WindowSettings windowSettings() {
        return new WindowSettings(
                c.get(JobOptions.BATCH_WINDOW).toMillis(),
                c.get(JobOptions.BATCH_ALLOWED_LATENESS).toMillis(),
                c.get(JobOptions.BATCH_LATE_RECORDS),
                c.get(JobOptions.BATCH_WINDOW_MAX_BUFFERED_BYTES).getBytes());
    }

    /** The grouping key of window batches ({@code batch.key}). */
    BatchKeySelector batchKey(JobSchema schema) {
        String key = c.get(JobOptions.BATCH_KEY);
        switch (kind(key)) {
            case KAFKA_KEY:
                return BatchKeySelector.kafkaKey();
            case SOURCE_PARTITION:
                return BatchKeySelector.sourcePartition();
            default:
                try {
                    return BatchKeySelector.feature(
                            key.substring(FEATURE_KEY.length()), schema.spec());
                } catch (IllegalArgumentException e) {
                    ConfigOption<String> file =
                            c.contains(JobOptions.SCHEMA_PATH)
                                    ? JobOptions.SCHEMA_PATH
                                    : JobOptions.SPEC_PATH;
                    throw new JobSchemaRejectedException(
                            "batch.key "
                                    + key
                                    + ": "
                                    + e.getMessage()
                                    + " of "
                                    + file.key()
                                    + " "
                                    + c.get(file),
                            e);
                }
        }
    }
}
