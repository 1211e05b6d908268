package io.tfstream.sql;

import io.tfstream.parse.ParseLimits;
import io.tfstream.spec.schema.FixedLenDefaults;
import io.tfstream.tfrecord.Compression;
import java.util.Locale;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.table.factories.BulkReaderFormatFactory;
import org.apache.flink.connector.file.table.factories.BulkWriterFormatFactory;
import org.apache.flink.connector.file.table.format.BulkDecodingFormat;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.format.EncodingFormat;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.DynamicTableFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code 'format' = 'tfrecord'} for the filesystem connector: TFRecord files read and written
 * through the core codec, records mapped to rows as {@code tf-example} does or, with {@code
 * tfrecord.record-format = raw}, as one BYTES column. Discovered through {@code META-INF/services}.
 */
@Internal
public final class TfRecordFormatFactory extends ExampleFormatFactoryBase
        implements BulkReaderFormatFactory, BulkWriterFormatFactory {

    static final String PREFIX = TfRecordFormatOptions.IDENTIFIER + ".";

    public TfRecordFormatFactory() {
        super(
                TfRecordFormatOptions.IDENTIFIER,
                Set.of(
                        TfRecordFormatOptions.RECORD_FORMAT,
                        TfRecordFormatOptions.COMPRESSION,
                        TfRecordFormatOptions.SCHEMA_PATH,
                        TfRecordFormatOptions.IGNORE_PARSE_ERRORS));
    }

    @Override
    public BulkDecodingFormat<RowData> createDecodingFormat(
            DynamicTableFactory.Context context, ReadableConfig formatOptions) {
        FactoryUtil.validateFactoryOptions(this, formatOptions);
        ParseLimits limits = limits(formatOptions, PREFIX);
        FixedLenDefaults defaults = defaults(formatOptions);
        boolean raw = raw(formatOptions);
        Compression compression = compression(formatOptions, true);
        boolean ignore = formatOptions.get(TfRecordFormatOptions.IGNORE_PARSE_ERRORS);
        String schemaPath =
                formatOptions.getOptional(TfRecordFormatOptions.SCHEMA_PATH).orElse(null);
        return new BulkDecodingFormat<>() {
            @Override
            public BulkFormat<RowData, FileSourceSplit> createRuntimeDecoder(
                    DynamicTableSource.Context ctx, DataType physicalDataType) {
                RowType rowType = (RowType) physicalDataType.getLogicalType();
                ExampleFormatConfig example = null;
                if (raw) {
                    checkRaw(rowType, schemaPath);
                } else {
                    example =
                            ExampleFormatConfig.create(
                                    rowType, schemaPath, ignore, PREFIX, limits, defaults);
                }
                return new TfRecordRowFormat(
                        example,
                        compression,
                        ignore,
                        ctx.createTypeInformation(physicalDataType),
                        ignore ? context.getObjectIdentifier().asSummaryString() : null);
            }

            @Override
            public ChangelogMode getChangelogMode() {
                return ChangelogMode.insertOnly();
            }
        };
    }

    @Override
    public EncodingFormat<BulkWriter.Factory<RowData>> createEncodingFormat(
            DynamicTableFactory.Context context, ReadableConfig formatOptions) {
        FactoryUtil.validateFactoryOptions(this, formatOptions);
        ParseLimits limits = limits(formatOptions, PREFIX);
        FixedLenDefaults defaults = defaults(formatOptions);
        boolean raw = raw(formatOptions);
        Compression compression = compression(formatOptions, false);
        String schemaPath =
                formatOptions.getOptional(TfRecordFormatOptions.SCHEMA_PATH).orElse(null);
        return new EncodingFormat<>() {
            @Override
            public BulkWriter.Factory<RowData> createRuntimeEncoder(
                    DynamicTableSink.Context ctx, DataType physicalDataType) {
                RowType rowType = (RowType) physicalDataType.getLogicalType();
                if (raw) {
                    checkRaw(rowType, schemaPath);
                } else if (schemaPath != null) {
                    ExampleFormatConfig.create(
                            rowType, schemaPath, false, PREFIX, limits, defaults);
                }
                return new TfRecordBulkWriterFactory(rowType, raw, compression);
            }

            @Override
            public ChangelogMode getChangelogMode() {
                return ChangelogMode.insertOnly();
            }
        };
    }

    private static boolean raw(ReadableConfig options) {
        String v = options.get(TfRecordFormatOptions.RECORD_FORMAT).toLowerCase(Locale.ROOT);
        if (v.equals(TfRecordFormatOptions.RAW)) {
            return true;
        }
        if (v.equals(TfRecordFormatOptions.TF_EXAMPLE)) {
            return false;
        }
        throw new ValidationException(
                "'"
                        + PREFIX
                        + TfRecordFormatOptions.RECORD_FORMAT.key()
                        + "' must be 'tf-example' or 'raw', got '"
                        + v
                        + "'");
    }

    /** The configured compression; null for 'auto' when reading (detected per file). */
    private static Compression compression(ReadableConfig options, boolean reading) {
        String v = options.get(TfRecordFormatOptions.COMPRESSION);
        if (v.equalsIgnoreCase("auto")) {
            return reading ? null : Compression.NONE;
        }
        try {
            return Compression.fromCliName(v);
        } catch (IllegalArgumentException e) {
            throw new ValidationException(
                    "'"
                            + PREFIX
                            + TfRecordFormatOptions.COMPRESSION.key()
                            + "' must be auto, none, gzip or zlib, got '"
                            + v
                            + "'");
        }
    }

    private static void checkRaw(RowType rowType, String schemaPath) {
        LogicalTypeRoot root =
                rowType.getFieldCount() == 1 ? rowType.getTypeAt(0).getTypeRoot() : null;
        if (root != LogicalTypeRoot.VARBINARY && root != LogicalTypeRoot.BINARY) {
            throw new ValidationException(
                    "'"
                            + PREFIX
                            + "record-format' = 'raw' needs exactly one BYTES column (the record);"
                            + " the table has "
                            + rowType.asSummaryString());
        }
        if (schemaPath != null) {
            throw new ValidationException(
                    "'" + PREFIX + "schema-path' applies to record-format 'tf-example' only");
        }
    }
}
