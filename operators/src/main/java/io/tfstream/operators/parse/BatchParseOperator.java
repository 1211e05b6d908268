package io.tfstream.operators.parse;

import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.deadletter.DeadLetterOutput;
import io.tfstream.operators.deadletter.DeadLetterRateExceededException;
import io.tfstream.parse.RecordBatch;
import io.tfstream.payload.EncodedTensorBatch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
import org.apache.flink.annotation.Internal;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

/**
 * Buffers raw records and parses them once per batch with the lenient batch parser ({@code
 * parse_example} / {@code parse_sequence_example} semantics): accepted records go to the main
 * output with their event time as the record timestamp, rejected ones to {@link
 * DeadLetterOutput#TAG} with a reason and TensorFlow's message for the record alone.
 *
 * <p>A batch closes on {@link BatchTriggers} (records, bytes, processing-time delay), before every
 * checkpoint barrier ({@link #prepareSnapshotPreBarrier}) and at the end of input, so nothing is
 * pending when state is snapshotted: no record is lost or emitted twice after a failure. A
 * watermark that arrives while records are buffered is held back until they are emitted, so that
 * they never become late.
 *
 * <p>With {@link ParseSettings#withSchemaUpdates schema updates} a changed schema file is taken up
 * right after that flush ({@link LiveSchema}): every batch, payload and dead letter carries the
 * fingerprint of the one schema it was parsed with, and the schema in force is checkpointed.
 *
 * <p>With {@link ParseSettings#withConversion conversion} the records are JSON or Avro, buffered as
 * they arrived and decoded straight into the parse of their batch, with the schema in force.
 */
@Internal
public final class BatchParseOperator extends AbstractStreamOperator<SourceRecord>
        implements OneInputStreamOperator<SourceRecord, SourceRecord> {
    private static final long serialVersionUID = 1L;

    /**
     * Each parsed batch with at least one accepted row, as a {@code TensorBatch} (tensors, rows,
     * source ranges, deterministic batch id, schema fingerprint): only when {@link
     * ParseSettings#withTensorBatches} is set. The batch is the one parse of its records.
     */
    public static final OutputTag<EncodedTensorBatch> TENSOR_BATCHES =
            new OutputTag<>("tensor-batches", TensorBatchSerializer.typeInfo());

    private final ParseSettings settings;

    private transient RecordBatch batch;
    private transient List<SourceRecord> pending;
    private transient long[] timestamps;
    private transient boolean[] hasTimestamp;
    private transient ScheduledFuture<?> deadline;
    private transient long batchNumber;
    private transient Watermark heldWatermark;
    private transient BatchEmitter emitter;
    private transient LiveSchema schema;

    public BatchParseOperator(ParseSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
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
    }

    /** The fingerprint of the schema the next batch is parsed with. */
    public String schemaFingerprint() {
        return schema.fingerprint();
    }

    private int subtask() {
        return getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
    }

    @Override
    public void open() throws Exception {
        super.open();
        int initial = Math.min(settings.triggers().maxRecords(), 4096);
        batch = new RecordBatch(initial, 64 << 10);
        pending = new ArrayList<>(initial);
        timestamps = new long[initial];
        hasTimestamp = new boolean[initial];
        emitter = new BatchEmitter(schema.settings(), getMetricGroup());
        schema.start(subtask());
    }

    @Override
    public void processElement(StreamRecord<SourceRecord> element) throws Exception {
        SourceRecord r = element.getValue();
        if (emitter.corruptRegion(r, output)) {
            return;
        }
        int i = pending.size();
        if (i == timestamps.length) {
            int n = i * 2;
            timestamps = Arrays.copyOf(timestamps, n);
            hasTimestamp = Arrays.copyOf(hasTimestamp, n);
        }
        pending.add(r);
        batch.add(r.value(), 0, r.value().length);
        timestamps[i] = element.getTimestamp();
        hasTimestamp[i] = element.hasTimestamp();
        emitter.recordIn(r);
        BatchTriggers t = settings.triggers();
        if (pending.size() >= t.maxRecords() || batch.totalBytes() >= t.maxBytes()) {
            flush();
        } else if (i == 0) {
            long number = batchNumber;
            long due =
                    getProcessingTimeService().getCurrentProcessingTime() + t.maxDelay().toMillis();
            deadline =
                    getProcessingTimeService()
                            .registerTimer(
                                    due,
                                    time -> {
                                        if (batchNumber == number) {
                                            flush();
                                        }
                                    });
        }
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        if (pending.isEmpty()) {
            super.processWatermark(mark);
            emitter.watermarkEmitted(mark.getTimestamp());
        } else {
            heldWatermark = mark;
        }
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        flush();
        // Between two batches, before the barrier: the checkpoint holds the schema batches after
        // it are parsed with.
        if (schema.switchIfChanged(
                output, getProcessingTimeService().getCurrentProcessingTime(), checkpointId)) {
            emitter.switchSchema(schema.settings());
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
    public void finish() throws Exception {
        flush();
        super.finish();
    }

    private long now() {
        return getProcessingTimeService().getCurrentProcessingTime();
    }

    /** Parses and emits the pending records; then any watermark held back. */
    private void flush() throws Exception {
        int n = pending.size();
        batchNumber++;
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
        String tripped = null;
        if (n > 0) {
            tripped = parseAndEmit(n);
            pending.clear();
            batch.clear();
        }
        if (tripped != null) {
            throw new SuppressRestartsException(new DeadLetterRateExceededException(tripped));
        }
        if (heldWatermark != null) {
            Watermark w = heldWatermark;
            heldWatermark = null;
            super.processWatermark(w);
            emitter.watermarkEmitted(w.getTimestamp());
        }
    }

    /** Returns the circuit breaker's message when it trips, else null. */
    private String parseAndEmit(int n) {
        BatchEmitter.Result r =
                emitter.parse(
                        pending,
                        batch,
                        timestamps,
                        hasTimestamp,
                        output,
                        getProcessingTimeService().getCurrentProcessingTime());
        for (EncodedTensorBatch m : r.payloads()) {
            emitter.payloadEmitted(m);
            output.collect(TENSOR_BATCHES, new StreamRecord<>(m));
        }
        return r.tripped();
    }
}
