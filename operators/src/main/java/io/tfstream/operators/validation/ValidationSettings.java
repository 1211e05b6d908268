package io.tfstream.operators.validation;

import io.tfstream.api.model.ValidationActions;
import io.tfstream.parse.ParseLimits;
import io.tfstream.shards.TfxSplits;
import io.tfstream.spec.MalformedSpecFileException;
import io.tfstream.spec.schema.SchemaLoader;
import io.tfstream.stats.StatsOptions;
import io.tfstream.validation.SeverityPolicy;
import io.tfstream.validation.ValidationOptions;
import io.tfstream.validation.ValidationSchema;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * The small serializable configuration of the validation operators: the TFMD schema as bytes (the
 * {@link ValidationSchema} is built on the task by {@link #buildSchema}), the environment, the
 * window size, the number of feature-path splits, the per-record actions, the severity overrides
 * and the job name (part of every alert id).
 */
@Internal
public final class ValidationSettings implements Serializable {
    private static final long serialVersionUID = 1L;

    private final byte[] schemaBytes;
    private final String schemaName;
    private final boolean sequence;
    private final String environment;
    private final long windowMillis;
    private final int splits;
    private final long minDriftExamples;
    private final ValidationActions actions;
    private final String job;
    private final int[] limits;
    private final ArrayList<String> severityOverrides;

    /** TFDV's statistics of each window: the quantile sketches' epsilon, or -1 for none. */
    private double statisticsEpsilon = -1;

    /** The data splits the statistics are kept per (null: none), and their partition feature. */
    private TfxSplits dataSplits;

    private String splitFeature;

    /** The feature weighting the statistics (TFDV's weight_feature), or null. */
    private String weightFeature;

    /** Settings without severity overrides (every anomaly type is an {@code ERROR}). */
    public ValidationSettings(
            byte[] schemaBytes,
            String schemaName,
            boolean sequence,
            String environment,
            long windowMillis,
            int splits,
            long minDriftExamples,
            ValidationActions actions,
            String job,
            ParseLimits limits) {
        this(
                schemaBytes,
                schemaName,
                sequence,
                environment,
                windowMillis,
                splits,
                minDriftExamples,
                actions,
                List.of(),
                job,
                limits);
    }

    /**
     * @param severityOverrides TFDV's {@code severity_overrides} as {@code TYPE=SEVERITY} entries
     *     ({@link SeverityPolicy#parse})
     */
    public ValidationSettings(
            byte[] schemaBytes,
            String schemaName,
            boolean sequence,
            String environment,
            long windowMillis,
            int splits,
            long minDriftExamples,
            ValidationActions actions,
            List<String> severityOverrides,
            String job,
            ParseLimits limits) {
        SeverityPolicy.parse(severityOverrides); // fails here, not on the task
        this.severityOverrides = new ArrayList<>(severityOverrides);
        this.schemaBytes = Objects.requireNonNull(schemaBytes, "schemaBytes").clone();
        this.schemaName = Objects.requireNonNull(schemaName, "schemaName");
        this.sequence = sequence;
        this.environment = environment;
        if (windowMillis <= 0) {
            throw new IllegalArgumentException("window must be positive, got " + windowMillis);
        }
        if (splits <= 0) {
            throw new IllegalArgumentException("splits must be positive, got " + splits);
        }
        io.tfstream.api.options.ValidationOptions.OPTIONS.check(
                io.tfstream.api.options.ValidationOptions.MIN_DRIFT_EXAMPLES,
                minDriftExamples,
                "minDriftExamples");
        this.windowMillis = windowMillis;
        this.splits = splits;
        this.minDriftExamples = minDriftExamples;
        this.actions = Objects.requireNonNull(actions, "actions");
        this.job = Objects.requireNonNull(job, "job");
        this.limits =
                new int[] {
                    limits.maxRecordBytes(),
                    limits.maxValuesPerFeature(),
                    limits.maxFeaturesPerExample(),
                    limits.maxBytesPerValue(),
                    limits.maxRaggedRows()
                };
    }

    /**
     * Builds the validation schema (tier S lint runs here, docs/validation.md#validation-tiers).
     *
     * @throws io.tfstream.validation.SchemaLintException on a fatal lint finding
     * @throws IllegalArgumentException when the bytes are not a TFMD schema
     */
    public ValidationSchema buildSchema() {
        try {
            ValidationOptions o =
                    ValidationOptions.defaults()
                            .withEnvironment(environment)
                            .withMinDriftExamples(minDriftExamples)
                            .withParseLimits(
                                    new ParseLimits(
                                            limits[0], limits[1], limits[2], limits[3], limits[4]))
                            .withStatistics(statisticsOptions())
                            .withStatisticsSplits(dataSplitNames())
                            .withStatisticsWeightFeature(weightFeature);
            return ValidationSchema.build(SchemaLoader.parse(schemaBytes, schemaName), o);
        } catch (MalformedSpecFileException e) {
            throw new IllegalArgumentException(
                    schemaName + " is not a TFMD schema: " + e.getMessage(), e);
        }
    }

    /** A copy of the TFMD schema's bytes. */
    public byte[] schemaBytes() {
        return schemaBytes.clone();
    }

    /**
     * These settings with another TFMD schema (a schema change, {@code schema.update: poll}); the
     * schema is checked when built ({@link #buildSchema}).
     */
    public ValidationSettings withSchema(byte[] bytes, String name) {
        ValidationSettings s =
                new ValidationSettings(
                        bytes,
                        name,
                        sequence,
                        environment,
                        windowMillis,
                        splits,
                        minDriftExamples,
                        actions,
                        severityOverrides,
                        job,
                        new ParseLimits(limits[0], limits[1], limits[2], limits[3], limits[4]));
        s.statisticsEpsilon = statisticsEpsilon;
        s.dataSplits = dataSplits;
        s.splitFeature = splitFeature;
        s.weightFeature = weightFeature;
        return s;
    }

    /**
     * These settings with TFDV's statistics of each window kept, from quantile sketches of error
     * {@code epsilon} (top values and unique counts from TFDV's sketches, so that state stays
     * bounded).
     */
    public ValidationSettings withStatistics(double epsilon) {
        if (!(epsilon > 0 && epsilon < 1)) {
            throw new IllegalArgumentException(
                    "statistics epsilon must be in (0, 1), got " + epsilon);
        }
        ValidationSettings s = withSchema(schemaBytes, schemaName);
        s.statisticsEpsilon = epsilon;
        return s;
    }

    /**
     * These settings with the statistics kept per TFX data split ({@code shards.splits}): a
     * record's split by ExampleGen's rule over its bytes, or over {@code splitFeature} when not
     * null; a record without a usable partition feature is in no split's statistics.
     */
    public ValidationSettings withStatisticsSplits(TfxSplits splits, String splitFeature) {
        ValidationSettings s = withSchema(schemaBytes, schemaName);
        s.dataSplits = Objects.requireNonNull(splits, "splits");
        s.splitFeature = splitFeature;
        return s;
    }

    /** These settings with weighted statistics too, by {@code feature} (TFDV's weight_feature). */
    public ValidationSettings withStatisticsWeightFeature(String feature) {
        ValidationSettings s = withSchema(schemaBytes, schemaName);
        s.weightFeature = Objects.requireNonNull(feature, "feature");
        return s;
    }

    /**
     * The data split of a record's bytes for its statistics ({@link #withStatisticsSplits}), -1 for
     * none (no usable partition feature); 0 without data splits.
     */
    public int dataSplitOf(byte[] record) {
        if (dataSplits == null) {
            return 0;
        }
        try {
            return dataSplits.indexOf(record, splitFeature, sequence);
        } catch (TfxSplits.SplitKeyException e) {
            return -1;
        }
    }

    /** The data splits' names, in order (empty without data splits). */
    public List<String> dataSplitNames() {
        return dataSplits == null
                ? List.of()
                : dataSplits.splits().stream().map(TfxSplits.Split::name).toList();
    }

    /** The statistics kept per window, or null when none are. */
    public StatsOptions statisticsOptions() {
        return statisticsEpsilon < 0
                ? null
                : StatsOptions.DEFAULTS.withEpsilon(statisticsEpsilon).withSketchTopValues(true);
    }

    /** Whether records are {@code SequenceExample}s. */
    public boolean sequence() {
        return sequence;
    }

    public long windowMillis() {
        return windowMillis;
    }

    public int splits() {
        return splits;
    }

    public ValidationActions actions() {
        return actions;
    }

    /** The severity of each anomaly type after the overrides. */
    public SeverityPolicy severity() {
        return SeverityPolicy.parse(severityOverrides);
    }

    public String job() {
        return job;
    }

    /** The start of the window of event time {@code t}: {@code [start, start + window)}. */
    public long windowStart(long t) {
        return t - Math.floorMod(t, windowMillis);
    }
}
