package io.tfstream.sql;

import io.tfstream.parse.SerializedRecords;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Collector;

/**
 * One message holding a serialized {@code tf.train.Example} → one row, as {@link ExampleRowDecoder}
 * maps it. A message that does not parse fails the job with TensorFlow's error and the column at
 * fault, or with {@code ignore-parse-errors} is skipped and counted.
 */
@Internal
public final class TfExampleDeserializationSchema implements DeserializationSchema<RowData> {
    private static final long serialVersionUID = 1L;

    private final ExampleFormatConfig config;
    private final TypeInformation<RowData> producedType;
    private transient ExampleRowDecoder decoder;
    private transient Counter skipped;
    private transient RowData last;

    TfExampleDeserializationSchema(
            ExampleFormatConfig config, TypeInformation<RowData> producedType) {
        this.config = Objects.requireNonNull(config, "config");
        this.producedType = Objects.requireNonNull(producedType, "producedType");
    }

    @Override
    public void open(InitializationContext context) {
        decoder = config.newDecoder();
        skipped = ParseErrorMetric.register(context == null ? null : context.getMetricGroup());
    }

    @Override
    public RowData deserialize(byte[] message) throws IOException {
        if (message == null) {
            return null;
        }
        if (decoder == null) {
            open(null);
        }
        last = null;
        decoder.decode(
                SerializedRecords.of(List.of(message)),
                i -> "message",
                row -> last = row,
                config.ignoreParseErrors() ? (i, m) -> skipped.inc() : null);
        return last;
    }

    @Override
    public void deserialize(byte[] message, Collector<RowData> out) throws IOException {
        RowData row = deserialize(message);
        if (row != null) {
            out.collect(row);
        }
    }

    @Override
    public boolean isEndOfStream(RowData nextElement) {
        return false;
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return producedType;
    }

    /** Records skipped so far under {@code ignore-parse-errors}. */
    long skipped() {
        return skipped == null ? 0 : skipped.getCount();
    }
}
