package io.tfstream.operators.window;

import io.tfstream.api.model.BatchKeySelector;
import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.DeadLetterReason;
import io.tfstream.api.model.LateRecords;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.api.model.WindowSettings;
import io.tfstream.operators.deadletter.DeadLetterOutput;
import io.tfstream.operators.parse.LiveSchema;
import io.tfstream.operators.parse.ParseSettings;
import io.tfstream.operators.source.SourceRecordSerializer;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.state.internal.InternalListState;
import org.apache.flink.runtime.state.internal.InternalValueState;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.Triggerable;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Batch-and-parse by tumbling event-time windows, on a keyed stream ({@link BatchKeySelector}):
 * each key's records of one window are kept, as raw bytes, in keyed list state (namespace: the
 * window's start) until the watermark passes the window's end plus the allowed lateness; then they
 * are parsed once, in batches of at most {@code batch.max-records} / {@code batch.max-bytes}, and
 * emitted like the count-batched operator's output (records, dead letters) with the window's
 * payloads numbered under one {@code batch_id}, carrying the window bounds and the key's bytes
 * ({@link BatchKeySelector#keyBytes}) as their grouping key ({@link WindowBatches}). A window's
 * batch never mixes keys. State and timers are checkpointed.
 *
 * <p>Memory: a key's window buffers at most {@link WindowSettings#maxBufferedBytes} of record
 * values; the record that reaches it makes the buffer be parsed and emitted at once, as early
 * payloads of the same window (counted, {@code tfstream.windowEarlyEmits}), and the window goes on
 * buffering. Raw bytes are kept, not parsed pieces: a record is parsed only in a batch, and raw
 * bytes are the smallest state.
 *
 * <p>A record whose window has already closed is late: counted ({@code tfstream.lateRecords}) and
 * sent to the dead letters with reason {@code late}, or dropped.
 *
 * <p>With schema updates ({@link LiveSchema}) a changed schema is taken up before a checkpoint
 * barrier; a window is parsed, batch by batch, with the schema in force when it closes (or emits
 * early), and each payload carries that schema's fingerprint.
 */
@Internal
public final class WindowBatchParseOperator extends AbstractStreamOperator<SourceRecord>
        implements OneInputStreamOperator<SourceRecord, SourceRecord>, Triggerable<Object, Long> {
    private static final long serialVersionUID = 1L;

    private final ParseSettings settings;
    private final WindowSettings window;
    private final BatchKeySelector keys;

    private transient InternalListState<Object, Long, SourceRecord> records;
    private transient InternalValueState<Object, Long, WindowProgress> progress;
    private transient InternalTimerService<Long> timers;
    private transient WindowBatches batches;
    private transient Counter late;
    private transient Counter earlyEmits;
    private transient LiveSchema schema;

    /**
     * @param keys the selector the input stream is keyed by: it turns the keys back into bytes
     */
    public WindowBatchParseOperator(
            ParseSettings settings, WindowSettings window, BatchKeySelector keys) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.window = Objects.requireNonNull(window, "window");
        this.keys = Objects.requireNonNull(keys, "keys");
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        schema =
                LiveSchema.restore(
                        settings,
                        getRuntimeContext().getJobInfo().getJobName(),
                        context,
                        subtask());
        schema.keyedBy(keys.feature());
    }

    /** The fingerprint of the schema the next window batch is parsed with. */
    String schemaFingerprint() {
        return schema.fingerprint();
    }

    private int subtask() {
        return getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
    }

    @Override
    @SuppressWarnings("unchecked")
    public void open() throws Exception {
        super.open();
        batches = new WindowBatches(schema.settings(), getMetricGroup());
        schema.start(subtask());
        late = getMetricGroup().addGroup("tfstream").counter("lateRecords");
        earlyEmits = getMetricGroup().addGroup("tfstream").counter("windowEarlyEmits");
        records =
                (InternalListState<Object, Long, SourceRecord>)
                        getOrCreateKeyedState(
                                LongSerializer.INSTANCE,
                                new ListStateDescriptor<>(
                                        "window-records", SourceRecordSerializer.INSTANCE));
        progress =
                (InternalValueState<Object, Long, WindowProgress>)
                        getOrCreateKeyedState(
                                LongSerializer.INSTANCE,
                                new ValueStateDescriptor<>(
                                        "window-progress", WindowProgressSerializer.INSTANCE));
        timers = getInternalTimerService("window-batches", LongSerializer.INSTANCE, this);
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        // Windows closing at this watermark are parsed (and validated) by its timers, before it is
        // emitted; from now on, records of windows that end at or before it are late.
        super.processWatermark(mark);
        batches.watermarkEmitted(mark.getTimestamp());
    }

    @Override
    public void processElement(StreamRecord<SourceRecord> element) throws Exception {
        SourceRecord r = element.getValue();
        if (batches.corruptRegion(r, output)) {
            return;
        }
        batches.recordIn(r);
        if (!element.hasTimestamp()) {
            late(r, "the record has no event time; event-time windows need one");
            return;
        }
        long start = window.windowStart(element.getTimestamp());
        long closes = window.closesAt(start);
        if (closes <= timers.currentWatermark()) {
            late(
                    r,
                    "event time "
                            + element.getTimestamp()
                            + " falls in window ["
                            + start
                            + ", "
                            + (start + window.sizeMs())
                            + ") which closed at watermark "
                            + closes);
            return;
        }
        records.setCurrentNamespace(start);
        records.add(r);
        progress.setCurrentNamespace(start);
        WindowProgress p = progress.value();
        p = (p == null ? WindowProgress.NONE : p).plusBytes(r.value().length);
        if (p.bufferedBytes() >= window.maxBufferedBytes()) {
            earlyEmits.inc();
            p =
                    batches.emitEarly(
                            records.get(),
                            keyWindow(getCurrentKey(), start),
                            p,
                            output,
                            getProcessingTimeService().getCurrentProcessingTime());
            records.clear();
        }
        progress.update(p);
        timers.registerEventTimeTimer(start, closes);
    }

    private WindowBatches.KeyWindow keyWindow(Object key, long start) {
        String k = String.valueOf(key);
        return new WindowBatches.KeyWindow(k, keys.keyBytes(k), start, start + window.sizeMs());
    }

    private void late(SourceRecord r, String why) {
        late.inc();
        if (window.lateRecords() == LateRecords.DEAD_LETTER) {
            batches.deadLettered(DeadLetterReason.LATE);
            output.collect(
                    DeadLetterOutput.TAG,
                    new StreamRecord<>(new DeadLetter(r, DeadLetterReason.LATE, why)));
        }
    }

    @Override
    public void onEventTime(InternalTimer<Object, Long> timer) throws Exception {
        long start = timer.getNamespace();
        records.setCurrentNamespace(start);
        progress.setCurrentNamespace(start);
        Iterable<SourceRecord> all = records.get();
        WindowProgress p = progress.value();
        if (all != null || p != null) {
            batches.close(
                    all == null ? List.of() : all,
                    keyWindow(timer.getKey(), start),
                    p == null ? WindowProgress.NONE : p,
                    output,
                    getProcessingTimeService().getCurrentProcessingTime());
        }
        records.clear();
        progress.clear();
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        // No batch is open between two elements: windows are parsed whole on their timers.
        if (schema.switchIfChanged(
                output, getProcessingTimeService().getCurrentProcessingTime(), checkpointId)) {
            batches.switchSchema(schema.settings());
        }
        super.prepareSnapshotPreBarrier(checkpointId);
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        schema.snapshot(subtask());
    }

    @Override
    public void close() throws Exception {
        if (schema != null) {
            schema.close();
        }
        super.close();
    }

    @Override
    public void onProcessingTime(InternalTimer<Object, Long> timer) {}
}
