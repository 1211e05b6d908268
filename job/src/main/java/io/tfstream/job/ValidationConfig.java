package io.tfstream.job;

import io.tfstream.operators.validation.ValidationActions;
import io.tfstream.operators.validation.ValidationSettings;
import io.tfstream.parse.ParseLimits;
import io.tfstream.validation.SeverityPolicy;
import java.util.List;

/**
 * The {@code validation.*} options: their combinations checked once with the rest of the
 * configuration, and the operators' {@link ValidationSettings} built from them.
 */
final class ValidationConfig {
    private ValidationConfig() {}

    /** Checks the validation options of {@code c}; nothing to check when validation is off. */
    static void check(JobConfig c) {
        if (!c.get(JobOptions.VALIDATION_ENABLED)) {
            return;
        }
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
        if (c.get(JobOptions.VALIDATION_WINDOW).toMillis() < 1) {
            throw new JobConfigException(
                    "invalid value for validation.window: expected at least 1 ms");
        }
        int splits = c.get(JobOptions.VALIDATION_SPLITS);
        if (splits == 0 || splits < -1) {
            throw new JobConfigException(
                    "invalid value '"
                            + splits
                            + "' for validation.splits: expected -1 (the parallelism) or a"
                            + " positive integer");
        }
        if (c.get(JobOptions.VALIDATION_MIN_DRIFT_EXAMPLES) < 0) {
            throw new JobConfigException(
                    "invalid value for validation.min-drift-examples: expected >= 0");
        }
        actions(c);
        severityOverrides(c);
    }

    static List<String> severityOverrides(JobConfig c) {
        List<String> entries =
                c.contains(JobOptions.VALIDATION_SEVERITY_OVERRIDES)
                        ? c.get(JobOptions.VALIDATION_SEVERITY_OVERRIDES)
                        : List.of();
        try {
            SeverityPolicy.parse(entries);
        } catch (IllegalArgumentException e) {
            throw new JobConfigException(
                    "invalid value for validation.severity-overrides: " + e.getMessage(), e);
        }
        return entries;
    }

    static ValidationActions actions(JobConfig c) {
        List<String> entries =
                c.contains(JobOptions.VALIDATION_ACTIONS)
                        ? c.get(JobOptions.VALIDATION_ACTIONS)
                        : List.of();
        try {
            return ValidationActions.parse(entries);
        } catch (IllegalArgumentException e) {
            throw new JobConfigException(
                    "invalid value for validation.actions: " + e.getMessage(), e);
        }
    }

    /** The operators' settings; {@code parallelism} is the job's (for the default split count). */
    static ValidationSettings settings(
            JobConfig c, JobSchema schema, ParseLimits limits, int parallelism) {
        int splits = c.get(JobOptions.VALIDATION_SPLITS);
        return new ValidationSettings(
                schema.bytes(),
                schema.fileName(),
                c.get(JobOptions.SCHEMA_KIND) == JobOptions.SchemaKind.SEQUENCE_EXAMPLE,
                c.contains(JobOptions.VALIDATION_ENVIRONMENT)
                        ? c.get(JobOptions.VALIDATION_ENVIRONMENT)
                        : null,
                c.get(JobOptions.VALIDATION_WINDOW).toMillis(),
                splits > 0 ? splits : Math.max(1, parallelism),
                c.get(JobOptions.VALIDATION_MIN_DRIFT_EXAMPLES),
                actions(c),
                severityOverrides(c),
                c.get(JobOptions.JOB_NAME),
                limits);
    }
}
