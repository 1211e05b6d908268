package io.tfstream.job;

import io.tfstream.operators.source.SourceRecord;
import io.tfstream.operators.validation.BatchValidation;
import io.tfstream.operators.validation.SplitKey;
import io.tfstream.operators.validation.ValidationOutput;
import io.tfstream.operators.validation.ValidationOutputSerializationSchema;
import io.tfstream.operators.validation.ValidationOutputSerializer;
import io.tfstream.operators.validation.ValidationSettings;
import io.tfstream.operators.validation.WindowAlertFunction;
import io.tfstream.operators.validation.WindowPartial;
import io.tfstream.parse.ParseLimits;
import io.tfstream.validation.LintFinding;
import io.tfstream.validation.SchemaLintException;
import io.tfstream.validation.ValidationSchema;
import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The validation part of the dataflow ({@code validation.enabled}): the per-record checks, actions
 * and window statistics run inside the batch-and-parse operator on the parser's columns ({@link
 * BatchValidation}, configured by {@link #settings}); here the window deltas it emits are keyed by
 * feature-path split into the window evaluation ({@link WindowAlertFunction}) and the exactly-once
 * alerts (and optional {@code Anomalies}) sinks. With event time from a feature, the deltas get
 * watermarks of their own (the job's out-of-orderness and idleness over their event times), since
 * the parse operator's output is timed downstream of it.
 */
final class ValidationStage {
    private static final Logger LOG = LoggerFactory.getLogger(ValidationStage.class);

    static final String WINDOW_UID = "validation-windows";
    static final String PARTIALS_TIME_UID = "validation-partials-event-time";
    static final String ALERTS_SINK_UID = "alerts-sink";
    static final String ANOMALIES_SINK_UID = "anomalies-sink";

    private ValidationStage() {}

    /** The validation settings of the job, checked (a fatal schema lint refuses the job). */
    static ValidationSettings settings(
            JobConfig config, JobSchema schema, ParseLimits limits, int parallelism) {
        ValidationSettings settings =
                ValidationConfig.settings(config, schema, limits, parallelism);
        check(settings, schema);
        return settings;
    }

    /**
     * Wires the window evaluation and the alert sinks to the window deltas of {@code parsed} (the
     * batch-and-parse operator, built with {@code settings}).
     */
    static void apply(
            SingleOutputStreamOperator<SourceRecord> parsed,
            JobConfig config,
            ValidationSettings settings,
            boolean kafkaTime) {
        DataStream<WindowPartial> partials = parsed.getSideOutput(BatchValidation.PARTIALS);
        if (!kafkaTime) {
            WatermarkStrategy<WindowPartial> w =
                    WatermarkStrategy.forBoundedOutOfOrderness(
                            config.get(JobOptions.EVENT_TIME_OUT_OF_ORDERNESS));
            Duration idle = config.get(JobOptions.EVENT_TIME_IDLENESS);
            partials =
                    partials.assignTimestampsAndWatermarks(idle.isZero() ? w : w.withIdleness(idle))
                            .name("validation-partials-event-time")
                            .uid(PARTIALS_TIME_UID);
        }
        boolean anomalies = config.contains(JobOptions.VALIDATION_ANOMALIES_TOPIC);
        // Fixed here, so that the keys of the splits (chosen by key group) survive restores.
        int configured = parsed.getExecutionEnvironment().getConfig().getMaxParallelism();
        int maxParallelism =
                configured > 0
                        ? configured
                        : KeyGroupRangeAssignment.computeDefaultMaxParallelism(
                                Math.max(1, parsed.getParallelism()));
        SingleOutputStreamOperator<ValidationOutput> alerts =
                partials.keyBy(new SplitKey(settings.splits(), maxParallelism), Types.INT)
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
