package io.tfstream.sql;

import io.tfstream.spec.DType;
import io.tfstream.testkit.ProtoFeatures;
import java.util.Map;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;

/** Test helpers: Examples built with protobuf-java, and decoders for a row type. */
final class Examples {
    private Examples() {}

    static Feature empty(DType d) {
        switch (d) {
            case INT64:
                return ProtoFeatures.int64s();
            case FLOAT32:
                return ProtoFeatures.floats();
            default:
                return ProtoFeatures.bytes();
        }
    }

    static byte[] example(Map<String, Feature> features) {
        return Example.newBuilder()
                .setFeatures(Features.newBuilder().putAllFeature(features))
                .build()
                .toByteArray();
    }

    static RowType rowType(DataTypes.Field... fields) {
        return (RowType) DataTypes.ROW(fields).getLogicalType();
    }

    static RowType rowType(String name, DataType type) {
        return rowType(DataTypes.FIELD(name, type));
    }

    static TfExampleDeserializationSchema decoder(
            RowType rowType, String schemaPath, boolean ignoreErrors) {
        TfExampleDeserializationSchema s =
                new TfExampleDeserializationSchema(
                        ExampleFormatConfig.create(
                                rowType, schemaPath, ignoreErrors, TfExampleFormatFactory.PREFIX),
                        InternalTypeInfo.of(rowType));
        s.open(null);
        return s;
    }

    static RowData decode(RowType rowType, byte[] record) throws java.io.IOException {
        return decoder(rowType, null, false).deserialize(record);
    }
}
