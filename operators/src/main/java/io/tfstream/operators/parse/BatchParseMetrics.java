package io.tfstream.operators.parse;

import io.tfstream.api.model.DeadLetterReason;
import java.util.EnumMap;
import java.util.Map;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

/**
 * The batch-and-parse operator's metrics, in the operator's group under {@code tfstream}: records
 * in, bytes in, accepted, dead-lettered (in total and per reason under {@code reason.<code>}),
 * batches, batch size and parse time per batch (microseconds) histograms; with tensor payloads on,
 * payloads emitted, their bytes, batches split by size and encode time per batch (microseconds);
 * with JSON or Avro converted in the parse, the convert step's counters. Per subtask, records in =
 * accepted + dead-lettered.
 */
final class BatchParseMetrics {
    private static final int HISTOGRAM_WINDOW = 1000;

    private final Counter recordsIn;
    private final Counter bytesIn;
    private final Counter accepted;
    private final Counter deadLettered;
    private final Map<DeadLetterReason, Counter> byReason = new EnumMap<>(DeadLetterReason.class);
    private final Counter batches;
    private final Histogram batchSize;
    private final Histogram parseMicros;
    private final Counter payloads;
    private final Counter payloadBytes;
    private final Counter batchesSplit;
    private final Histogram encodeMicros;
    private Counter convertRecordsIn;
    private Counter converted;
    private Counter conversionErrors;
    private Counter ignoredFields;

    BatchParseMetrics(MetricGroup operator, boolean conversion) {
        MetricGroup g = operator.addGroup("tfstream");
        recordsIn = g.counter("recordsIn");
        bytesIn = g.counter("bytesIn");
        accepted = g.counter("accepted");
        deadLettered = g.counter("deadLettered");
        for (DeadLetterReason r : DeadLetterReason.values()) {
            byReason.put(r, g.addGroup("reason", r.code()).counter("deadLettered"));
        }
        batches = g.counter("batches");
        batchSize = g.histogram("batchSize", new DescriptiveStatisticsHistogram(HISTOGRAM_WINDOW));
        parseMicros =
                g.histogram(
                        "parseTimeMicros", new DescriptiveStatisticsHistogram(HISTOGRAM_WINDOW));
        payloads = g.counter("payloads");
        payloadBytes = g.counter("payloadBytes");
        batchesSplit = g.counter("batchesSplit");
        encodeMicros =
                g.histogram(
                        "encodeTimeMicros", new DescriptiveStatisticsHistogram(HISTOGRAM_WINDOW));
        if (conversion) {
            convertRecordsIn = g.counter("convertRecordsIn");
            converted = g.counter("converted");
            conversionErrors = g.counter("conversionErrors");
            ignoredFields = g.counter("ignoredFields");
        }
    }

    void payload(int bytes) {
        payloads.inc();
        payloadBytes.inc(bytes);
    }

    void batchEncoded(int parts, long nanos) {
        if (parts > 1) {
            batchesSplit.inc();
        }
        encodeMicros.update(nanos / 1000);
    }

    void recordIn(int bytes) {
        recordsIn.inc();
        bytesIn.inc(bytes);
    }

    void batchParsed(int records, long nanos) {
        batches.inc();
        batchSize.update(records);
        parseMicros.update(nanos / 1000);
    }

    /**
     * A batch of {@code records} JSON or Avro records of which {@code errors} did not convert and
     * the others ignored {@code ignored} fields: the convert step's counters ({@code
     * convertRecordsIn}, {@code converted}, {@code conversionErrors}, {@code ignoredFields}).
     */
    void converted(int records, int errors, long ignored) {
        convertRecordsIn.inc(records);
        converted.inc(records - errors);
        conversionErrors.inc(errors);
        ignoredFields.inc(ignored);
    }

    void accepted() {
        accepted.inc();
    }

    void deadLettered(DeadLetterReason reason) {
        deadLettered.inc();
        byReason.get(reason).inc();
    }
}
