package io.tfstream.sql;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;

/** The counter of records skipped under {@code ignore-parse-errors}. */
final class ParseErrorMetric {
    /** Metric name, in the operator's metric group. */
    static final String NAME = "tfstreamRecordsSkipped";

    private ParseErrorMetric() {}

    static Counter register(MetricGroup group) {
        return group == null ? new SimpleCounter() : group.counter(NAME);
    }
}
