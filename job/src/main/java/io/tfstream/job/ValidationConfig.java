package io.tfstream.job;

import io.tfstream.api.TfstreamValidation;
import io.tfstream.api.TfstreamValidationBuilder;
import io.tfstream.api.ValidationAlertSink;
import io.tfstream.api.ValidationAlertSinkBuilder;
import io.tfstream.api.model.ValidationActions;
import io.tfstream.api.options.SchemaOptions;
import io.tfstream.parse.ParseLimits;
import io.tfstream.validation.LintFinding;
import io.tfstream.validation.SchemaLintException;
import io.tfstream.validation.SeverityPolicy;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code validation.*} options: their combinations checked once with the rest of the
 * configuration, and the library's {@link TfstreamValidation} built from them. Nothing is checked
 * when validation is off.
 */
final class ValidationConfig {
    private static final Logger LOG = LoggerFactory.getLogger(ValidationConfig.class);

    private final JobConfig c;

    ValidationConfig(JobConfig c) {
        this.c = c;
        if (enabled()) {
            check();
        }
        if (statistics()) {
            checkStatistics();
        }
    }

    /** Whether each window's statistics are written ({@code statistics.enabled}). */
    boolean statistics() {
        return c.get(JobOptions.STATISTICS_ENABLED);
    }

    private void checkStatistics() {
        if (!enabled()) {
            throw new JobConfigException(
                    "statistics.enabled needs validation.enabled (the statistics are kept in the"
                            + " validation windows)");
        }
        if (!c.contains(JobOptions.STATISTICS_TOPIC)
                || c.get(JobOptions.STATISTICS_TOPIC).isBlank()) {
            throw new JobConfigException(
                    "statistics.enabled needs statistics.topic (the Kafka topic the window"
                            + " statistics are written to)");
        }
    }

    boolean enabled() {
        return c.get(JobOptions.VALIDATION_ENABLED);
    }

    private void check() {
        if (!c.contains(JobOptions.SCHEMA_PATH)) {
            throw new JobConfigException(
                    "validation.enabled needs schema.path (a TFMD schema: validation checks its"
                            + " constraints, which a spec.path file does not have)");
        }
        if (!c.contains(JobOptions.VALIDATION_ALERTS_TOPIC)
                || c.get(JobOptions.VALIDATION_ALERTS_TOPIC).isBlank()) {
            throw new JobConfigException(
                    "validation.enabled needs validation.alerts-topic (the Kafka topic the window"
                            + " alerts are written to)");
        }
        actions();
        severityOverrides();
    }

    List<String> severityOverrides() {
        List<String> entries = list(JobOptions.VALIDATION_SEVERITY_OVERRIDES);
        try {
            SeverityPolicy.parse(entries);
        } catch (IllegalArgumentException e) {
            throw new JobConfigException(
                    "invalid value for validation.severity-overrides: " + e.getMessage(), e);
        }
        return entries;
    }

    ValidationActions actions() {
        try {
            return ValidationActions.parse(list(JobOptions.VALIDATION_ACTIONS));
        } catch (IllegalArgumentException e) {
            throw new JobConfigException(
                    "invalid value for validation.actions: " + e.getMessage(), e);
        }
    }

    private List<String> list(org.apache.flink.configuration.ConfigOption<List<String>> o) {
        return c.contains(o) ? c.get(o) : List.of();
    }

    /**
     * The validation built with the library's builder, checked against {@code schema}: a fatal
     * schema lint refuses the job, the rest is logged. {@code parallelism} is the job's (for the
     * default split count).
     */
    TfstreamValidation validation(JobSchema schema, ParseLimits limits, int parallelism) {
        int splits = c.get(JobOptions.VALIDATION_SPLITS);
        TfstreamValidationBuilder b =
                TfstreamValidation.builder()
                        .setSchema(schema.bytes(), schema.fileName())
                        .setSequenceExample(
                                c.get(JobOptions.SCHEMA_KIND)
                                        == SchemaOptions.Kind.SEQUENCE_EXAMPLE)
                        .setEnvironment(
                                c.contains(JobOptions.VALIDATION_ENVIRONMENT)
                                        ? c.get(JobOptions.VALIDATION_ENVIRONMENT)
                                        : null)
                        .setWindow(c.get(JobOptions.VALIDATION_WINDOW))
                        .setSplits(splits > 0 ? splits : Math.max(1, parallelism))
                        .setMinDriftExamples(c.get(JobOptions.VALIDATION_MIN_DRIFT_EXAMPLES))
                        .setActions(actions())
                        .setSeverityOverrides(severityOverrides())
                        .setJobName(c.get(JobOptions.JOB_NAME))
                        .setLimits(limits)
                        .setLag(c.get(JobOptions.EVENT_TIME_OUT_OF_ORDERNESS))
                        .setAnomalies(c.contains(JobOptions.VALIDATION_ANOMALIES_TOPIC))
                        .setStatistics(statistics(), c.get(JobOptions.STATISTICS_EPSILON))
                        .setStatisticsSplits(
                                c.contains(JobOptions.SHARDS_SPLITS)
                                        ? c.get(JobOptions.SHARDS_SPLITS)
                                        : null,
                                c.contains(JobOptions.SHARDS_SPLIT_FEATURE)
                                        ? c.get(JobOptions.SHARDS_SPLIT_FEATURE)
                                        : null)
                        .setStatisticsWeightFeature(
                                c.contains(JobOptions.STATISTICS_WEIGHT_FEATURE)
                                        ? c.get(JobOptions.STATISTICS_WEIGHT_FEATURE)
                                        : null)
                        .setStatisticsUid(PipelineOperator.VALIDATION_STATISTICS.uid())
                        .setUids(
                                PipelineOperator.VALIDATION_WINDOWS.uid(),
                                PipelineOperator.VALIDATION_PARTIALS_TIME.uid());
        if (!c.parse().kafkaTime()) {
            // The deltas get the job's out-of-orderness and idleness over their event times.
            b.setPartialsWatermarks(c.parse().watermarks());
        }
        TfstreamValidation v;
        try {
            v = b.build();
        } catch (IllegalArgumentException e) {
            Throwable cause = e.getCause();
            if (cause instanceof SchemaLintException) {
                throw new JobSchemaRejectedException(
                        "schema.path "
                                + schema.fileName()
                                + " cannot be validated against: "
                                + cause.getMessage(),
                        e);
            }
            throw new JobSchemaRejectedException(
                    "validation.enabled: " + (cause != null ? cause.getMessage() : e.getMessage()),
                    e);
        }
        for (LintFinding f : v.lintFindings()) {
            LOG.warn("validation schema lint ({}): {}", schema.fileName(), f);
        }
        return v;
    }

    /** The window alerts' sink. */
    ValidationAlertSinkBuilder alertsSink() {
        return ValidationAlertSink.builder()
                .setBootstrapServers(c.sinks().bootstrapServers())
                .setTopic(c.get(JobOptions.VALIDATION_ALERTS_TOPIC));
    }

    /** The windows' {@code Anomalies} sink; only with {@code validation.anomalies-topic}. */
    ValidationAlertSinkBuilder anomaliesSink() {
        return ValidationAlertSink.builder()
                .setBootstrapServers(c.sinks().bootstrapServers())
                .setTopic(c.get(JobOptions.VALIDATION_ANOMALIES_TOPIC));
    }

    /** The window statistics' sink; only with {@code statistics.enabled}. */
    ValidationAlertSinkBuilder statisticsSink() {
        return ValidationAlertSink.builder()
                .setBootstrapServers(c.sinks().bootstrapServers())
                .setTopic(c.get(JobOptions.STATISTICS_TOPIC));
    }

    boolean anomalies() {
        return c.contains(JobOptions.VALIDATION_ANOMALIES_TOPIC);
    }
}
