package io.tfstream.job;

import static io.tfstream.job.PipelineOperator.ALERTS_SINK;
import static io.tfstream.job.PipelineOperator.ANOMALIES_SINK;
import static io.tfstream.job.PipelineOperator.STATISTICS_SINK;

import io.tfstream.api.ParseResult;
import io.tfstream.api.TfstreamValidation;
import io.tfstream.api.ValidationResult;

/**
 * The validation part of the dataflow ({@code validation.enabled}): the per-record checks, actions
 * and window statistics run inside the batch-and-parse operator on the parser's columns (the parse
 * built with the {@link TfstreamValidation} of {@link ValidationConfig#validation}); here its
 * window evaluation ({@link TfstreamValidation#applyTo}) goes to the exactly-once alerts (and
 * optional {@code Anomalies} and window statistics) sinks. With event time from a feature, the
 * window deltas get watermarks of their own (the job's out-of-orderness and idleness over their
 * event times), since the parse operator's output is timed downstream of it.
 */
final class ValidationStage {
    private ValidationStage() {}

    /** Wires the window evaluation of {@code parsed} and the alert sinks. */
    static void apply(ParseResult parsed, JobConfig config, TfstreamValidation validation) {
        ValidationResult result = validation.applyTo(parsed);
        ValidationConfig options = config.validation();
        ALERTS_SINK.on(
                result.alerts()
                        .sinkTo(config.sinks().exactlyOnce(options.alertRecords(), "alerts")));
        if (options.statistics()) {
            STATISTICS_SINK.on(
                    result.statistics()
                            .sinkTo(
                                    config.sinks()
                                            .exactlyOnce(
                                                    options.statisticsRecords(), "statistics")));
        }
        if (options.anomalies()) {
            ANOMALIES_SINK.on(
                    result.anomalies()
                            .sinkTo(
                                    config.sinks()
                                            .exactlyOnce(options.anomalyRecords(), "anomalies")));
        }
    }
}
