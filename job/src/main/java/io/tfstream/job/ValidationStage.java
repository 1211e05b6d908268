package io.tfstream.job;

import io.tfstream.operators.deadletter.DeadLetter;
import io.tfstream.operators.parse.BatchParseOperator;
import io.tfstream.operators.source.SourceRecord;
import io.tfstream.operators.source.SourceRecordSerializer;
import io.tfstream.operators.validation.RecordValidationOperator;
import io.tfstream.operators.validation.SplitKey;
import io.tfstream.operators.validation.ValidationOutput;
import io.tfstream.operators.validation.ValidationOutputSerializationSchema;
import io.tfstream.operators.validation.ValidationOutputSerializer;
import io.tfstream.operators.validation.ValidationSettings;
import io.tfstream.operators.validation.WindowAlertFunction;
import io.tfstream.parse.ParseLimits;
import io.tfstream.validation.LintFinding;
import io.tfstream.validation.SchemaLintException;
import io.tfstream.validation.ValidationSchema;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The validation part of the dataflow ({@code validation.enabled}): per-record checks chained to
 * the accepted records ({@link RecordValidationOperator}: marks, diverts to the dead letters, and
 * pre-aggregates windows per subtask), the window evaluation keyed by feature-path split ({@link
 * WindowAlertFunction}) and the exactly-once alerts (and optional {@code Anomalies}) sinks.
 */
final class ValidationStage {
    private static final Logger LOG = LoggerFactory.getLogger(ValidationStage.class);

    static final String RECORD_UID = "record-validation";
    static final String WINDOW_UID = "validation-windows";
    static final String ALERTS_SINK_UID = "alerts-sink";
    static final String ANOMALIES_SINK_UID = "anomalies-sink";

    /** The accepted records after validation, and the records it diverted. */
    record Result(DataStream<SourceRecord> accepted, DataStream<DeadLetter> diverted) {}

    private ValidationStage() {}

    static Result apply(
            DataStream<SourceRecord> accepted,
            JobConfig config,
            JobSchema schema,
            ParseLimits limits,
            int parallelism) {
        ValidationSettings settings =
                ValidationConfig.settings(config, schema, limits, parallelism);
        check(settings, schema);
        SingleOutputStreamOperator<SourceRecord> validated =
                accepted.transform(
                                "record-validation",
                                SourceRecordSerializer.typeInfo(),
                                new RecordValidationOperator(settings))
                        .uid(RECORD_UID);
        boolean anomalies = config.contains(JobOptions.VALIDATION_ANOMALIES_TOPIC);
        // Fixed here, so that the keys of the splits (chosen by key group) survive restores.
        int configured = accepted.getExecutionEnvironment().getConfig().getMaxParallelism();
        int maxParallelism =
                configured > 0
                        ? configured
                        : KeyGroupRangeAssignment.computeDefaultMaxParallelism(
                                Math.max(1, parallelism));
        SingleOutputStreamOperator<ValidationOutput> alerts =
                validated
                        .getSideOutput(RecordValidationOperator.PARTIALS)
                        .keyBy(new SplitKey(settings.splits(), maxParallelism), Types.INT)
                        .process(new WindowAlertFunction(settings, anomalies))
                        .returns(ValidationOutputSerializer.typeInfo())
                        .setMaxParallelism(maxParallelism)
                        .name("validation-windows")
                        .uid(WINDOW_UID);
        String job = config.get(JobOptions.JOB_NAME);
        alerts.sinkTo(
                        TfstreamPipeline.sink(
                                config,
                                new ValidationOutputSerializationSchema(
                                        config.get(JobOptions.VALIDATION_ALERTS_TOPIC)),
                                job + "-alerts"))
                .name("alerts-sink")
                .uid(ALERTS_SINK_UID);
        if (anomalies) {
            alerts.getSideOutput(WindowAlertFunction.ANOMALIES)
                    .sinkTo(
                            TfstreamPipeline.sink(
                                    config,
                                    new ValidationOutputSerializationSchema(
                                            config.get(JobOptions.VALIDATION_ANOMALIES_TOPIC)),
                                    job + "-anomalies"))
                    .name("anomalies-sink")
                    .uid(ANOMALIES_SINK_UID);
        }
        return new Result(validated, validated.getSideOutput(BatchParseOperator.DEAD_LETTERS));
    }

    /**
     * Builds the validation schema once at start: fatal lint refuses the job, the rest is logged.
     */
    static ValidationSchema check(ValidationSettings settings, JobSchema schema) {
        ValidationSchema s;
        try {
            s = settings.buildSchema();
        } catch (SchemaLintException e) {
            throw new JobSchemaRejectedException(
                    "schema.path "
                            + schema.fileName()
                            + " cannot be validated against: "
                            + e.getMessage(),
                    e);
        } catch (IllegalArgumentException e) {
            throw new JobSchemaRejectedException("validation.enabled: " + e.getMessage(), e);
        }
        for (LintFinding f : s.lintFindings()) {
            LOG.warn("validation schema lint ({}): {}", schema.fileName(), f);
        }
        return s;
    }
}
