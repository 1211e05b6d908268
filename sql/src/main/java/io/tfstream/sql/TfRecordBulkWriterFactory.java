package io.tfstream.sql;

import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordWriter;
import java.io.IOException;
import java.util.Objects;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Rows → a TFRecord file through the core writer: each row a serialized Example of its non-null
 * columns, or with {@code record-format = raw} the one BYTES column as the record. The filesystem
 * sink owns the stream and its exactly-once commit: a bulk file is finished ({@link
 * TfRecordWriter#finish()}, the compressed trailer included) before the checkpoint that commits it.
 */
final class TfRecordBulkWriterFactory implements BulkWriter.Factory<RowData> {
    private static final long serialVersionUID = 1L;

    private final RowType rowType;
    private final boolean raw;
    private final Compression compression;

    TfRecordBulkWriterFactory(RowType rowType, boolean raw, Compression compression) {
        this.rowType = Objects.requireNonNull(rowType, "rowType");
        this.raw = raw;
        this.compression = Objects.requireNonNull(compression, "compression");
        if (!raw) {
            encoder(); // refuses unsupported columns when the table is used
        }
    }

    private ExampleRowEncoder encoder() {
        return new ExampleRowEncoder(
                ExampleColumn.of(rowType, TfRecordFormatOptions.IDENTIFIER),
                TfRecordFormatOptions.IDENTIFIER);
    }

    @Override
    public BulkWriter<RowData> create(FSDataOutputStream out) throws IOException {
        TfRecordWriter writer =
                TfRecordWriter.builder(out).compression(compression).closeTarget(false).build();
        ExampleRowEncoder encoder = raw ? null : encoder();
        return new BulkWriter<>() {
            @Override
            public void addElement(RowData row) throws IOException {
                if (encoder != null) {
                    writer.write(encoder.encode(row));
                } else if (row.isNullAt(0)) {
                    throw new IOException(
                            "record-format raw: the record column '"
                                    + rowType.getFieldNames().get(0)
                                    + "' is NULL; a TFRecord record cannot be NULL");
                } else {
                    writer.write(row.getBinary(0));
                }
            }

            @Override
            public void flush() throws IOException {
                writer.flush();
            }

            @Override
            public void finish() throws IOException {
                writer.finish();
            }
        };
    }
}
