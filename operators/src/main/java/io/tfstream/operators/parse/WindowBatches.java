package io.tfstream.operators.parse;

import io.tfstream.operators.deadletter.DeadLetterReason;
import io.tfstream.operators.source.SourceRecord;
import io.tfstream.parse.RecordBatch;
import io.tfstream.proto.v1.TensorBatch;
import io.tfstream.tensor.batch.EncodedTensorBatch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.streaming.api.operators.Output;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Closing one key's event-time window: its records parsed once in batches of at most {@code
 * batch.max-records} / {@code batch.max-bytes}, records and dead letters emitted as by {@link
 * BatchParseOperator}, and the window's payloads numbered {@code part} 0..{@code parts}-1 under one
 * {@code batch_id} (derived from the key, the window and the records' source ranges: the same after
 * a restart) with {@code window_start_ms} / {@code window_end_ms} set, and the key's bytes as the
 * payloads' grouping key ({@link EncodedTensorBatch#key}).
 */
public final class WindowBatches {
    private final ParseSettings settings;
    private final BatchParseMetrics metrics;
    private final BatchEmitter emitter;
    private final List<SourceRecord> pending = new ArrayList<>();
    private final RecordBatch batch = new RecordBatch(1024, 64 << 10);
    private long[] timestamps = new long[1024];
    private boolean[] hasTimestamp = new boolean[1024];

    public WindowBatches(ParseSettings settings, MetricGroup operatorGroup) throws Exception {
        this.settings = settings;
        this.metrics = new BatchParseMetrics(operatorGroup);
        this.emitter = new BatchEmitter(settings, metrics);
    }

    /** See {@link BatchEmitter#corruptRegion}. */
    public boolean corruptRegion(SourceRecord r, Output<StreamRecord<SourceRecord>> output) {
        return emitter.corruptRegion(r, output);
    }

    /** Counts a record taken in. */
    public void recordIn(SourceRecord r) {
        metrics.recordIn(r.value().length);
    }

    /** Counts a record dead-lettered outside a parse (e.g. late). */
    public void deadLettered(DeadLetterReason reason) {
        metrics.deadLettered(reason);
    }

    /**
     * Parses and emits the window [start, end) of {@code key} (as bytes: {@code keyBytes}) holding
     * {@code records}.
     */
    public void close(
            Iterable<SourceRecord> records,
            String key,
            byte[] keyBytes,
            long start,
            long end,
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
        if (payloads.isEmpty()) {
            return;
        }
        StringBuilder id = new StringBuilder("window\n").append(key).append('\n');
        id.append(start).append('-').append(end).append('\n');
        for (EncodedTensorBatch m : payloads) {
            id.append(m.meta().getBatchId()).append('/').append(m.meta().getPart()).append('\n');
        }
        String windowId = BatchMetadata.sha256(id.toString()).substring(0, 32);
        int n = payloads.size();
        for (int i = 0; i < n; i++) {
            TensorBatch.Builder b =
                    payloads.get(i).meta().toBuilder()
                            .setBatchId(windowId)
                            .setWindowStartMs(start)
                            .setWindowEndMs(end);
            if (n > 1) {
                b.setPart(i).setParts(n);
            }
            EncodedTensorBatch m = payloads.get(i).withMeta(b.build()).withKey(keyBytes);
            metrics.payload(m.serializedSize());
            output.collect(BatchParseOperator.TENSOR_BATCHES, new StreamRecord<>(m));
        }
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
