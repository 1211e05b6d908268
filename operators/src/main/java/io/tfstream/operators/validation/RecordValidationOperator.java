package io.tfstream.operators.validation;

import io.tfstream.operators.deadletter.DeadLetter;
import io.tfstream.operators.deadletter.DeadLetterReason;
import io.tfstream.operators.parse.BatchParseOperator;
import io.tfstream.operators.source.SourceRecord;
import io.tfstream.validation.RecordRef;
import io.tfstream.validation.RecordResult;
import io.tfstream.validation.RecordValidator;
import io.tfstream.validation.SeverityPolicy;
import io.tfstream.validation.ValidationSchema;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

/**
 * Validates each accepted record's wire bytes against the TFMD schema (tier R), applies the
 * configured {@link ValidationActions} ({@code mark}: header {@link #ANOMALIES_HEADER}; {@code
 * divert}: dead letter with reason {@code validation}) and adds the record to this subtask's
 * partial accumulator of its event-time window. When the watermark passes a window's end the
 * partial leaves on {@link #PARTIALS}, once per feature-path split, before the watermark itself, so
 * that the keyed window operator never sees it late. Runs chained after the parse operator, one per
 * subtask; open windows are operator state.
 *
 * <p>A record whose window has already been emitted is late: it is checked and acted on, and
 * counted in the {@code late_count} of the next window, not added to a closed one. A record without
 * event time is checked only.
 */
public final class RecordValidationOperator extends AbstractStreamOperator<SourceRecord>
        implements OneInputStreamOperator<SourceRecord, SourceRecord> {
    private static final long serialVersionUID = 1L;

    /** Partial window accumulators, one per closed window and split. */
    public static final OutputTag<WindowPartial> PARTIALS =
            new OutputTag<>("validation-partials", WindowPartialSerializer.typeInfo());

    /** The header {@code mark} adds: the record's anomaly type names, comma-separated. */
    public static final String ANOMALIES_HEADER = "tfstream.anomalies";

    /** Metric group of the counters. */
    public static final String METRIC_GROUP = "tfstream";

    private final ValidationSettings settings;

    private transient ValidationSchema schema;
    private transient RecordValidator validator;
    private transient RecordResult result;
    private transient RecordRef ref;
    private transient SeverityPolicy severity;
    private transient PartialWindows windows;
    private transient ListState<WindowPartial> state;
    private transient long watermark;
    private transient Counter anomalous;
    private transient Counter marked;
    private transient Counter diverted;
    private transient Counter late;

    public RecordValidationOperator(ValidationSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        schema = settings.buildSchema();
        windows = new PartialWindows(schema, settings.windowMillis(), settings.splits());
        watermark = Long.MIN_VALUE;
        state =
                context.getOperatorStateStore()
                        .getListState(
                                new ListStateDescriptor<>(
                                        "validation-windows", WindowPartialSerializer.typeInfo()));
        for (WindowPartial p : state.get()) {
            windows.restore(p);
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        validator = new RecordValidator(schema);
        result = new RecordResult();
        ref = new RecordRef();
        severity = settings.severity();
        var g = getMetricGroup().addGroup(METRIC_GROUP);
        anomalous = g.counter("validationAnomalousRecords");
        marked = g.counter("validationMarkedRecords");
        diverted = g.counter("validationDivertedRecords");
        late = g.counter("validationLateRecords");
    }

    @Override
    public void processElement(StreamRecord<SourceRecord> element) throws Exception {
        SourceRecord r = element.getValue();
        byte[] v = r.value();
        if (settings.sequence()) {
            validator.validateSequenceExample(v, 0, v.length, result);
        } else {
            validator.validateExample(v, 0, v.length, result);
        }
        if (element.hasTimestamp()) {
            long t = element.getTimestamp();
            long start = settings.windowStart(t);
            if (start + settings.windowMillis() - 1 <= watermark) {
                late.inc();
                if (watermark != Long.MAX_VALUE) {
                    windows.late(settings.windowStart(watermark + 1));
                }
            } else {
                windows.window(start)
                        .add(validator, result, ref.set(r.topic(), r.partition(), r.offset(), t));
            }
        }
        if (result.count() == 0) {
            output.collect(element);
            return;
        }
        anomalous.inc();
        switch (settings.actions().of(result, severity)) {
            case PASS -> output.collect(element);
            case MARK -> {
                marked.inc();
                output.collect(element.replace(marked(r)));
            }
            case DIVERT -> {
                diverted.inc();
                DeadLetter d = new DeadLetter(r, DeadLetterReason.VALIDATION, message());
                StreamRecord<DeadLetter> out = new StreamRecord<>(d);
                if (element.hasTimestamp()) {
                    out.setTimestamp(element.getTimestamp());
                }
                output.collect(BatchParseOperator.DEAD_LETTERS, out);
            }
        }
    }

    /** The record with header {@link #ANOMALIES_HEADER} appended. */
    private SourceRecord marked(SourceRecord r) {
        Set<String> names = new LinkedHashSet<>();
        for (int i = 0; i < result.count(); i++) {
            names.add(result.type(i).name());
        }
        int n = r.headerCount();
        String[] keys = new String[n + 1];
        byte[][] values = new byte[n + 1][];
        for (int i = 0; i < n; i++) {
            keys[i] = r.headerKey(i);
            values[i] = r.headerValue(i);
        }
        keys[n] = ANOMALIES_HEADER;
        values[n] = String.join(",", names).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return new SourceRecord(
                r.value(),
                r.key(),
                keys,
                values,
                r.topic(),
                r.partition(),
                r.offset(),
                r.timestamp());
    }

    /** The dead-letter message: each anomaly's path, type and TFDV description. */
    private String message() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < result.count(); i++) {
            var f = result.finding(i, schema);
            if (i > 0) {
                b.append("; ");
            }
            b.append(f.path() == null ? "" : f.path().serialized() + ": ")
                    .append(f.type().name())
                    .append(": ")
                    .append(f.description());
        }
        return b.toString();
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        watermark = Math.max(watermark, mark.getTimestamp());
        windows.emitClosed(
                watermark, p -> output.collect(PARTIALS, new StreamRecord<>(p, p.windowEnd() - 1)));
        super.processWatermark(mark);
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        state.update(windows.snapshot());
    }

    /** Open windows of this subtask (for tests). */
    int openWindows() {
        return windows.openWindows();
    }
}
