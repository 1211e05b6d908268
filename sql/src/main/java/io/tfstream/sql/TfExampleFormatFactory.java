package io.tfstream.sql;

import io.tfstream.parse.ParseLimits;
import io.tfstream.spec.schema.FixedLenDefaults;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.format.DecodingFormat;
import org.apache.flink.table.connector.format.EncodingFormat;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.DeserializationFormatFactory;
import org.apache.flink.table.factories.DynamicTableFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.factories.SerializationFormatFactory;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code 'format' = 'tf-example'}: one serialized {@code tf.train.Example} per message, for
 * connectors such as Kafka and upsert-kafka. Column name = feature name; the type table is in
 * {@code docs/sql.md}. Discovered through {@code META-INF/services}.
 */
@Internal
public final class TfExampleFormatFactory extends ExampleFormatFactoryBase
        implements DeserializationFormatFactory, SerializationFormatFactory {

    static final String PREFIX = TfExampleFormatOptions.IDENTIFIER + ".";

    public TfExampleFormatFactory() {
        super(
                TfExampleFormatOptions.IDENTIFIER,
                Set.of(
                        TfExampleFormatOptions.SCHEMA_PATH,
                        TfExampleFormatOptions.IGNORE_PARSE_ERRORS));
    }

    @Override
    public Set<ConfigOption<?>> forwardOptions() {
        return optionalOptions();
    }

    @Override
    public DecodingFormat<DeserializationSchema<RowData>> createDecodingFormat(
            DynamicTableFactory.Context context, ReadableConfig formatOptions) {
        FactoryUtil.validateFactoryOptions(this, formatOptions);
        ParseLimits limits = limits(formatOptions, PREFIX);
        FixedLenDefaults defaults = defaults(formatOptions);
        String schemaPath =
                formatOptions.getOptional(TfExampleFormatOptions.SCHEMA_PATH).orElse(null);
        boolean ignore = formatOptions.get(TfExampleFormatOptions.IGNORE_PARSE_ERRORS);
        return new DecodingFormat<>() {
            @Override
            public DeserializationSchema<RowData> createRuntimeDecoder(
                    DynamicTableSource.Context ctx, DataType physicalDataType) {
                RowType rowType = (RowType) physicalDataType.getLogicalType();
                TypeInformation<RowData> type = ctx.createTypeInformation(physicalDataType);
                return new TfExampleDeserializationSchema(
                        ExampleFormatConfig.create(
                                rowType, schemaPath, ignore, PREFIX, limits, defaults),
                        type);
            }

            @Override
            public ChangelogMode getChangelogMode() {
                return ChangelogMode.insertOnly();
            }
        };
    }

    @Override
    public EncodingFormat<SerializationSchema<RowData>> createEncodingFormat(
            DynamicTableFactory.Context context, ReadableConfig formatOptions) {
        FactoryUtil.validateFactoryOptions(this, formatOptions);
        ParseLimits limits = limits(formatOptions, PREFIX);
        FixedLenDefaults defaults = defaults(formatOptions);
        String schemaPath =
                formatOptions.getOptional(TfExampleFormatOptions.SCHEMA_PATH).orElse(null);
        return new EncodingFormat<>() {
            @Override
            public SerializationSchema<RowData> createRuntimeEncoder(
                    DynamicTableSink.Context ctx, DataType physicalDataType) {
                RowType rowType = (RowType) physicalDataType.getLogicalType();
                if (schemaPath != null) {
                    ExampleFormatConfig.create(
                            rowType, schemaPath, false, PREFIX, limits, defaults);
                }
                return new TfExampleSerializationSchema(rowType);
            }

            @Override
            public ChangelogMode getChangelogMode() {
                return ChangelogMode.insertOnly();
            }
        };
    }
}
