package io.tfstream.operators.window;

import io.tfstream.api.model.DeadLetterReason;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.deadletter.DeadLetterRateExceededException;
import io.tfstream.operators.parse.BatchEmitter;
import io.tfstream.operators.parse.BatchParseOperator;
import io.tfstream.operators.parse.BatchTriggers;
import io.tfstream.operators.parse.ParseSettings;
import io.tfstream.parse.RecordBatch;
import io.tfstream.payload.EncodedTensorBatch;
import io.tfstream.proto.v1.TensorBatch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.streaming.api.operators.Output;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Emitting one key's event-time window: its records parsed once in batches of at most {@code
 * batch.max-records} / {@code batch.max-bytes}, records and dead letters emitted as by {@link
 * BatchParseOperator}, and the window's payloads numbered {@code part} 0, 1, … under one {@code
 * batch_id} (derived from the key, the window and the source ranges of its first payload: the same
 * after a restart) with {@code window_start_ms} / {@code window_end_ms} set, and the key's bytes as
 * the payloads' grouping key ({@link EncodedTensorBatch#key}).
 *
 * <p>A window is emitted at its close, and before it whenever its buffered records reach {@code
 * batch.window-max-buffered-bytes} ({@link #emitEarly}). Payloads emitted at the close carry the
 * window's total in {@code parts} (1 for a window of one payload); payloads emitted early cannot
 * know it and carry {@code parts} 0. A window that emitted early always emits a payload at its
 * close, of no rows if nothing is left, so that its total is always told.
 */
final class WindowBatches {
    /**
     * Bytes the window fields add to a payload after its size was checked: {@code window_start_ms},
     * {@code window_end_ms} and, over a whole batch, {@code part} and {@code parts} (a tag and a
     * varint of at most 10 bytes each for the times, 6 for the numbers).
     */
    static final int WINDOW_FIELDS = 2 * 11 + 2 * 6;

    /** One key's window. */
    record KeyWindow(String key, byte[] keyBytes, long start, long end) {}

    private final ParseSettings settings;
    private final BatchEmitter emitter;
    private final List<SourceRecord> pending = new ArrayList<>();
    private final RecordBatch batch = new RecordBatch(1024, 64 << 10);
    private long[] timestamps = new long[1024];
    private boolean[] hasTimestamp = new boolean[1024];

    WindowBatches(ParseSettings settings, MetricGroup operatorGroup) throws Exception {
        this.settings = settings;
        this.emitter = new BatchEmitter(forEmitter(settings), operatorGroup);
    }

    /** The emitter's settings: payloads leave room for the window fields. */
    private static ParseSettings forEmitter(ParseSettings s) {
        return s.tensorBatches()
                ? s.withTensorBatches(
                        s.tensorBatchFingerprint(), s.maxPayloadBytes() - WINDOW_FIELDS)
                : s;
    }

    /** See {@link BatchEmitter#switchSchema}; the next window batches use {@code next}'s schema. */
    void switchSchema(ParseSettings next) throws Exception {
        emitter.switchSchema(forEmitter(next));
    }

    /** The fingerprint of the schema the next batch is parsed with. */
    String fingerprint() {
        return emitter.fingerprint();
    }

    /** See {@link BatchEmitter#watermarkEmitted}. */
    void watermarkEmitted(long watermark) {
        emitter.watermarkEmitted(watermark);
    }

    /** See {@link BatchEmitter#corruptRegion}. */
    boolean corruptRegion(SourceRecord r, Output<StreamRecord<SourceRecord>> output) {
        return emitter.corruptRegion(r, output);
    }

    /** Counts a record taken in. */
    void recordIn(SourceRecord r) {
        emitter.recordIn(r);
    }

    /** Counts a record dead-lettered outside a parse (e.g. late). */
    void deadLettered(DeadLetterReason reason) {
        emitter.deadLettered(reason);
    }

    /**
     * Parses and emits the buffered {@code records} of the still open window {@code w}, which had
     * emitted {@code before}; returns its progress after (nothing buffered).
     */
    WindowProgress emitEarly(
            Iterable<SourceRecord> records,
            KeyWindow w,
            WindowProgress before,
            Output<StreamRecord<SourceRecord>> output,
            long now) {
        return emit(records, w, before, false, output, now);
    }

    /**
     * Parses and emits the rest of the closing window {@code w}, which had emitted {@code before}.
     */
    void close(
            Iterable<SourceRecord> records,
            KeyWindow w,
            WindowProgress before,
            Output<StreamRecord<SourceRecord>> output,
            long now) {
        emit(records, w, before, true, output, now);
    }

    private WindowProgress emit(
            Iterable<SourceRecord> records,
            KeyWindow w,
            WindowProgress before,
            boolean closing,
            Output<StreamRecord<SourceRecord>> output,
            long now) {
        List<EncodedTensorBatch> payloads = new ArrayList<>();
        BatchTriggers t = settings.triggers();
        for (SourceRecord r : records) {
            int i = pending.size();
            if (i == timestamps.length) {
                timestamps = Arrays.copyOf(timestamps, i * 2);
                hasTimestamp = Arrays.copyOf(hasTimestamp, i * 2);
            }
            pending.add(r);
            batch.add(r.value(), 0, r.value().length);
            timestamps[i] = r.timestamp();
            hasTimestamp[i] = r.timestamp() >= 0;
            if (pending.size() >= t.maxRecords() || batch.totalBytes() >= t.maxBytes()) {
                parse(payloads, output, now);
            }
        }
        parse(payloads, output, now);
        int first = before.partsEmitted();
        if (closing && first > 0 && payloads.isEmpty() && settings.tensorBatches()) {
            payloads.add(emitter.emptyPayload());
        }
        if (payloads.isEmpty()) {
            return new WindowProgress(0, first, before.batchId());
        }
        String id = before.batchId() != null ? before.batchId() : windowId(w, payloads.get(0));
        int n = payloads.size();
        for (int i = 0; i < n; i++) {
            TensorBatch meta =
                    payloads.get(i).meta().toBuilder()
                            .setBatchId(id)
                            .setWindowStartMs(w.start())
                            .setWindowEndMs(w.end())
                            .setPart(first + i)
                            .setParts(closing ? first + n : 0)
                            .build();
            EncodedTensorBatch m = payloads.get(i).withMeta(meta).withKey(w.keyBytes());
            emitter.payloadEmitted(m);
            output.collect(BatchParseOperator.TENSOR_BATCHES, new StreamRecord<>(m));
        }
        return new WindowProgress(0, first + n, id);
    }

    private static String windowId(KeyWindow w, EncodedTensorBatch firstPayload) {
        return BatchEmitter.windowBatchId(
                w.key(), w.start(), w.end(), firstPayload.meta().getBatchId());
    }

    private void parse(
            List<EncodedTensorBatch> payloads,
            Output<StreamRecord<SourceRecord>> output,
            long now) {
        if (pending.isEmpty()) {
            return;
        }
        BatchEmitter.Result r =
                emitter.parse(pending, batch, timestamps, hasTimestamp, output, now);
        pending.clear();
        batch.clear();
        payloads.addAll(r.payloads());
        if (r.tripped() != null) {
            throw new SuppressRestartsException(new DeadLetterRateExceededException(r.tripped()));
        }
    }
}
