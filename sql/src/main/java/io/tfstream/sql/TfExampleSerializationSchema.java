package io.tfstream.sql;

import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/** One row → one message holding a serialized {@code tf.train.Example} of its non-null columns. */
@Internal
public final class TfExampleSerializationSchema implements SerializationSchema<RowData> {
    private static final long serialVersionUID = 1L;

    private final RowType rowType;
    private transient ExampleRowEncoder encoder;

    TfExampleSerializationSchema(RowType rowType) {
        this.rowType = Objects.requireNonNull(rowType, "rowType");
        encoder(); // refuses unsupported columns when the table is used
    }

    @Override
    public void open(InitializationContext context) {
        encoder = encoder();
    }

    private ExampleRowEncoder encoder() {
        return new ExampleRowEncoder(
                ExampleColumn.of(rowType, TfExampleFormatOptions.IDENTIFIER),
                TfExampleFormatOptions.IDENTIFIER);
    }

    @Override
    public byte[] serialize(RowData row) {
        if (encoder == null) {
            encoder = encoder();
        }
        return encoder.encode(row);
    }
}
