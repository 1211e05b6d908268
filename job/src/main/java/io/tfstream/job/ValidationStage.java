package io.tfstream.job;

import static io.tfstream.job.PipelineOperator.ALERTS_SINK;
import static io.tfstream.job.PipelineOperator.ANOMALIES_SINK;
import static io.tfstream.job.PipelineOperator.VALIDATION_PARTIALS_TIME;
import static io.tfstream.job.PipelineOperator.VALIDATION_WINDOWS;

import io.tfstream.operators.source.SourceRecord;
import io.tfstream.operators.validation.BatchValidation;
import io.tfstream.operators.validation.SplitKey;
import io.tfstream.operators.validation.ValidationOutput;
import io.tfstream.operators.validation.ValidationOutputSerializationSchema;
import io.tfstream.operators.validation.ValidationOutputSerializer;
import io.tfstream.operators.validation.ValidationSettings;
import io.tfstream.operators.validation.WindowAlertFunction;
import io.tfstream.operators.validation.WindowPartial;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * The validation part of the dataflow ({@code validation.enabled}): the per-record checks, actions
 * and window statistics run inside the batch-and-parse operator on the parser's columns ({@link
 * BatchValidation}, configured by {@link ValidationConfig#settings}); here the window deltas it
 * emits are keyed by feature-path split into the window evaluation ({@link WindowAlertFunction})
 * and the exactly-once alerts (and optional {@code Anomalies}) sinks. With event time from a
 * feature, the deltas get watermarks of their own (the job's out-of-orderness and idleness over
 * their event times), since the parse operator's output is timed downstream of it.
 */
final class ValidationStage {
    private ValidationStage() {}

    /**
     * Wires the window evaluation and the alert sinks to the window deltas of {@code parsed} (the
     * batch-and-parse operator, built with {@code settings}).
     */
    static void apply(
            SingleOutputStreamOperator<SourceRecord> parsed,
            JobConfig config,
            ValidationSettings settings) {
        DataStream<WindowPartial> partials = parsed.getSideOutput(BatchValidation.PARTIALS);
        if (!config.parse().kafkaTime()) {
            partials =
                    VALIDATION_PARTIALS_TIME.on(
                            partials.assignTimestampsAndWatermarks(config.parse().watermarks()));
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
                VALIDATION_WINDOWS.on(
                        partials.keyBy(new SplitKey(settings.splits(), maxParallelism), Types.INT)
                                .process(new WindowAlertFunction(settings, anomalies))
                                .returns(ValidationOutputSerializer.typeInfo())
                                .setMaxParallelism(maxParallelism));
        ALERTS_SINK.on(
                alerts.sinkTo(
                        config.sinks()
                                .exactlyOnce(
                                        new ValidationOutputSerializationSchema(
                                                config.get(JobOptions.VALIDATION_ALERTS_TOPIC)),
                                        "alerts")));
        if (anomalies) {
            ANOMALIES_SINK.on(
                    alerts.getSideOutput(WindowAlertFunction.ANOMALIES)
                            .sinkTo(
                                    config.sinks()
                                            .exactlyOnce(
                                                    new ValidationOutputSerializationSchema(
                                                            config.get(
                                                                    JobOptions
                                                                            .VALIDATION_ANOMALIES_TOPIC)),
                                                    "anomalies")));
        }
    }
}
