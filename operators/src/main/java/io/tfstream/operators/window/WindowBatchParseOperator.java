package io.tfstream.operators.window;

import io.tfstream.operators.deadletter.DeadLetter;
import io.tfstream.operators.deadletter.DeadLetterReason;
import io.tfstream.operators.parse.BatchParseOperator;
import io.tfstream.operators.parse.ParseSettings;
import io.tfstream.operators.parse.WindowBatches;
import io.tfstream.operators.source.SourceRecord;
import io.tfstream.operators.source.SourceRecordSerializer;
import java.util.Objects;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.internal.InternalListState;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.Triggerable;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Batch-and-parse by tumbling event-time windows, on a keyed stream ({@link BatchKeySelector}):
 * each key's records of one window are kept, as raw bytes, in keyed list state (namespace: the
 * window's start) until the watermark passes the window's end plus the allowed lateness; then they
 * are parsed once, in batches of at most {@code batch.max-records} / {@code batch.max-bytes}, and
 * emitted like the count-batched operator's output (records, dead letters) with the window's
 * payloads numbered {@code part} 0..{@code parts}-1 under one {@code batch_id} and carrying the
 * window bounds and the key's bytes ({@link BatchKeySelector#keyBytes}) as their grouping key. A
 * window's batch never mixes keys. State and timers are checkpointed; memory holds one window's
 * records per key (they are parsed only at close, so raw bytes are the cheapest thing to keep).
 *
 * <p>A record whose window has already closed is late: counted ({@code tfstream.lateRecords}) and
 * sent to the dead letters with reason {@code late}, or dropped.
 */
public final class WindowBatchParseOperator extends AbstractStreamOperator<SourceRecord>
        implements OneInputStreamOperator<SourceRecord, SourceRecord>, Triggerable<Object, Long> {
    private static final long serialVersionUID = 1L;

    private final ParseSettings settings;
    private final WindowSettings window;
    private final BatchKeySelector keys;

    private transient InternalListState<Object, Long, SourceRecord> records;
    private transient InternalTimerService<Long> timers;
    private transient WindowBatches batches;
    private transient Counter late;

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
    @SuppressWarnings("unchecked")
    public void open() throws Exception {
        super.open();
        batches = new WindowBatches(settings, getMetricGroup());
        late = getMetricGroup().addGroup("tfstream").counter("lateRecords");
        records =
                (InternalListState<Object, Long, SourceRecord>)
                        getOrCreateKeyedState(
                                LongSerializer.INSTANCE,
                                new ListStateDescriptor<>(
                                        "window-records", SourceRecordSerializer.INSTANCE));
        timers = getInternalTimerService("window-batches", LongSerializer.INSTANCE, this);
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
        timers.registerEventTimeTimer(start, closes);
    }

    private void late(SourceRecord r, String why) {
        late.inc();
        if (window.lateToDeadLetters()) {
            batches.deadLettered(DeadLetterReason.LATE);
            output.collect(
                    BatchParseOperator.DEAD_LETTERS,
                    new StreamRecord<>(new DeadLetter(r, DeadLetterReason.LATE, why)));
        }
    }

    @Override
    public void onEventTime(InternalTimer<Object, Long> timer) throws Exception {
        long start = timer.getNamespace();
        records.setCurrentNamespace(start);
        Iterable<SourceRecord> all = records.get();
        if (all != null) {
            String key = String.valueOf(timer.getKey());
            batches.close(
                    all,
                    key,
                    keys.keyBytes(key),
                    start,
                    start + window.sizeMs(),
                    output,
                    getProcessingTimeService().getCurrentProcessingTime());
        }
        records.clear();
    }

    @Override
    public void onProcessingTime(InternalTimer<Object, Long> timer) {}
}
