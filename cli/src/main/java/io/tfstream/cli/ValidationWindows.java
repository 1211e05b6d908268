package io.tfstream.cli;

import io.tfstream.validation.Alert;
import io.tfstream.validation.Alerts;
import io.tfstream.validation.DriftEvaluator;
import io.tfstream.validation.RecordRef;
import io.tfstream.validation.RecordResult;
import io.tfstream.validation.RecordValidator;
import io.tfstream.validation.SeverityPolicy;
import io.tfstream.validation.ValidationSchema;
import io.tfstream.validation.WindowAccumulator;
import io.tfstream.validation.WindowEvaluator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The windows of a {@code tfstream validate} run: either one window over the whole input, or
 * tumbling event-time windows {@code [k·size, (k+1)·size)} aligned to the epoch (as Flink's {@code
 * TumblingEventTimeWindows}), each a {@link WindowAccumulator}. Once everything is read, {@link
 * #alerts} gives the schema's lint alerts, then per window in time order its tier W alerts
 * (docs/validation.md#validation-tiers; with the roll-ups of the per-record reasons) and its drift
 * alerts against the previous window that holds records.
 */
final class ValidationWindows {
    private final ValidationSchema schema;
    private final long size;
    private final TreeMap<Long, WindowAccumulator> windows = new TreeMap<>();
    private long minTime = Long.MAX_VALUE;
    private long maxTime = Long.MIN_VALUE;

    private final SeverityPolicy severity;

    /**
     * @param size window length in ms, or 0 for one window over the whole input
     * @param severity the severity of each anomaly type (after overrides)
     */
    ValidationWindows(ValidationSchema schema, long size, SeverityPolicy severity) {
        if (size < 0) {
            throw new IllegalArgumentException("window size must be >= 0, got " + size);
        }
        this.schema = schema;
        this.size = size;
        this.severity = severity;
        if (size == 0) {
            windows.put(0L, new WindowAccumulator(schema));
        }
    }

    /**
     * Adds the record {@code validator} validated last to the window of {@code ref.eventTime};
     * {@code timed} says whether that event time was read from the record.
     */
    void add(RecordValidator validator, RecordResult result, RecordRef ref, boolean timed) {
        if (timed) {
            minTime = Math.min(minTime, ref.eventTime);
            maxTime = Math.max(maxTime, ref.eventTime);
        }
        long start = size == 0 ? 0 : Math.floorDiv(ref.eventTime, size) * size;
        windows.computeIfAbsent(start, s -> new WindowAccumulator(schema))
                .add(validator, result, ref);
    }

    /** The alerts of the whole run, made at {@code now}; {@code job} goes into the alert ids. */
    List<Alert> alerts(String job, long now) {
        long watermark = maxTime == Long.MIN_VALUE ? 0 : maxTime;
        List<Alert> out = new ArrayList<>(Alerts.lint(schema, job, severity, 0, 0, now, watermark));
        WindowAccumulator previous = null;
        long previousStart = -1;
        for (Map.Entry<Long, WindowAccumulator> w : windows.entrySet()) {
            long start = w.getKey();
            long end = start + size;
            if (size == 0) {
                start = minTime == Long.MAX_VALUE ? 0 : minTime;
                end = maxTime == Long.MIN_VALUE ? 0 : maxTime + 1;
            }
            WindowAccumulator acc = w.getValue();
            Alerts.Context context =
                    new Alerts.Context(job, start, end, now, watermark, 0, previousStart);
            out.addAll(Alerts.of(context, acc, WindowEvaluator.evaluate(acc), severity));
            if (previous != null) {
                out.addAll(
                        Alerts.of(
                                context,
                                acc,
                                DriftEvaluator.compare(acc, previous).findings(),
                                severity));
            }
            previous = acc;
            previousStart = start;
        }
        return out;
    }
}
