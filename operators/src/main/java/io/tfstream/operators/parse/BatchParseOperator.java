package io.tfstream.operators.parse;

import io.tfstream.operators.deadletter.DeadLetter;
import io.tfstream.operators.deadletter.DeadLetterReason;
import io.tfstream.operators.deadletter.DeadLetterSerializer;
import io.tfstream.operators.files.TfRecordFileFormat;
import io.tfstream.operators.source.SourceRecord;
import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.Int64FeatureColumn;
import io.tfstream.parse.LenientBatchParser;
import io.tfstream.parse.ParsedRows;
import io.tfstream.parse.RecordBatch;
import io.tfstream.proto.v1.TensorBatch;
import io.tfstream.tensor.batch.TensorBatchSplitter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

/**
 * Buffers raw records and parses them once per batch with the lenient batch parser ({@code
 * parse_example} / {@code parse_sequence_example} semantics): accepted records go to the main
 * output with their event time as the record timestamp, rejected ones to {@link #DEAD_LETTERS} with
 * a reason and TensorFlow's message for the record alone.
 *
 * <p>A batch closes on {@link BatchTriggers} (records, bytes, processing-time delay), before every
 * checkpoint barrier ({@link #prepareSnapshotPreBarrier}) and at the end of input, so nothing is
 * pending when state is snapshotted: no record is lost or emitted twice after a failure. A
 * watermark that arrives while records are buffered is held back until they are emitted, so that
 * they never become late.
 */
public final class BatchParseOperator extends AbstractStreamOperator<SourceRecord>
        implements OneInputStreamOperator<SourceRecord, SourceRecord> {
    private static final long serialVersionUID = 1L;

    /** Records the parser rejected, or whose event time is missing or invalid. */
    public static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>("dead-letters", DeadLetterSerializer.typeInfo());

    /**
     * Each parsed batch with at least one accepted row, as a {@code TensorBatch} (tensors, rows,
     * source ranges, deterministic batch id, schema fingerprint): only when {@link
     * ParseSettings#withTensorBatches} is set. The batch is the one parse of its records.
     */
    public static final OutputTag<TensorBatch> TENSOR_BATCHES =
            new OutputTag<>("tensor-batches", TensorBatchSerializer.typeInfo());

    private final ParseSettings settings;

    private transient LenientBatchParser parser;
    private transient RecordBatch batch;
    private transient List<SourceRecord> pending;
    private transient long[] timestamps;
    private transient boolean[] hasTimestamp;
    private transient String[] errors;
    private transient DeadLetterReason[] reasons;
    private transient List<ExampleParseException> rejected;
    private transient ScheduledFuture<?> deadline;
    private transient long batchNumber;
    private transient Watermark heldWatermark;
    private transient DeadLetterRate rate;
    private transient BatchParseMetrics metrics;
    private transient TensorBatchSplitter splitter;

    public BatchParseOperator(ParseSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    @Override
    public void open() throws Exception {
        super.open();
        parser = LenientBatchParser.create(settings.spec(), settings.limits());
        int initial = Math.min(settings.triggers().maxRecords(), 4096);
        batch = new RecordBatch(initial, 64 << 10);
        pending = new ArrayList<>(initial);
        timestamps = new long[initial];
        hasTimestamp = new boolean[initial];
        errors = new String[initial];
        reasons = new DeadLetterReason[initial];
        rejected = new ArrayList<>();
        rate = settings.guard().enabled() ? new DeadLetterRate(settings.guard()) : null;
        metrics = new BatchParseMetrics(getMetricGroup());
        if (settings.tensorBatches()) {
            splitter = new TensorBatchSplitter(parser, settings.maxPayloadBytes());
        }
    }

    @Override
    public void processElement(StreamRecord<SourceRecord> element) throws Exception {
        SourceRecord r = element.getValue();
        if (r.fromFile() && r.headerCount() > 0) {
            byte[] corrupt = r.lastHeader(TfRecordFileFormat.CORRUPT_HEADER);
            if (corrupt != null) {
                // A damaged region of a file source: nothing to parse, straight to dead letters.
                metrics.recordIn(r.value().length);
                metrics.deadLettered(DeadLetterReason.CORRUPT_INPUT);
                output.collect(
                        DEAD_LETTERS,
                        new StreamRecord<>(
                                new DeadLetter(
                                        r,
                                        DeadLetterReason.CORRUPT_INPUT,
                                        new String(
                                                corrupt,
                                                java.nio.charset.StandardCharsets.UTF_8))));
                return;
            }
        }
        int i = pending.size();
        if (i == timestamps.length) {
            int n = i * 2;
            timestamps = Arrays.copyOf(timestamps, n);
            hasTimestamp = Arrays.copyOf(hasTimestamp, n);
            errors = Arrays.copyOf(errors, n);
            reasons = Arrays.copyOf(reasons, n);
        }
        pending.add(r);
        batch.add(r.value(), 0, r.value().length);
        timestamps[i] = element.getTimestamp();
        hasTimestamp[i] = element.hasTimestamp();
        metrics.recordIn(r.value().length);
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
        } else {
            heldWatermark = mark;
        }
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        flush();
        super.prepareSnapshotPreBarrier(checkpointId);
    }

    @Override
    public void finish() throws Exception {
        flush();
        super.finish();
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
        }
    }

    /** Returns the circuit breaker's message when it trips, else null. */
    private String parseAndEmit(int n) {
        long start = System.nanoTime();
        rejected.clear();
        ParsedRows rows = parser.parse(batch, rejected::add);
        metrics.batchParsed(n, System.nanoTime() - start);
        Arrays.fill(errors, 0, n, null);
        for (ExampleParseException e : rejected) {
            int i = e.recordIndex();
            if (i < 0 || i >= n) {
                throw new IllegalStateException("rejection without a record: " + e.getMessage(), e);
            }
            errors[i] = e.getMessage();
            reasons[i] = DeadLetterReason.of(e);
        }
        EventTimeSettings et = settings.eventTime();
        if (et.source() == EventTimeSettings.Source.FEATURE) {
            assignFeatureTimes(rows, et);
        }
        long dead = 0;
        if (settings.tensorBatches()) {
            emitTensorBatch(rows);
        }
        for (int i = 0; i < n; i++) {
            SourceRecord r = pending.get(i);
            if (errors[i] != null) {
                dead++;
                metrics.deadLettered(reasons[i]);
                output.collect(
                        DEAD_LETTERS, new StreamRecord<>(new DeadLetter(r, reasons[i], errors[i])));
            } else {
                metrics.accepted();
                output.collect(
                        hasTimestamp[i]
                                ? new StreamRecord<>(r, timestamps[i])
                                : new StreamRecord<>(r));
            }
        }
        return rate == null
                ? null
                : rate.add(getProcessingTimeService().getCurrentProcessingTime(), n, dead);
    }

    /**
     * The batch's tensors over its accepted rows, as one message or, when over the payload limit,
     * as parts (rows in order). A row whose event time turned out invalid is dead-lettered and so
     * left out: the batch is then narrowed to the remaining rows. A record too big for any message
     * alone is dead-lettered as {@code too_large}.
     */
    private void emitTensorBatch(ParsedRows rows) {
        long start = System.nanoTime();
        int[] recordOfRow = new int[rows.rows()];
        int kept = 0;
        for (int row = 0; row < rows.rows(); row++) {
            int i = rows.recordIndex(row);
            if (errors[i] == null) {
                recordOfRow[kept++] = i;
            }
        }
        if (kept == 0) {
            return;
        }
        ParsedRows out = rows;
        if (kept < rows.rows()) {
            // Rare: rows rejected for their event time after the parse; parse the rest again.
            out =
                    parser.parseSubset(
                            batch,
                            recordOfRow,
                            kept,
                            e -> {
                                throw new IllegalStateException(
                                        "a record accepted once was rejected: " + e.getMessage(),
                                        e);
                            });
        }
        // The id of the whole batch, shared by its parts: the same input gives the same id.
        TensorBatch.Builder whole = TensorBatch.newBuilder();
        String batchId = BatchMetadata.sources(whole, pending, recordOfRow, kept);
        String fingerprint = settings.tensorBatchFingerprint();
        int rowCount = kept;
        TensorBatchSplitter.Result result =
                splitter.split(
                        batch,
                        out,
                        recordOfRow,
                        kept,
                        (b, records, count) -> {
                            if (count == rowCount) {
                                b.addAllSources(whole.getSourcesList());
                            } else {
                                BatchMetadata.sources(b, pending, records, count);
                            }
                            return b.setBatchId(batchId).setSchemaFingerprint(fingerprint);
                        });
        for (int k = 0; k < result.tooLarge().length; k++) {
            int i = result.tooLarge()[k];
            errors[i] =
                    "the record alone makes a TensorBatch payload of "
                            + result.tooLargeBytes()[k]
                            + " bytes, over the payload limit of "
                            + settings.maxPayloadBytes()
                            + " bytes (output.batches.max-message-bytes)";
            reasons[i] = DeadLetterReason.TOO_LARGE;
        }
        metrics.batchEncoded(result.messages().size(), System.nanoTime() - start);
        for (TensorBatch m : result.messages()) {
            metrics.payload(m.getSerializedSize());
            output.collect(TENSOR_BATCHES, new StreamRecord<>(m));
        }
    }

    /** Event time from the feature: accepted rows get it, rows without a valid one are rejected. */
    private void assignFeatureTimes(ParsedRows rows, EventTimeSettings et) {
        Int64FeatureColumn column = Int64FeatureColumn.of(rows, et.feature());
        for (int row = 0; row < rows.rows(); row++) {
            int i = rows.recordIndex(row);
            if (!column.present(row)) {
                errors[i] = "event-time feature '" + et.feature() + "' has no value";
                reasons[i] = DeadLetterReason.PARSE_ERROR;
                continue;
            }
            long millis = et.unit().toEpochMillis(column.value(row));
            if (millis < 0) {
                errors[i] =
                        "event-time feature '"
                                + et.feature()
                                + "' has value "
                                + column.value(row)
                                + ", not epoch "
                                + et.unit().name().toLowerCase(java.util.Locale.ROOT)
                                + " in [0, "
                                + et.unit().toEpochMillisLimit()
                                + "]";
                reasons[i] = DeadLetterReason.PARSE_ERROR;
                continue;
            }
            timestamps[i] = millis;
            hasTimestamp[i] = true;
        }
    }
}
