package io.tfstream.api;

import io.tfstream.api.model.ValidationOutput;
import io.tfstream.operators.validation.WindowAlertFunction;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * The streams of one {@link TfstreamValidation#applyTo}: the window alerts (docs/validation.md,
 * alert format) and, when requested, each window's TFDV {@code Anomalies} and feature statistics.
 */
@PublicEvolving
public final class ValidationResult {
    private final SingleOutputStreamOperator<ValidationOutput> alerts;
    private final boolean anomalies;
    private final SingleOutputStreamOperator<ValidationOutput> statistics;

    ValidationResult(
            SingleOutputStreamOperator<ValidationOutput> alerts,
            boolean anomalies,
            SingleOutputStreamOperator<ValidationOutput> statistics) {
        this.alerts = alerts;
        this.anomalies = anomalies;
        this.statistics = statistics;
    }

    /** The alerts, keyed by alert id; the window evaluation itself (set its parallelism here). */
    public SingleOutputStreamOperator<ValidationOutput> alerts() {
        return alerts;
    }

    /**
     * Each window's {@code tensorflow.metadata.v0.Anomalies} message.
     *
     * @throws IllegalStateException when the validation was built without {@code setAnomalies}
     */
    public DataStream<ValidationOutput> anomalies() {
        if (!anomalies) {
            throw new IllegalStateException(
                    "anomalies: the validation was built without setAnomalies(true)");
        }
        return alerts.getSideOutput(WindowAlertFunction.ANOMALIES);
    }

    /**
     * Each window's TFDV feature statistics, a serialized {@code
     * tensorflow.metadata.v0.DatasetFeatureStatisticsList} keyed {@code <window
     * start>/<fingerprint>} (docs/validation.md#statistics-in-the-job).
     *
     * @throws IllegalStateException when the validation was built without {@code setStatistics}
     */
    public SingleOutputStreamOperator<ValidationOutput> statistics() {
        if (statistics == null) {
            throw new IllegalStateException(
                    "statistics: the validation was built without setStatistics(StatisticsSettings)");
        }
        return statistics;
    }
}
