package io.tfstream.operators.validation;

import io.tfstream.validation.Alert;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * Counts the alerts a window evaluation emits, by severity and anomaly type: counter {@code
 * validationAlerts} under {@code tfstream} with the key-value groups {@code severity} and {@code
 * type} (labels of one metric in Prometheus). A counter is registered with the first alert of its
 * pair, so only pairs that occurred exist; an alert emitted again after a restore counts again.
 */
final class AlertMetrics {
    /** The counter's name. */
    static final String VALIDATION_ALERTS = "validationAlerts";

    private final MetricGroup group;
    private final Map<String, Counter> counters = new HashMap<>();

    AlertMetrics(MetricGroup operator) {
        this.group = operator.addGroup("tfstream");
    }

    void count(Alert a) {
        counters.computeIfAbsent(
                        a.severity() + '\u0000' + a.anomalyType(),
                        k ->
                                group.addGroup("severity", a.severity())
                                        .addGroup("type", a.anomalyType())
                                        .counter(VALIDATION_ALERTS))
                .inc();
    }
}
