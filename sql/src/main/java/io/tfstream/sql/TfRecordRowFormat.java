package io.tfstream.sql;

import io.tfstream.tfrecord.Compression;
import java.io.IOException;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * TFRecord files as rows for the filesystem connector: each file read start to end by one reader
 * ({@link TfRecordRowReader}), records parsed a batch at a time. Files are not split; parallelism
 * comes from many files. Also usable directly as a {@code FileSource} format ({@link #rows}, {@link
 * #rawRecords}).
 */
@Internal
public final class TfRecordRowFormat implements BulkFormat<RowData, FileSourceSplit> {
    private static final long serialVersionUID = 1L;

    /** Records per parse batch. */
    static final int BATCH_RECORDS = 1024;

    /** Bytes per parse batch, whichever limit comes first. */
    static final int BATCH_BYTES = 4 << 20;

    private final ExampleFormatConfig example;
    private final Compression compression;
    private final boolean ignoreErrors;
    private final TypeInformation<RowData> producedType;
    private final String table;

    /**
     * @param example the column mapping, or null for {@code record-format = raw}
     * @param compression the configured compression, or null to detect it per file
     * @param table the table whose {@link SkipCounters} count what is skipped, or null for none
     */
    TfRecordRowFormat(
            ExampleFormatConfig example,
            Compression compression,
            boolean ignoreErrors,
            TypeInformation<RowData> producedType,
            String table) {
        this.example = example;
        this.compression = compression;
        this.ignoreErrors = ignoreErrors;
        this.producedType = Objects.requireNonNull(producedType, "producedType");
        this.table = table;
    }

    /**
     * Rows of {@code rowType} mapped from each record as {@code 'format' = 'tfrecord'} does,
     * compression detected per file.
     *
     * @param schemaPath a TFMD schema or SPEC.json (see {@code tfrecord.schema-path}), or null
     * @throws org.apache.flink.table.api.ValidationException naming a column that does not map
     */
    public static TfRecordRowFormat rows(
            RowType rowType,
            String schemaPath,
            boolean ignoreErrors,
            TypeInformation<RowData> producedType) {
        return new TfRecordRowFormat(
                ExampleFormatConfig.create(
                        rowType, schemaPath, ignoreErrors, TfRecordFormatFactory.PREFIX),
                null,
                ignoreErrors,
                producedType,
                null);
    }

    /** Each record as a one-column row of its bytes ({@code tfrecord.record-format = raw}). */
    public static TfRecordRowFormat rawRecords(TypeInformation<RowData> producedType) {
        return new TfRecordRowFormat(null, null, false, producedType, null);
    }

    @Override
    public Reader<RowData> createReader(Configuration config, FileSourceSplit split)
            throws IOException {
        return new TfRecordRowReader(this, split, 0, 0);
    }

    @Override
    public Reader<RowData> restoreReader(Configuration config, FileSourceSplit split)
            throws IOException {
        CheckpointedPosition p = split.getReaderPosition().orElse(new CheckpointedPosition(0, 0));
        long offset = p.getOffset() == CheckpointedPosition.NO_OFFSET ? 0 : p.getOffset();
        return new TfRecordRowReader(this, split, offset, p.getRecordsAfterOffset());
    }

    @Override
    public boolean isSplittable() {
        return false;
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return producedType;
    }

    ExampleFormatConfig example() {
        return example;
    }

    Compression compression() {
        return compression;
    }

    boolean ignoreErrors() {
        return ignoreErrors;
    }

    /** The counters of what is skipped, or null when no table is named. */
    SkipCounters skipCounters() {
        return table == null ? null : SkipCounters.of(table);
    }
}
