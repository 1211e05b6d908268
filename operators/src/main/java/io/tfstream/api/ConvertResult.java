package io.tfstream.api;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.SourceRecord;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * The streams of one {@link TfstreamConvert#applyTo}: the converted records (serialized Examples,
 * ready for {@link TfstreamParse#applyTo}) and the records that did not convert.
 */
@PublicEvolving
public final class ConvertResult {
    private final SingleOutputStreamOperator<SourceRecord> records;
    private final DataStream<DeadLetter> deadLetters;

    ConvertResult(
            SingleOutputStreamOperator<SourceRecord> records, DataStream<DeadLetter> deadLetters) {
        this.records = records;
        this.deadLetters = deadLetters;
    }

    /** The converted records; the convert operator itself (set its parallelism here). */
    public SingleOutputStreamOperator<SourceRecord> records() {
        return records;
    }

    /**
     * The records that did not convert: reason {@code conversion_error}, the field's path in the
     * message, the original JSON or Avro bytes.
     */
    public DataStream<DeadLetter> deadLetters() {
        return deadLetters;
    }

    /** {@code parse} applied to the converted records (the dead letters stay here). */
    public ParseResult parse(TfstreamParse parse) {
        return parse.applyTo(records);
    }
}
