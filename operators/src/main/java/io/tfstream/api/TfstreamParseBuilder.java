package io.tfstream.api;

import io.tfstream.api.model.BatchKeySelector;
import io.tfstream.api.model.DeadLetterGuard;
import io.tfstream.api.model.EventTimeSettings;
import io.tfstream.api.model.SchemaCompatibility;
import io.tfstream.api.model.WindowSettings;
import io.tfstream.api.options.BatchOptions;
import io.tfstream.api.options.DeadLetterOptions;
import io.tfstream.api.options.EventTimeOptions;
import io.tfstream.api.options.ParseOptions;
import io.tfstream.api.options.SchemaOptions;
import io.tfstream.operators.convert.ConvertSettings;
import io.tfstream.operators.parse.BatchTriggers;
import io.tfstream.operators.parse.ParseSettings;
import io.tfstream.operators.parse.SchemaUpdates;
import io.tfstream.operators.validation.ValidationSettings;
import io.tfstream.parse.ParseLimits;
import io.tfstream.spec.MalformedSpecFileException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Settings of a {@link TfstreamParse}. Only the schema is required; everything else has the
 * defaults of {@code tfstream run}. Setters only record; {@link #build()} checks every setting once
 * and names the one that is wrong.
 */
@PublicEvolving
public final class TfstreamParseBuilder {
    /** The uid (and name) of the count-batch parse operator by default. */
    public static final String DEFAULT_UID = "batch-and-parse";

    /** The uid (and name) of the window-batch parse operator by default. */
    public static final String DEFAULT_WINDOW_UID = "window-batch-and-parse";

    private byte[] schema;
    private String schemaFileName;
    private boolean legacyDefaults;
    private ParseLimits limits = ParseLimits.defaults();
    private int maxRecords = BatchTriggers.DEFAULT_MAX_RECORDS;
    private long maxBytes = BatchTriggers.DEFAULT_MAX_BYTES;
    private Duration maxDelay = BatchTriggers.DEFAULT_MAX_DELAY;
    private EventTimeSettings eventTime = EventTimeSettings.kafkaTimestamp();
    private DeadLetterGuard guard = DeadLetterGuard.off();
    private String tensorBatchFingerprint;
    private int maxPayloadBytes;
    private ValidationSettings validation;
    private Duration validationLag = Duration.ZERO;
    private SchemaUpdates schemaUpdates;
    private String schemaCopies;
    private ConvertSettings conversion;
    private boolean acceptedExamples = true;
    private WindowSettings windows;
    private BatchKeySelector windowKey;
    // batch.key as text (fromConfig), resolved against the schema by build()
    private String windowKeyText;
    private String uid;
    private String name;

    TfstreamParseBuilder() {}

    /**
     * The TFMD schema ({@code .pbtxt} text or binary {@code .pb}) or the SPEC.json / SEQSPEC.json
     * to parse with; {@code fileName} tells which (as {@code tfstream run}'s schema.path).
     */
    public TfstreamParseBuilder setSchema(byte[] content, String fileName) {
        this.schema = content == null ? null : content.clone();
        this.schemaFileName = fileName;
        return this;
    }

    /** The schema or spec file, read now. */
    public TfstreamParseBuilder setSchemaFile(Path file) {
        try {
            return setSchema(Files.readAllBytes(file), file.getFileName().toString());
        } catch (IOException e) {
            throw new UncheckedIOException("schema: cannot read " + file, e);
        }
    }

    /**
     * Takes the options of the parse set in {@code config}, keys relative to their stage and
     * checked as {@code tfstream run} checks them: the limits ({@link ParseOptions}), {@link
     * SchemaOptions#LEGACY_DEFAULTS}, the batches ({@link BatchOptions}: count triggers, or
     * event-time windows and their key, a {@code feature:<name>} key checked against the schema by
     * {@link #build()}), where event time comes from ({@link EventTimeOptions#SOURCE}, {@code
     * FEATURE}, {@code UNIT}): keys that do not collide. Unset options keep their values. Not
     * taken: the watermarks' {@code out-of-orderness} and {@code idleness} (given with the stream's
     * watermark strategy), schema updates, which need the schema file's path ({@link
     * #setSchemaUpdates}), and the dead-letter circuit breaker ({@link #setDeadLetterGuard} with
     * {@link DeadLetterOptions#guard}).
     *
     * @throws IllegalArgumentException naming the key of a value out of range
     */
    public TfstreamParseBuilder fromConfig(ReadableConfig config) {
        setLimits(ParseOptions.limits(config, ""));
        config.getOptional(SchemaOptions.LEGACY_DEFAULTS).ifPresent(this::setLegacyDefaults);
        BatchOptions.OPTIONS.checkAll(config, "");
        config.getOptional(BatchOptions.MAX_RECORDS).ifPresent(this::setMaxRecords);
        config.getOptional(BatchOptions.MAX_BYTES).ifPresent(m -> setMaxBytes(m.getBytes()));
        config.getOptional(BatchOptions.MAX_DELAY).ifPresent(this::setMaxDelay);
        config.getOptional(BatchOptions.MODE)
                .ifPresent(
                        mode -> {
                            if (mode == BatchOptions.Mode.EVENT_TIME_WINDOW) {
                                windows =
                                        WindowSettings.builder(config.get(BatchOptions.WINDOW))
                                                .setAllowedLateness(
                                                        config.get(BatchOptions.ALLOWED_LATENESS))
                                                .setLateRecords(
                                                        config.get(BatchOptions.LATE_RECORDS))
                                                .setMaxBufferedBytes(
                                                        config.get(
                                                                        BatchOptions
                                                                                .WINDOW_MAX_BUFFERED_BYTES)
                                                                .getBytes())
                                                .build();
                                windowKey = null;
                                windowKeyText = config.get(BatchOptions.KEY);
                            } else {
                                windows = null;
                            }
                        });
        EventTimeOptions.OPTIONS.checkAll(config, "");
        config.getOptional(EventTimeOptions.SOURCE)
                .ifPresent(
                        source ->
                                setEventTime(
                                        source == EventTimeSettings.Source.KAFKA_TIMESTAMP
                                                ? EventTimeSettings.kafkaTimestamp()
                                                : EventTimeSettings.feature(
                                                        config.get(EventTimeOptions.FEATURE),
                                                        config.get(EventTimeOptions.UNIT))));
        return this;
    }

    /** Fixed-length features without a default take TF's legacy zero default (default false). */
    public TfstreamParseBuilder setLegacyDefaults(boolean legacyDefaults) {
        this.legacyDefaults = legacyDefaults;
        return this;
    }

    /** Resource limits per record (default {@link ParseLimits#defaults()}). */
    public TfstreamParseBuilder setLimits(ParseLimits limits) {
        this.limits = limits;
        return this;
    }

    /** A batch closes at this many records (default 1024). */
    public TfstreamParseBuilder setMaxRecords(int maxRecords) {
        this.maxRecords = maxRecords;
        return this;
    }

    /** A batch closes at this many bytes of record values (default 8 MiB). */
    public TfstreamParseBuilder setMaxBytes(long maxBytes) {
        this.maxBytes = maxBytes;
        return this;
    }

    /** A batch closes this long (processing time) after its first record (default 200 ms). */
    public TfstreamParseBuilder setMaxDelay(Duration maxDelay) {
        this.maxDelay = maxDelay;
        return this;
    }

    /**
     * Where event time comes from (default: the record's timestamp, {@link
     * EventTimeSettings#kafkaTimestamp()}); {@link EventTimeSettings#feature} reads an int64
     * feature.
     */
    public TfstreamParseBuilder setEventTime(EventTimeSettings eventTime) {
        this.eventTime = eventTime;
        return this;
    }

    /** The circuit breaker on the dead-letter fraction (default off). */
    public TfstreamParseBuilder setDeadLetterGuard(DeadLetterGuard guard) {
        this.guard = guard;
        return this;
    }

    /**
     * Also emit each batch as an encoded {@code TensorBatch} ({@link ParseResult#batches()})
     * carrying {@code schemaFingerprint}, each message at most {@code maxPayloadBytes} (at least
     * 1024): larger batches are split by rows.
     */
    public TfstreamParseBuilder setTensorBatches(String schemaFingerprint, int maxPayloadBytes) {
        this.tensorBatchFingerprint = schemaFingerprint;
        this.maxPayloadBytes = maxPayloadBytes;
        return this;
    }

    /**
     * Validate every accepted row against the TFMD schema (docs/validation.md); {@code lag} is how
     * far behind the largest feature event time a validation window closes.
     */
    private TfstreamParseBuilder setValidation(ValidationSettings validation, Duration lag) {
        this.validation = validation;
        this.validationLag = lag;
        return this;
    }

    /**
     * Validate every accepted row as {@code validation} says; {@link TfstreamValidation#applyTo}
     * then evaluates the windows.
     */
    public TfstreamParseBuilder setValidation(TfstreamValidation validation) {
        if (validation == null) {
            return setValidation(null, Duration.ZERO);
        }
        return setValidation(validation.settings(), validation.lag());
    }

    /**
     * Watch {@code path} (a Flink file system path holding the same schema or spec file) every
     * {@code interval} and take up a changed schema at the next checkpoint, refusing with a {@code
     * SCHEMA} alert ({@link ParseResult#schemaAlerts()}) one that does not convert or fails {@code
     * compatibility} (docs/schema-changes.md). Not with validation.
     */
    public TfstreamParseBuilder setSchemaUpdates(
            String path, Duration interval, SchemaCompatibility compatibility) {
        require(path, "schemaUpdates path");
        require(interval, "schemaUpdates interval");
        require(compatibility, "schemaUpdates compatibility");
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException(
                    "schemaUpdates: interval must be positive, got " + interval);
        }
        this.schemaUpdates = SchemaUpdates.poll(path, interval, compatibility);
        return this;
    }

    /**
     * Write a copy of each TFMD schema in force (the configured one, and every one taken up with
     * {@link #setSchemaUpdates}) beside the shards under {@code shardsPath}, as {@code
     * _tfstream/_schemas/_<fingerprint>/_schema.pbtxt}; the shard sink names it in each manifest.
     * Not for a feature spec (SPEC.json), which is not a schema.
     */
    public TfstreamParseBuilder setSchemaCopies(String shardsPath) {
        require(shardsPath, "schemaCopies shardsPath");
        this.schemaCopies = shardsPath;
        return this;
    }

    /**
     * Decode JSON or Avro records straight into the parse, with the schema in force, instead of
     * converting them to Examples in a step of their own ({@code convert.applyTo}) before it (count
     * batches only): no Example is written for a record unless an output carries it, and with
     * {@link #setSchemaUpdates} a new schema the input cannot convert to is refused
     * (docs/schema-changes.md). {@code convert}'s uid and name are not used.
     */
    public TfstreamParseBuilder setConversion(TfstreamConvert convert) {
        require(convert, "conversion");
        this.conversion = convert.settings();
        return this;
    }

    /**
     * With {@link #setConversion}: whether each accepted record leaves with its Example as value
     * (default true: for shards, the records topic, or a step of yours), or keeps its JSON or Avro
     * bytes when nothing after the parse reads the records.
     */
    public TfstreamParseBuilder setAcceptedExamples(boolean examples) {
        this.acceptedExamples = examples;
        return this;
    }

    /**
     * Batches are keyed event-time windows instead of count batches per subtask; needs event time
     * from the record timestamp.
     */
    public TfstreamParseBuilder setEventTimeWindows(WindowSettings windows, BatchKeySelector key) {
        this.windows = windows;
        this.windowKey = key;
        this.windowKeyText = null;
        return this;
    }

    /** The operator's uid (default {@value #DEFAULT_UID} or {@value #DEFAULT_WINDOW_UID}). */
    public TfstreamParseBuilder setUid(String uid) {
        this.uid = uid;
        return this;
    }

    /** The operator's name in the web UI and logs (default: its uid). */
    public TfstreamParseBuilder setName(String name) {
        this.name = name;
        return this;
    }

    /**
     * The parse, every setting checked.
     *
     * @throws IllegalArgumentException naming the first wrong or missing setting
     */
    public TfstreamParse build() {
        if (schema == null || schemaFileName == null || schemaFileName.isEmpty()) {
            throw new IllegalArgumentException(
                    "schema is required: setSchema(content, fileName) or setSchemaFile(path)");
        }
        require(limits, "limits");
        require(eventTime, "eventTime");
        require(guard, "deadLetterGuard");
        BatchTriggers triggers = new BatchTriggers(maxRecords, maxBytes, maxDelay);
        ParseSettings settings =
                new ParseSettings(
                        schema, schemaFileName, legacyDefaults, limits, triggers, eventTime, guard);
        try {
            settings.spec();
        } catch (MalformedSpecFileException | RuntimeException e) {
            throw new IllegalArgumentException(
                    "schema " + schemaFileName + " is not usable: " + e.getMessage(), e);
        }
        if (tensorBatchFingerprint != null) {
            if (maxPayloadBytes < 1024) {
                throw new IllegalArgumentException(
                        "tensorBatches: maxPayloadBytes must be at least 1024, got "
                                + maxPayloadBytes);
            }
            settings = settings.withTensorBatches(tensorBatchFingerprint, maxPayloadBytes);
        }
        if (validation != null) {
            if (validationLag == null || validationLag.isNegative()) {
                throw new IllegalArgumentException(
                        "validation: lag must be zero or positive, got " + validationLag);
            }
            settings = settings.withValidation(validation, validationLag.toMillis());
        }
        if (schemaCopies != null) {
            settings = settings.withSchemaCopies(schemaCopies);
        }
        if (schemaUpdates != null) {
            // With validation on, records are checked against the schema in force and window
            // statistics are kept per fingerprint (WindowAlertFunction).
            settings = settings.withSchemaUpdates(schemaUpdates);
        }
        if (conversion != null) {
            if (windows != null) {
                throw new IllegalArgumentException(
                        "conversion inside the parse needs count batches; convert with"
                                + " TfstreamConvert before event-time windows");
            }
            settings = settings.withConversion(conversion, acceptedExamples);
        }
        BatchKeySelector key = windowKey;
        if (windows != null && key == null && windowKeyText != null) {
            try {
                key = BatchKeySelector.of(windowKeyText, settings.spec());
            } catch (MalformedSpecFileException | IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "batchKey " + windowKeyText + ": " + e.getMessage(), e);
            }
        }
        if (windows != null) {
            require(key, "eventTimeWindows key");
            if (eventTime.source() != EventTimeSettings.Source.KAFKA_TIMESTAMP) {
                throw new IllegalArgumentException(
                        "eventTimeWindows need event time from the record timestamp (the window"
                                + " of a record must be known before it is parsed)");
            }
        }
        if (uid != null && uid.isEmpty()) {
            throw new IllegalArgumentException("uid must not be empty");
        }
        String id = uid != null ? uid : windows != null ? DEFAULT_WINDOW_UID : DEFAULT_UID;
        return new TfstreamParse(settings, windows, key, id, name != null ? name : id);
    }

    private static void require(Object value, String setting) {
        if (value == null) {
            throw new IllegalArgumentException(setting + " must be set (it was set to null)");
        }
    }
}
