package io.tfstream.api;

import io.tfstream.api.model.BatchKeySelector;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.api.model.WindowSettings;
import io.tfstream.operators.compat.Chaining;
import io.tfstream.operators.parse.BatchParseOperator;
import io.tfstream.operators.parse.ParseSettings;
import io.tfstream.operators.source.SourceRecordSerializer;
import io.tfstream.operators.window.WindowBatchParseOperator;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Batch-and-parse as a step of your own DataStream job: serialized {@code tf.train.Example}s (or
 * SequenceExamples) in, a {@link ParseResult} out. Built once with {@link #builder()}:
 *
 * <pre>{@code
 * TfstreamParse parse = TfstreamParse.builder()
 *         .setSchema(schemaBytes, "schema.pbtxt")
 *         .setMaxRecords(256)
 *         .setTensorBatches(fingerprint, 1 << 20)
 *         .build();
 * ParseResult result = parse.applyTo(records);
 * }</pre>
 *
 * <p>Count batches (the default) run chained to their input, one batch per subtask; with {@link
 * TfstreamParseBuilder#setEventTimeWindows} batches are keyed event-time windows. The operator's
 * uid and name default to {@value TfstreamParseBuilder#DEFAULT_UID} (window batches: {@value
 * TfstreamParseBuilder#DEFAULT_WINDOW_UID}), the ids {@code tfstream run} uses, so a savepoint of
 * either restores into the other.
 */
@PublicEvolving
public final class TfstreamParse {
    private final ParseSettings settings;
    private final WindowSettings windows;
    private final BatchKeySelector windowKey;
    private final String uid;
    private final String name;

    TfstreamParse(
            ParseSettings settings,
            WindowSettings windows,
            BatchKeySelector windowKey,
            String uid,
            String name) {
        this.settings = settings;
        this.windows = windows;
        this.windowKey = windowKey;
        this.uid = uid;
        this.name = name;
    }

    /** A builder: set the schema (required), then what differs from the defaults. */
    public static TfstreamParseBuilder builder() {
        return new TfstreamParseBuilder();
    }

    /** The checked, serializable settings the operator runs with. */
    ParseSettings settings() {
        return settings;
    }

    /** The operator's uid (state is matched by it on restore). */
    public String uid() {
        return uid;
    }

    /** The parse of {@code records}, each with its topic, partition, offset and timestamp. */
    public ParseResult applyTo(DataStream<SourceRecord> records) {
        SingleOutputStreamOperator<SourceRecord> accepted;
        if (windows != null) {
            accepted =
                    records.keyBy(windowKey, Types.STRING)
                            .transform(
                                    name,
                                    SourceRecordSerializer.typeInfo(),
                                    new WindowBatchParseOperator(settings, windows, windowKey));
        } else {
            accepted =
                    records.transform(
                            name,
                            SourceRecordSerializer.typeInfo(),
                            new BatchParseOperator(settings));
        }
        Chaining.toInput(accepted).name(name).uid(uid);
        return new ParseResult(accepted, settings);
    }

    /**
     * The parse of bare serialized records. Each becomes a {@link SourceRecord} of topic {@code
     * origin}, partition the subtask index, offset its position in that subtask's stream (counted
     * from 0 at each start) and timestamp the stream record's (0 when it has none).
     */
    public ParseResult applyToBytes(DataStream<byte[]> records, String origin) {
        if (origin == null || origin.isEmpty()) {
            throw new IllegalArgumentException("origin must be a non-empty name");
        }
        DataStream<SourceRecord> wrapped =
                records.process(new ToSourceRecord(origin))
                        .returns(SourceRecordSerializer.typeInfo())
                        .name(name + "-records")
                        .uid(uid + "-records");
        return applyTo(wrapped);
    }

    /** Wraps bare bytes as source records; the offset counts per subtask. */
    private static final class ToSourceRecord extends ProcessFunction<byte[], SourceRecord> {
        private static final long serialVersionUID = 1L;
        private final String origin;
        private long next;

        ToSourceRecord(String origin) {
            this.origin = origin;
        }

        @Override
        public void processElement(byte[] value, Context ctx, Collector<SourceRecord> out) {
            Long ts = ctx.timestamp();
            out.collect(
                    SourceRecord.of(
                            value,
                            origin,
                            getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
                            next++,
                            ts == null ? 0 : ts));
        }
    }
}
