package io.tfstream.api;

import io.tfstream.api.model.EventTimeSettings;
import io.tfstream.api.model.StatisticsSettings;
import io.tfstream.api.model.ValidationActions;
import io.tfstream.api.options.EventTimeOptions;
import io.tfstream.api.options.ParseOptions;
import io.tfstream.api.options.SchemaOptions;
import io.tfstream.api.options.StatisticsOptions;
import io.tfstream.api.options.ValidationOptions;
import io.tfstream.operators.validation.ValidationSettings;
import io.tfstream.operators.validation.WindowPartial;
import io.tfstream.parse.ParseLimits;
import io.tfstream.validation.SchemaLintException;
import io.tfstream.validation.SeverityPolicy;
import io.tfstream.validation.ValidationSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Settings of a {@link TfstreamValidation}. Only the TFMD schema is required; everything else has
 * the defaults of {@code tfstream run}'s {@code validation.*} options, but for {@link #setSplits}
 * (default 1). Setters only record; {@link #build()} checks every setting once (the schema's lint
 * included) and names the one that is wrong.
 */
@PublicEvolving
public final class TfstreamValidationBuilder {
    /** The uid (and name) of the window evaluation by default. */
    public static final String DEFAULT_UID = "validation-windows";

    /** The uid (and name) of the window deltas' watermark assigner by default. */
    public static final String DEFAULT_PARTIALS_TIME_UID = "validation-partials-event-time";

    /** The uid (and name) of the window statistics' assembly by default. */
    public static final String DEFAULT_STATISTICS_UID = "validation-statistics";

    /** The job name in every alert id by default. */
    public static final String DEFAULT_JOB_NAME = "tfstream";

    /** The validation window by default. */
    public static final Duration DEFAULT_WINDOW =
            io.tfstream.api.options.ValidationOptions.WINDOW.defaultValue();

    private byte[] schema;
    private String schemaFileName;
    private boolean sequenceExample;
    private String environment;
    private Duration window = DEFAULT_WINDOW;
    private int splits = 1;
    private long minDriftExamples =
            io.tfstream.api.options.ValidationOptions.MIN_DRIFT_EXAMPLES.defaultValue();
    private ValidationActions actions = ValidationActions.passAll();
    private List<String> severityOverrides = List.of();
    private String jobName = DEFAULT_JOB_NAME;
    private ParseLimits limits = ParseLimits.defaults();
    private Duration lag = EventTimeOptions.OUT_OF_ORDERNESS.defaultValue();
    private boolean anomalies;
    private boolean statistics;
    private double statisticsEpsilon = StatisticsSettings.DEFAULT_EPSILON;
    private String statisticsUid = DEFAULT_STATISTICS_UID;
    private String statisticsSplits;
    private String statisticsSplitFeature;
    private String statisticsWeightFeature;
    private WatermarkStrategy<WindowPartial> partialsWatermarks;
    private String uid = DEFAULT_UID;
    private String partialsTimeUid = DEFAULT_PARTIALS_TIME_UID;

    TfstreamValidationBuilder() {}

    /** The TFMD schema ({@code .pbtxt} text or binary {@code .pb}) the rows are checked against. */
    public TfstreamValidationBuilder setSchema(byte[] content, String fileName) {
        this.schema = content == null ? null : content.clone();
        this.schemaFileName = fileName;
        return this;
    }

    /** The TFMD schema file, read now. */
    public TfstreamValidationBuilder setSchemaFile(Path file) {
        try {
            return setSchema(Files.readAllBytes(file), file.getFileName().toString());
        } catch (IOException e) {
            throw new UncheckedIOException("schema: cannot read " + file, e);
        }
    }

    /** Whether the records are {@code SequenceExample}s (default false: {@code Example}s). */
    public TfstreamValidationBuilder setSequenceExample(boolean sequenceExample) {
        this.sequenceExample = sequenceExample;
        return this;
    }

    /** The schema environment (TFDV's {@code environment}; default none). */
    public TfstreamValidationBuilder setEnvironment(String environment) {
        this.environment = environment;
        return this;
    }

    /** The event-time window of the statistics and alerts (default 1 min). */
    public TfstreamValidationBuilder setWindow(Duration window) {
        this.window = window;
        return this;
    }

    /**
     * Into how many feature-path splits the window evaluation is keyed (default 1); the job's
     * parallelism spreads it over every subtask. Kept across restores.
     */
    public TfstreamValidationBuilder setSplits(int splits) {
        this.splits = splits;
        return this;
    }

    /**
     * Fewest examples with a feature, in a window and the previous one, for drift (default 100).
     */
    public TfstreamValidationBuilder setMinDriftExamples(long minDriftExamples) {
        this.minDriftExamples = minDriftExamples;
        return this;
    }

    /**
     * What a record with a per-record anomaly does: pass, mark (a header) or divert (a dead
     * letter), by anomaly type (default: every record passes).
     */
    public TfstreamValidationBuilder setActions(ValidationActions actions) {
        this.actions = actions;
        return this;
    }

    /** TFDV's {@code severity_overrides} as {@code TYPE=SEVERITY} entries (default none). */
    public TfstreamValidationBuilder setSeverityOverrides(List<String> severityOverrides) {
        this.severityOverrides = severityOverrides;
        return this;
    }

    /**
     * Takes the options of the validation set in {@code config}, keys relative to their stage and
     * checked as {@code tfstream run} checks them: {@link ValidationOptions} ({@code environment},
     * {@code window}, {@code splits}, {@code min-drift-examples}, {@code actions}, {@code
     * severity-overrides}, and {@code anomalies-topic}, whose presence turns the windows' {@code
     * Anomalies} on), {@link SchemaOptions#KIND}, the parse limits ({@link ParseOptions}) and the
     * lag ({@link EventTimeOptions#OUT_OF_ORDERNESS}), and with event time from a feature the
     * deltas' watermarks ({@link #setPartialsWatermarks}): keys that do not collide. {@code splits:
     * -1} (the job's parallelism) leaves the splits as they are. Not taken: {@code enabled} and the
     * topics the sinks write to; the statistics come with {@link
     * #setStatistics(StatisticsSettings)} ({@link StatisticsOptions#settings}). Unset options keep
     * their values.
     *
     * @throws IllegalArgumentException naming the key of a value out of range
     */
    public TfstreamValidationBuilder fromConfig(ReadableConfig config) {
        ValidationOptions.OPTIONS.checkAll(config, "");
        config.getOptional(ValidationOptions.ENVIRONMENT).ifPresent(this::setEnvironment);
        config.getOptional(ValidationOptions.WINDOW).ifPresent(this::setWindow);
        config.getOptional(ValidationOptions.SPLITS).filter(n -> n > 0).ifPresent(this::setSplits);
        config.getOptional(ValidationOptions.MIN_DRIFT_EXAMPLES)
                .ifPresent(this::setMinDriftExamples);
        config.getOptional(ValidationOptions.ACTIONS)
                .ifPresent(a -> setActions(ValidationActions.parse(a)));
        config.getOptional(ValidationOptions.SEVERITY_OVERRIDES)
                .ifPresent(this::setSeverityOverrides);
        config.getOptional(ValidationOptions.ANOMALIES_TOPIC).ifPresent(t -> setAnomalies(true));
        config.getOptional(SchemaOptions.KIND)
                .ifPresent(k -> setSequenceExample(k == SchemaOptions.Kind.SEQUENCE_EXAMPLE));
        if (ParseOptions.OPTIONS.options().stream()
                .anyMatch(o -> config.getOptional(o).isPresent())) {
            setLimits(ParseOptions.limits(config, ""));
        }
        config.getOptional(EventTimeOptions.OUT_OF_ORDERNESS).ifPresent(this::setLag);
        if (config.get(EventTimeOptions.SOURCE) == EventTimeSettings.Source.FEATURE) {
            // the deltas get the job's out-of-orderness and idleness over their event times
            setPartialsWatermarks(
                    config.get(EventTimeOptions.OUT_OF_ORDERNESS),
                    config.get(EventTimeOptions.IDLENESS));
        }
        return this;
    }

    /** The job name every alert id starts with (default {@value #DEFAULT_JOB_NAME}). */
    public TfstreamValidationBuilder setJobName(String jobName) {
        this.jobName = jobName;
        return this;
    }

    /** The parse's limits, which bound the values validation keeps (default the parse's). */
    public TfstreamValidationBuilder setLimits(ParseLimits limits) {
        this.limits = limits;
        return this;
    }

    /**
     * How far behind the largest feature event time a window closes (default 5 s, the job's
     * event-time.max-out-of-orderness).
     */
    public TfstreamValidationBuilder setLag(Duration lag) {
        this.lag = lag;
        return this;
    }

    /** Also emit each window's TFDV {@code Anomalies} message (default false). */
    public TfstreamValidationBuilder setAnomalies(boolean anomalies) {
        this.anomalies = anomalies;
        return this;
    }

    /**
     * Also emit each window's TFDV feature statistics ({@link ValidationResult#statistics()}),
     * computed as {@code statistics} says; null (the default): none.
     */
    public TfstreamValidationBuilder setStatistics(StatisticsSettings statistics) {
        this.statistics = statistics != null;
        if (statistics != null) {
            this.statisticsEpsilon = statistics.epsilon();
            this.statisticsWeightFeature = statistics.weightFeature();
        }
        return this;
    }

    /**
     * Also emit each window's TFDV feature statistics, their quantile sketches of error {@code
     * epsilon}.
     *
     * @deprecated {@link #setStatistics(StatisticsSettings)}: one value for the statistics
     */
    @Deprecated
    public TfstreamValidationBuilder setStatistics(boolean statistics, double epsilon) {
        this.statistics = statistics;
        this.statisticsEpsilon = epsilon;
        return this;
    }

    /**
     * With statistics: one dataset per TFX data split (default none, one dataset of every record),
     * {@code name:buckets} entries as {@link TfRecordShardsBuilder#setDataSplits} takes them, each
     * record in the split ExampleGen's rule gives it (by its bytes, or by {@code partitionFeature}
     * when not null; a record without a usable partition feature is in no split's statistics), so
     * that each split's statistics are those of the records its shards hold.
     */
    public TfstreamValidationBuilder setStatisticsSplits(String splits, String partitionFeature) {
        this.statisticsSplits = splits;
        this.statisticsSplitFeature = partitionFeature;
        return this;
    }

    /**
     * With statistics: weighted statistics too (TFDV's {@code weight_feature}, default none), each
     * record weighted by {@code feature}'s one value, a top-level INT or FLOAT feature of the
     * schema (a SequenceExample's context feature; a record without exactly one value weighs 0).
     *
     * @deprecated {@link StatisticsSettings.Builder#setWeightFeature} in {@link
     *     #setStatistics(StatisticsSettings)}
     */
    @Deprecated
    public TfstreamValidationBuilder setStatisticsWeightFeature(String feature) {
        this.statisticsWeightFeature = feature;
        return this;
    }

    /**
     * The uid (and name) of the window statistics' assembly.
     *
     * @deprecated {@link #setUidPrefix}: one prefix for every uid
     */
    @Deprecated
    public TfstreamValidationBuilder setStatisticsUid(String uid) {
        this.statisticsUid = uid;
        return this;
    }

    /**
     * Watermarks of the window deltas, bounded by {@code maxOutOfOrderness} and releasing inputs
     * idle for {@code idleness} (zero: never); needed when the parse takes event time from a
     * feature (the parse's output has no watermarks of it), else the deltas keep the parse's
     * (default).
     */
    public TfstreamValidationBuilder setPartialsWatermarks(
            Duration maxOutOfOrderness, Duration idleness) {
        WatermarkStrategy<WindowPartial> w =
                WatermarkStrategy.forBoundedOutOfOrderness(maxOutOfOrderness);
        this.partialsWatermarks = idleness.isZero() ? w : w.withIdleness(idleness);
        return this;
    }

    /**
     * The uids (and names) of the validation's operators, all from one prefix: {@code
     * <prefix>-windows}, {@code -partials-event-time} and {@code -statistics}. Unset, the prefix is
     * {@code validation}, as in {@code tfstream run}; a job with two validations needs two.
     */
    public TfstreamValidationBuilder setUidPrefix(String prefix) {
        check(prefix != null && !prefix.isEmpty(), "uidPrefix must be non-empty");
        this.uid = prefix + "-windows";
        this.partialsTimeUid = prefix + "-partials-event-time";
        this.statisticsUid = prefix + "-statistics";
        return this;
    }

    /**
     * The uids of the window evaluation and of the deltas' watermark assigner.
     *
     * @deprecated {@link #setUidPrefix}: one prefix for every uid
     */
    @Deprecated
    public TfstreamValidationBuilder setUids(String windows, String partialsTime) {
        this.uid = windows;
        this.partialsTimeUid = partialsTime;
        return this;
    }

    /**
     * The validation, every setting checked and the schema built once (fatal lint fails here).
     *
     * @throws IllegalArgumentException naming the first wrong or missing setting
     */
    public TfstreamValidation build() {
        if (schema == null || schemaFileName == null || schemaFileName.isEmpty()) {
            throw new IllegalArgumentException(
                    "schema is required: setSchema(content, fileName) or setSchemaFile(path)");
        }
        check(
                window != null && window.toMillis() >= 1,
                "window must be at least 1 ms, got " + window);
        check(splits >= 1, "splits must be positive, got " + splits);
        io.tfstream.api.options.ValidationOptions.OPTIONS.check(
                io.tfstream.api.options.ValidationOptions.MIN_DRIFT_EXAMPLES,
                minDriftExamples,
                "minDriftExamples");
        check(actions != null, "actions must be set (it was set to null)");
        check(severityOverrides != null, "severityOverrides must be set (it was set to null)");
        try {
            SeverityPolicy.parse(severityOverrides);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("severityOverrides: " + e.getMessage(), e);
        }
        check(jobName != null && !jobName.isEmpty(), "jobName must be non-empty");
        check(limits != null, "limits must be set (it was set to null)");
        check(lag != null && !lag.isNegative(), "lag must be zero or positive, got " + lag);
        check(
                uid != null
                        && !uid.isEmpty()
                        && partialsTimeUid != null
                        && !partialsTimeUid.isEmpty(),
                "uids must be non-empty");
        check(
                !statistics || (statisticsEpsilon > 0 && statisticsEpsilon < 1),
                "statistics epsilon must be in (0, 1), got " + statisticsEpsilon);
        check(statisticsUid != null && !statisticsUid.isEmpty(), "statisticsUid must be non-empty");
        ValidationSettings plain =
                new ValidationSettings(
                        schema,
                        schemaFileName,
                        sequenceExample,
                        environment,
                        window.toMillis(),
                        splits,
                        minDriftExamples,
                        actions,
                        severityOverrides,
                        jobName,
                        limits);
        ValidationSettings settings = statistics ? plain.withStatistics(statisticsEpsilon) : plain;
        if (statistics && statisticsWeightFeature != null) {
            settings = settings.withStatisticsWeightFeature(statisticsWeightFeature);
        }
        if (statistics && statisticsSplits != null) {
            settings =
                    settings.withStatisticsSplits(
                            io.tfstream.shards.TfxSplits.parse(statisticsSplits),
                            statisticsSplitFeature);
        }
        ValidationSchema built;
        try {
            built = settings.buildSchema();
        } catch (SchemaLintException e) {
            throw new IllegalArgumentException(
                    "schema " + schemaFileName + " cannot be validated against: " + e.getMessage(),
                    e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("schema: " + e.getMessage(), e);
        }
        return new TfstreamValidation(
                settings,
                lag,
                anomalies,
                partialsWatermarks,
                uid,
                partialsTimeUid,
                statisticsUid,
                built.lintFindings());
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
