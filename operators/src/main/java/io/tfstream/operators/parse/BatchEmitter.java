package io.tfstream.operators.parse;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.DeadLetterReason;
import io.tfstream.api.model.EventTimeSettings;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.deadletter.DeadLetterOutput;
import io.tfstream.operators.deadletter.DeadLetterRate;
import io.tfstream.operators.deadletter.ParseRejections;
import io.tfstream.operators.files.TfRecordFileFormat;
import io.tfstream.operators.validation.BatchValidation;
import io.tfstream.parse.ConvertedExamples;
import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.InputRejectedException;
import io.tfstream.parse.Int64FeatureColumn;
import io.tfstream.parse.LenientBatchParser;
import io.tfstream.parse.ParsedRows;
import io.tfstream.parse.RecordBatch;
import io.tfstream.payload.EncodedTensorBatch;
import io.tfstream.payload.TensorBatchSplitter;
import io.tfstream.payload.TensorBatchWriter;
import io.tfstream.proto.v1.TensorBatch;
import io.tfstream.spec.ParseSpec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.streaming.api.operators.Output;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * The one parse of a batch and what follows from it, shared by the batch-and-parse operators:
 * rejected records (and records whose event-time feature is missing, or whose payload alone is too
 * large) to the dead letters with their reason and TensorFlow's message, accepted records to the
 * main output with their event time, the batch's tensor payloads returned to the caller (which
 * numbers and emits them), metrics and the dead-letter circuit breaker; with validation on, the
 * validation of the accepted rows from the parser's columns before anything is emitted, so that a
 * diverted record is a dead letter and in no payload.
 */
@Internal
public final class BatchEmitter {
    private ParseSettings settings;
    private final BatchParseMetrics metrics;
    private LenientBatchParser parser;
    private TensorBatchSplitter splitter;
    private String fingerprint;
    private boolean tagRecords;
    private final DeadLetterRate rate;
    private final BatchValidation validation;
    private final List<ExampleParseException> rejected = new ArrayList<>();
    private String[] errors = new String[64];
    private DeadLetterReason[] reasons = new DeadLetterReason[64];

    // The batch being handled, for the helpers below.
    private List<SourceRecord> pending;
    private RecordBatch batch;
    private long[] timestamps;
    private boolean[] hasTimestamp;

    /** The payloads of a batch and the circuit breaker's message when it tripped (else null). */
    public record Result(List<EncodedTensorBatch> payloads, String tripped) {}

    public BatchEmitter(ParseSettings settings, org.apache.flink.metrics.MetricGroup group)
            throws Exception {
        this.metrics = new BatchParseMetrics(group, settings.conversion() != null);
        useSchema(settings);
        this.rate = settings.guard().enabled() ? new DeadLetterRate(settings.guard()) : null;
        this.validation =
                settings.validation() == null
                        ? null
                        : new BatchValidation(
                                settings.validation(),
                                settings.eventTime().source() == EventTimeSettings.Source.FEATURE,
                                settings.validationLagMillis(),
                                group);
    }

    private void useSchema(ParseSettings s) throws Exception {
        this.settings = s;
        this.fingerprint = s.schemaFingerprint();
        // Only a schema that may change needs naming per record (no allocation otherwise).
        this.tagRecords = s.schemaUpdates() != null;
        ParseSpec spec = s.spec();
        if (s.conversion() != null) {
            // JSON or Avro straight into the columns, with the schema in force.
            this.parser = LenientBatchParser.create(spec, s.limits(), s.conversion().decoder(spec));
            parser.keepExamples(s.acceptedExamples());
        } else {
            this.parser = LenientBatchParser.create(spec, s.limits());
        }
        if (s.validation() != null) {
            parser.trackRows(); // validation reads the parser's columns
        }
        this.splitter =
                s.tensorBatches() ? new TensorBatchSplitter(parser, s.maxPayloadBytes()) : null;
    }

    /**
     * Parses the next batches with the schema of {@code next} (the same settings but the schema
     * file, {@link ParseSettings#withSchema}); metrics and the circuit breaker carry on. Called
     * between batches only, so a batch is parsed with one schema.
     */
    public void switchSchema(ParseSettings next) throws Exception {
        useSchema(next);
        if (validation != null) {
            validation.switchSchema(next.validation());
        }
    }

    /** The fingerprint of the schema the next batch is parsed with. */
    public String fingerprint() {
        return fingerprint;
    }

    /** Counts a record taken in. */
    public void recordIn(SourceRecord r) {
        metrics.recordIn(r.value().length);
    }

    /** Counts a record dead-lettered outside a parse (e.g. late). */
    public void deadLettered(DeadLetterReason reason) {
        metrics.deadLettered(reason);
    }

    /** Counts a payload the caller emits. */
    public void payloadEmitted(EncodedTensorBatch payload) {
        metrics.payload(payload.serializedSize());
    }

    /**
     * The batch id shared by the payloads of one key's window: derived from the key, the window and
     * the id of its first payload, so the same after a restart.
     */
    public static String windowBatchId(String key, long start, long end, String firstBatchId) {
        return BatchMetadata.sha256(
                        "window\n" + key + '\n' + start + '-' + end + '\n' + firstBatchId)
                .substring(0, 32);
    }

    /** The watermark the operator has just emitted (validation's late records). */
    public void watermarkEmitted(long watermark) {
        if (validation != null) {
            validation.watermark(watermark);
        }
    }

    /**
     * A damaged region of a file source ({@link TfRecordFileFormat#CORRUPT_HEADER}): nothing to
     * parse, so it goes straight to the dead letters; returns whether {@code r} was one.
     */
    public boolean corruptRegion(SourceRecord r, Output<StreamRecord<SourceRecord>> output) {
        if (!r.fromFile() || r.headerCount() == 0) {
            return false;
        }
        byte[] corrupt = r.lastHeader(TfRecordFileFormat.CORRUPT_HEADER);
        if (corrupt == null) {
            return false;
        }
        metrics.recordIn(r.value().length);
        metrics.deadLettered(DeadLetterReason.CORRUPT_INPUT);
        output.collect(
                DeadLetterOutput.TAG,
                new StreamRecord<>(
                        new DeadLetter(
                                r,
                                DeadLetterReason.CORRUPT_INPUT,
                                new String(corrupt, StandardCharsets.UTF_8),
                                fingerprint)));
        return true;
    }

    /**
     * Parses {@code batch} (the bytes of {@code pending}, with their event times, which a feature's
     * event time replaces), emits the records and dead letters to {@code output}, and returns the
     * payloads (when on) and the circuit breaker's verdict at {@code now}.
     */
    public Result parse(
            List<SourceRecord> pending,
            RecordBatch batch,
            long[] timestamps,
            boolean[] hasTimestamp,
            Output<StreamRecord<SourceRecord>> output,
            long now) {
        this.pending = pending;
        this.batch = batch;
        this.timestamps = timestamps;
        this.hasTimestamp = hasTimestamp;
        int n = pending.size();
        if (errors.length < n) {
            errors = Arrays.copyOf(errors, Math.max(n, errors.length * 2));
            reasons = Arrays.copyOf(reasons, errors.length);
        }
        long start = System.nanoTime();
        rejected.clear();
        ParsedRows rows = parser.parse(batch, rejected::add);
        metrics.batchParsed(n, System.nanoTime() - start);
        // Converted input: the records' Examples, written or converted when asked for.
        ConvertedExamples examples = parser.convertedExamples();
        Arrays.fill(errors, 0, n, null);
        int conversionErrors = 0;
        for (ExampleParseException e : rejected) {
            int i = e.recordIndex();
            if (i < 0 || i >= n) {
                throw new IllegalStateException("rejection without a record: " + e.getMessage(), e);
            }
            errors[i] = e.getMessage();
            reasons[i] = ParseRejections.reason(e);
            if (e instanceof InputRejectedException) {
                conversionErrors++;
            }
        }
        if (examples != null) {
            metrics.converted(n, conversionErrors, parser.ignoredFields());
        }
        EventTimeSettings et = settings.eventTime();
        if (et.source() == EventTimeSettings.Source.FEATURE) {
            assignFeatureTimes(rows, et);
        }
        if (validation != null) {
            validation.validate(
                    parser.rawColumns(),
                    examples != null ? examples : batch,
                    rows,
                    pending,
                    timestamps,
                    hasTimestamp,
                    errors,
                    (i, why) -> {
                        errors[i] = why;
                        reasons[i] = DeadLetterReason.VALIDATION;
                    });
        }
        List<EncodedTensorBatch> payloads = splitter != null ? tensorBatches(rows) : List.of();
        long dead = 0;
        for (int i = 0; i < n; i++) {
            SourceRecord r = pending.get(i);
            if (errors[i] != null) {
                if (reasons[i] != DeadLetterReason.VALIDATION) {
                    dead++; // the circuit breaker judges unreadable records, not diverted ones
                }
                metrics.deadLettered(reasons[i]);
                output.collect(
                        DeadLetterOutput.TAG,
                        new StreamRecord<>(new DeadLetter(r, reasons[i], errors[i], fingerprint)));
            } else {
                metrics.accepted();
                if (examples != null && settings.acceptedExamples()) {
                    r = r.withConvertedValue(examples.example(i));
                }
                if (validation != null) {
                    r = validation.marked(r, i);
                }
                if (tagRecords) {
                    r = r.withSchemaFingerprint(fingerprint); // the shard sink rolls on a change
                }
                output.collect(
                        hasTimestamp[i]
                                ? new StreamRecord<>(r, timestamps[i])
                                : new StreamRecord<>(r));
            }
        }
        if (validation != null) {
            validation.emit(output);
        }
        this.pending = null;
        this.batch = null;
        return new Result(payloads, rate == null ? null : rate.add(now, n, dead));
    }

    /**
     * The batch's tensors over its accepted rows, as one message or, when over the payload limit,
     * as parts (rows in order). A row whose event time turned out invalid, or that validation
     * diverted, is dead-lettered and so left out: the batch is then narrowed to the remaining rows.
     * A record too big for any message alone is dead-lettered as {@code too_large}.
     */
    private List<EncodedTensorBatch> tensorBatches(ParsedRows rows) {
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
            return List.of();
        }
        ParsedRows out = rows;
        if (kept < rows.rows()) {
            // Rare: rows rejected after the parse (event time, validation); parse the rest again.
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
        return result.messages();
    }

    /**
     * A payload of no rows ({@code parse_example} over no records) with the schema fingerprint, for
     * a caller that must emit one (a window telling its total); tensor payloads must be on.
     */
    public EncodedTensorBatch emptyPayload() {
        ParsedRows none =
                parser.parse(
                        RecordBatch.of(List.of()),
                        e -> {
                            throw new IllegalStateException("no records, yet a rejection", e);
                        });
        return new EncodedTensorBatch(
                TensorBatchWriter.write(none),
                TensorBatch.newBuilder()
                        .setSchemaFingerprint(settings.tensorBatchFingerprint())
                        .build());
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
