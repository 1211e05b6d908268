package io.tfstream.job;

import io.tfstream.api.TfstreamValidation;
import io.tfstream.api.TfstreamValidationBuilder;
import io.tfstream.api.ValidationRecords;
import io.tfstream.api.model.ValidationActions;
import io.tfstream.api.model.ValidationOutput;
import io.tfstream.api.options.ShardOptions;
import io.tfstream.api.options.StatisticsOptions;
import io.tfstream.api.options.ValidationOptions;
import io.tfstream.validation.LintFinding;
import io.tfstream.validation.SchemaLintException;
import io.tfstream.validation.SeverityPolicy;
import java.util.List;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
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
    // validation.*, and what else the validation builder's fromConfig reads
    private final StageView v;
    private final StageView statistics;

    ValidationConfig(JobConfig c) {
        this.c = c;
        this.v =
                c.view(
                        JobOptionStage.VALIDATION,
                        JobOptionStage.SCHEMA,
                        JobOptionStage.PARSE,
                        JobOptionStage.EVENT_TIME);
        this.statistics = c.view(JobOptionStage.STATISTICS);
        if (enabled()) {
            check();
        }
        if (statistics()) {
            checkStatistics();
        }
    }

    /** Whether each window's statistics are written ({@code statistics.enabled}). */
    boolean statistics() {
        return statistics.get(StatisticsOptions.ENABLED);
    }

    private void checkStatistics() {
        if (!enabled()) {
            throw new JobConfigException(
                    "statistics.enabled needs validation.enabled (the statistics are kept in the"
                            + " validation windows)");
        }
        if (statistics.getOptional(StatisticsOptions.TOPIC).filter(t -> !t.isBlank()).isEmpty()) {
            throw new JobConfigException(
                    "statistics.enabled needs statistics.topic (the Kafka topic the window"
                            + " statistics are written to)");
        }
    }

    boolean enabled() {
        return v.get(ValidationOptions.ENABLED);
    }

    private void check() {
        if (!c.tfmdSchema()) {
            throw new JobConfigException(
                    "validation.enabled needs schema.path (a TFMD schema: validation checks its"
                            + " constraints, which a spec.path file does not have)");
        }
        if (v.getOptional(ValidationOptions.ALERTS_TOPIC).filter(t -> !t.isBlank()).isEmpty()) {
            throw new JobConfigException(
                    "validation.enabled needs validation.alerts-topic (the Kafka topic the window"
                            + " alerts are written to)");
        }
        actions();
        severityOverrides();
    }

    List<String> severityOverrides() {
        List<String> entries = list(ValidationOptions.SEVERITY_OVERRIDES);
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
            return ValidationActions.parse(list(ValidationOptions.ACTIONS));
        } catch (IllegalArgumentException e) {
            throw new JobConfigException(
                    "invalid value for validation.actions: " + e.getMessage(), e);
        }
    }

    private List<String> list(org.apache.flink.configuration.ConfigOption<List<String>> o) {
        return v.getOptional(o).orElse(List.of());
    }

    /**
     * The validation built with the library's builder, checked against {@code schema}: a fatal
     * schema lint refuses the job, the rest is logged. {@code parallelism} is the job's (for the
     * default split count).
     */
    TfstreamValidation validation(JobSchema schema, int parallelism) {
        TfstreamValidationBuilder b =
                TfstreamValidation.builder()
                        .fromConfig(v)
                        .setSchema(schema.bytes(), schema.fileName())
                        .setJobName(c.get(JobOptions.JOB_NAME));
        if (statistics()) {
            StageView shards = c.view(JobOptionStage.SHARDS);
            b.setStatistics(c.statistics())
                    .setStatisticsSplits(
                            shards.orNull(ShardOptions.SPLITS),
                            shards.orNull(ShardOptions.SPLIT_FEATURE));
        }
        if (v.get(ValidationOptions.SPLITS) <= 0) {
            b.setSplits(Math.max(1, parallelism)); // -1: the job's parallelism
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

    /** The window alerts' records. */
    KafkaRecordSerializationSchema<ValidationOutput> alertRecords() {
        return ValidationRecords.serializer(v.get(ValidationOptions.ALERTS_TOPIC));
    }

    /** The windows' {@code Anomalies} records; only with {@code validation.anomalies-topic}. */
    KafkaRecordSerializationSchema<ValidationOutput> anomalyRecords() {
        return ValidationRecords.serializer(v.get(ValidationOptions.ANOMALIES_TOPIC));
    }

    /** The window statistics' records; only with {@code statistics.enabled}. */
    KafkaRecordSerializationSchema<ValidationOutput> statisticsRecords() {
        return ValidationRecords.serializer(statistics.get(StatisticsOptions.TOPIC));
    }

    /**
     * Whether {@code validation.alerts-topic} is set (SCHEMA alerts go there without validation).
     */
    boolean alerts() {
        return v.has(ValidationOptions.ALERTS_TOPIC);
    }

    boolean anomalies() {
        return v.has(ValidationOptions.ANOMALIES_TOPIC);
    }
}
