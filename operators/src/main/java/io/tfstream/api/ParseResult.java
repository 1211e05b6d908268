package io.tfstream.api;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.EventTimeSettings;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.api.model.ValidationOutput;
import io.tfstream.operators.deadletter.DeadLetterOutput;
import io.tfstream.operators.parse.BatchParseOperator;
import io.tfstream.operators.parse.LiveSchema;
import io.tfstream.operators.parse.ParseSettings;
import io.tfstream.operators.validation.ValidationSettings;
import io.tfstream.payload.EncodedTensorBatch;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * The streams of one {@link TfstreamParse}: the accepted records (each parsed without error, in
 * input order per subtask), the parsed batches as encoded {@code TensorBatch} messages (only when
 * {@link TfstreamParseBuilder#setTensorBatches} is set) and the dead letters (records that failed
 * the parse, with their reason).
 */
@PublicEvolving
public final class ParseResult {
    private final SingleOutputStreamOperator<SourceRecord> accepted;
    private final ParseSettings settings;

    ParseResult(SingleOutputStreamOperator<SourceRecord> accepted, ParseSettings settings) {
        this.accepted = accepted;
        this.settings = settings;
    }

    /** The records the parse accepted; the parse operator itself (set its parallelism here). */
    public SingleOutputStreamOperator<SourceRecord> accepted() {
        return accepted;
    }

    /** Every record the parse rejected, with the reason and the record's origin. */
    public DataStream<DeadLetter> deadLetters() {
        return accepted.getSideOutput(DeadLetterOutput.TAG);
    }

    /**
     * The parsed batches, each an encoded {@code tfstream.TensorBatch} (dense tensors per feature).
     *
     * @throws IllegalStateException when the parse was built without {@code setTensorBatches}
     */
    public DataStream<EncodedTensorBatch> batches() {
        if (!settings.tensorBatches()) {
            throw new IllegalStateException(
                    "batches: the parse was built without setTensorBatches(fingerprint, maxBytes)");
        }
        return accepted.getSideOutput(BatchParseOperator.TENSOR_BATCHES);
    }

    /** The validation the parse runs per record, or null. */
    ValidationSettings validation() {
        return settings.validation();
    }

    /** Whether event time is the record timestamp (not a feature's value). */
    boolean eventTimeFromTimestamp() {
        return settings.eventTime().source() == EventTimeSettings.Source.KAFKA_TIMESTAMP;
    }

    /**
     * The {@code SCHEMA} alerts of refused schema files (alert JSON keyed by alert id, as the
     * validation alerts): only with {@link TfstreamParseBuilder#setSchemaUpdates}, else empty.
     */
    public DataStream<ValidationOutput> schemaAlerts() {
        return accepted.getSideOutput(LiveSchema.ALERTS);
    }
}
