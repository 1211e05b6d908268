package io.tfstream.operators.validation;

import io.tfstream.api.model.SourceRecord;
import io.tfstream.api.model.ValidationAction;
import io.tfstream.api.model.ValidationActions;
import io.tfstream.parse.ParsedRows;
import io.tfstream.parse.SerializedRecords;
import io.tfstream.parse.example.RawColumns;
import io.tfstream.validation.BatchValidator;
import io.tfstream.validation.RecordRef;
import io.tfstream.validation.RecordResult;
import io.tfstream.validation.SeverityPolicy;
import io.tfstream.validation.ValidationSchema;
import io.tfstream.validation.WindowAccumulator;
import io.tfstream.validation.WindowAccumulatorSerializer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.operators.Output;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

/**
 * The validation of a parsed batch inside the batch-and-parse operators (a thin adapter over the
 * core {@link BatchValidator}, which reads the parser's columns, so a record is decoded once): per
 * accepted row TFDV's per-record checks and the configured {@link ValidationActions} — {@code mark}
 * adds header {@link #ANOMALIES_HEADER}, {@code divert} sends the record to the dead letters with
 * reason {@code validation}, so it is in no tensor payload, shard or records topic — and its
 * statistics and findings added to its event-time window.
 *
 * <p>After each batch the windows it touched leave as deltas on {@link #PARTIALS}, one per window
 * and feature-path split, timestamped with the largest event time they hold; the keyed window
 * operator merges them until the watermark passes the window's end. Nothing stays in this operator
 * between batches, so it keeps no state. A row whose window had already closed when it was parsed
 * (its end at or before the watermark the operator has emitted, or with event time from a feature,
 * more than the out-of-orderness behind the largest event time it has seen) is checked and acted on
 * but counted as {@code late_count} of the next window to close instead.
 */
@Internal
public final class BatchValidation {
    /** Window deltas, one per window touched by a batch and feature-path split. */
    public static final OutputTag<WindowPartial> PARTIALS =
            new OutputTag<>("validation-partials", WindowPartialSerializer.typeInfo());

    /** The header {@code mark} adds: the record's anomaly type names, comma-separated. */
    public static final String ANOMALIES_HEADER = "tfstream.anomalies";

    private ValidationSettings settings;
    private ValidationSchema schema;
    private BatchValidator validator;
    private WindowAccumulatorSerializer serializer;
    private byte[] schemaBytes;

    /** The (fingerprint, split)s whose schema bytes already left with a partial. */
    private final Set<String> schemaSent = new java.util.HashSet<>();

    private final SeverityPolicy severity;
    private final boolean ownWatermark;
    private final long lagMillis;
    private final Counter anomalous;
    private final Counter marked;
    private final Counter diverted;
    private final Counter late;
    private final Counter fromBytes;

    /** The batch's windows: accumulator, late count and largest event time per window start. */
    private final TreeMap<Long, WindowAccumulator> windows = new TreeMap<>();

    private final TreeMap<Long, Long> lateCounts = new TreeMap<>();
    private final TreeMap<Long, Long> maxTimes = new TreeMap<>();
    private long lastStart;
    private WindowAccumulator last;
    private WindowAccumulator[] rowWindow = new WindowAccumulator[64];

    private long watermark = Long.MIN_VALUE;
    private long maxEventTime = Long.MIN_VALUE;
    private long bytesBefore;

    // The batch being validated.
    private ParsedRows rows;
    private List<SourceRecord> pending;
    private long[] timestamps;
    private boolean[] hasTimestamp;
    private String[] errors;
    private String[] marks = new String[64];
    private Verdict verdict;

    /** What the caller does with a record after validation. */
    public interface Verdict {
        /** Record {@code index} goes to the dead letters with reason validation and {@code why}. */
        void divert(int index, String why);
    }

    /**
     * @param ownWatermark event time comes from a feature: windows close {@code lagMillis} behind
     *     the largest event time seen instead of at the operator's watermark
     */
    public BatchValidation(
            ValidationSettings settings, boolean ownWatermark, long lagMillis, MetricGroup group) {
        useSchema(settings);
        this.severity = settings.severity();
        this.ownWatermark = ownWatermark;
        this.lagMillis = lagMillis;
        MetricGroup g = group.addGroup("tfstream");
        anomalous = g.counter("validationAnomalousRecords");
        marked = g.counter("validationMarkedRecords");
        diverted = g.counter("validationDivertedRecords");
        late = g.counter("validationLateRecords");
        fromBytes = g.counter("validationRecordsReadAgain");
    }

    private void useSchema(ValidationSettings s) {
        this.settings = s;
        this.schema = s.buildSchema();
        this.validator = new BatchValidator(schema, s.sequence());
        this.serializer = new WindowAccumulatorSerializer(schema);
        this.schemaBytes = s.schemaBytes();
        this.bytesBefore = 0;
    }

    /**
     * Validates the next batches under the schema of {@code next} (a schema change, {@code
     * schema.update: poll}); called between batches, after {@link #emit}, so a window delta holds
     * the records of one schema. Metrics carry on; the windows' deltas from now on carry the new
     * fingerprint, so the window operator keeps their statistics apart.
     */
    public void switchSchema(ValidationSettings next) {
        if (!windows.isEmpty() || !lateCounts.isEmpty()) {
            throw new IllegalStateException("a schema switch with window deltas not emitted");
        }
        useSchema(next);
    }

    /** The fingerprint of the schema records are validated under. */
    public String fingerprint() {
        return schema.fingerprint();
    }

    /** The watermark the operator has emitted (with event time from Kafka timestamps). */
    public void watermark(long emitted) {
        if (!ownWatermark) {
            watermark = Math.max(watermark, emitted);
        }
    }

    /**
     * Validates the accepted rows of a parsed batch. {@code errors[i]} non-null means record {@code
     * i} is already a dead letter (it is skipped); a diverted record is reported to {@code
     * verdict}. Marks are then read with {@link #marked}.
     */
    public void validate(
            RawColumns columns,
            SerializedRecords batch,
            ParsedRows rows,
            List<SourceRecord> pending,
            long[] timestamps,
            boolean[] hasTimestamp,
            String[] errors,
            Verdict verdict) {
        this.rows = rows;
        this.pending = pending;
        this.timestamps = timestamps;
        this.hasTimestamp = hasTimestamp;
        this.errors = errors;
        this.verdict = verdict;
        int n = pending.size();
        if (marks.length < n) {
            marks = new String[Math.max(n, marks.length * 2)];
        }
        Arrays.fill(marks, 0, n, null);
        assignWindows();
        validator.validate(columns, batch, rows::recordIndex, rows.rows(), sink);
        fromBytes.inc(validator.rowsFromBytes() - bytesBefore);
        bytesBefore = validator.rowsFromBytes();
        if (ownWatermark) {
            for (int row = 0; row < rows.rows(); row++) {
                int i = rows.recordIndex(row);
                if (errors[i] == null && hasTimestamp[i]) {
                    maxEventTime = Math.max(maxEventTime, timestamps[i]);
                }
            }
            if (maxEventTime != Long.MIN_VALUE) {
                watermark = Math.max(watermark, maxEventTime - lagMillis - 1);
            }
        }
        this.rows = null;
        this.pending = null;
        this.errors = null;
        this.verdict = null;
    }

    private final BatchValidator.Rows sink =
            new BatchValidator.Rows() {
                @Override
                public WindowAccumulator window(int row) {
                    return rowWindow[row];
                }

                @Override
                public void ref(int row, RecordRef ref) {
                    int i = rows.recordIndex(row);
                    SourceRecord r = pending.get(i);
                    ref.set(r.topic(), r.partition(), r.offset(), timestamps[i]);
                }

                @Override
                public int dataSplit(int row) {
                    return settings.dataSplitOf(pending.get(rows.recordIndex(row)).value());
                }

                @Override
                public void anomalous(int row, RecordResult result) {
                    int i = rows.recordIndex(row);
                    if (errors[i] != null) {
                        return;
                    }
                    anomalous.inc();
                    switch (action(settings.actions(), result, severity)) {
                        case PASS -> {}
                        case MARK -> {
                            marked.inc();
                            marks[i] = typeNames(result);
                        }
                        case DIVERT -> {
                            diverted.inc();
                            verdict.divert(i, message(result));
                        }
                    }
                }
            };

    /**
     * The window of every row (null: dead letter, no event time, or late), the largest event time
     * per window, and the late rows counted against the next window to close.
     */
    private void assignWindows() {
        int n = rows.rows();
        if (rowWindow.length < n) {
            rowWindow = new WindowAccumulator[Math.max(n, rowWindow.length * 2)];
        }
        long size = settings.windowMillis();
        long maxInWindow = Long.MIN_VALUE;
        for (int row = 0; row < n; row++) {
            rowWindow[row] = null;
            int i = rows.recordIndex(row);
            if (errors[i] != null || !hasTimestamp[i]) {
                continue;
            }
            long t = timestamps[i];
            long start = settings.windowStart(t);
            if (start + size - 1 <= watermark) {
                late.inc();
                lateCounts.merge(settings.windowStart(watermark + 1), 1L, Long::sum);
                continue;
            }
            if (last == null || start != lastStart) {
                if (last != null) {
                    maxTimes.merge(lastStart, maxInWindow, Math::max);
                }
                WindowAccumulator a = windows.get(start);
                if (a == null) {
                    a = new WindowAccumulator(schema);
                    windows.put(start, a);
                }
                lastStart = start;
                last = a;
                maxInWindow = Long.MIN_VALUE;
            }
            maxInWindow = Math.max(maxInWindow, t);
            rowWindow[row] = last;
        }
        if (last != null) {
            maxTimes.merge(lastStart, maxInWindow, Math::max);
        }
    }

    /**
     * Record {@code index} with header {@link #ANOMALIES_HEADER} when it was marked, else as is.
     */
    public SourceRecord marked(SourceRecord r, int index) {
        String names = marks[index];
        if (names == null) {
            return r;
        }
        return r.withHeader(ANOMALIES_HEADER, names.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Emits the batch's window deltas on {@link #PARTIALS}, split by feature path (late records
     * counted once, by split 0), and forgets them.
     */
    public void emit(Output<StreamRecord<SourceRecord>> output) {
        for (Map.Entry<Long, Long> e : lateCounts.entrySet()) {
            windows.computeIfAbsent(e.getKey(), k -> new WindowAccumulator(schema));
        }
        int splits = settings.splits();
        long size = settings.windowMillis();
        for (Map.Entry<Long, WindowAccumulator> e : windows.entrySet()) {
            long start = e.getKey();
            long lateCount = lateCounts.getOrDefault(start, 0L);
            long time = maxTimes.getOrDefault(start, start);
            for (int s = 0; s < splits; s++) {
                byte[] bytes = serializer.serialize(e.getValue(), s, splits);
                // The schema travels once per fingerprint and split from each subtask instance.
                byte[] schemaOnce =
                        schemaSent.add(schema.fingerprint() + "/" + s) ? schemaBytes : new byte[0];
                output.collect(
                        PARTIALS,
                        new StreamRecord<>(
                                new WindowPartial(
                                        s,
                                        start,
                                        start + size,
                                        s == 0 ? lateCount : 0,
                                        serializer.getVersion(),
                                        bytes,
                                        schema.fingerprint(),
                                        schemaOnce),
                                time));
            }
        }
        windows.clear();
        lateCounts.clear();
        maxTimes.clear();
        last = null;
    }

    private static String typeNames(RecordResult result) {
        Set<String> names = new LinkedHashSet<>();
        for (int k = 0; k < result.count(); k++) {
            names.add(result.type(k).name());
        }
        return String.join(",", names);
    }

    /** The dead-letter message: each anomaly's path, type and TFDV description. */
    private String message(RecordResult result) {
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < result.count(); k++) {
            var f = result.finding(k, schema);
            if (k > 0) {
                b.append("; ");
            }
            b.append(f.path() == null ? "" : f.path().serialized() + ": ")
                    .append(f.type().name())
                    .append(": ")
                    .append(f.description());
        }
        return b.toString();
    }

    /** The strongest action the anomalies of {@code r} call for (DIVERT ends the search). */
    static ValidationAction action(
            ValidationActions actions, RecordResult r, SeverityPolicy severity) {
        ValidationAction out = ValidationAction.PASS;
        for (int i = 0; i < r.count() && out != ValidationAction.DIVERT; i++) {
            ValidationAction a = actions.actionFor(r.type(i), severity.severity(r.type(i)));
            if (a.ordinal() > out.ordinal()) {
                out = a;
            }
        }
        return out;
    }
}
