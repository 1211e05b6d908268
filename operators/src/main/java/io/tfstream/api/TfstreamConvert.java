package io.tfstream.api;

import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.convert.ConvertFunction;
import io.tfstream.operators.convert.ConvertSettings;
import io.tfstream.operators.deadletter.DeadLetterOutput;
import io.tfstream.operators.source.SourceRecordSerializer;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * JSON or Avro records to the schema's {@code tf.train.Example}s (docs/conversion.md), as a step of
 * your own DataStream job in front of {@link TfstreamParse}. Built once with {@link #builder()}:
 *
 * <pre>{@code
 * ConvertResult converted = TfstreamConvert.builder()
 *         .setSchemaFile(Path.of("schema.pbtxt"))
 *         .setFormat(InputFormat.AVRO)
 *         .setAvroSchemaFile(Path.of("writer.avsc"))
 *         .build()
 *         .applyTo(records);
 * ParseResult parsed = parse.applyTo(converted.records());
 * DataStream<DeadLetter> dead = converted.deadLetters().union(parsed.deadLetters());
 * }</pre>
 *
 * <p>The step runs chained to its input (no serialization between it and the parse). Its uid and
 * name default to {@value TfstreamConvertBuilder#DEFAULT_UID}, the id {@code tfstream run} uses, so
 * a savepoint of either restores into the other.
 */
@PublicEvolving
public final class TfstreamConvert {
    private final ConvertSettings settings;
    private final String uid;
    private final String name;

    TfstreamConvert(ConvertSettings settings, String uid, String name) {
        this.settings = settings;
        this.uid = uid;
        this.name = name;
    }

    /** A builder: set the schema and the format (required), then what differs from defaults. */
    public static TfstreamConvertBuilder builder() {
        return new TfstreamConvertBuilder();
    }

    /** The checked, serializable settings the operator runs with. */
    ConvertSettings settings() {
        return settings;
    }

    /** The operator's uid (state is matched by it on restore). */
    public String uid() {
        return uid;
    }

    /**
     * The conversion of {@code records}: each converted record keeps its key, headers, position and
     * timestamp (and its original bytes for later dead letters); a record that does not convert is
     * a dead letter with reason {@code conversion_error}.
     */
    public ConvertResult applyTo(DataStream<SourceRecord> records) {
        SingleOutputStreamOperator<SourceRecord> converted =
                records.process(new ConvertFunction(settings))
                        .returns(SourceRecordSerializer.typeInfo())
                        .name(name)
                        .uid(uid);
        return new ConvertResult(converted, converted.getSideOutput(DeadLetterOutput.TAG));
    }
}
