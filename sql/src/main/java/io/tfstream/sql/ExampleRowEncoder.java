package io.tfstream.sql;

import com.google.protobuf.ByteString;
import java.util.List;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;
import org.tensorflow.example.BytesList;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.example.FloatList;
import org.tensorflow.example.Int64List;

/**
 * A table row → a serialized {@code tf.train.Example} holding exactly its non-null columns, each as
 * the feature of the column's name (the inverse of {@link ExampleRowDecoder} without a schema).
 * Nested arrays are refused when the table is used: a ragged feature's partitions are separate
 * features that a row does not describe.
 */
final class ExampleRowEncoder {
    private final List<ExampleColumn> columns;

    ExampleRowEncoder(List<ExampleColumn> columns, String format) {
        for (ExampleColumn c : columns) {
            if (c.depth() > 1) {
                throw new ValidationException(
                        "Column '"
                                + c.name()
                                + "' is a nested ARRAY; the '"
                                + format
                                + "' format writes scalars and ARRAYs of scalars only");
            }
        }
        this.columns = List.copyOf(columns);
    }

    byte[] encode(RowData row) {
        Features.Builder features = Features.newBuilder();
        for (int i = 0; i < columns.size(); i++) {
            if (row.isNullAt(i)) {
                continue;
            }
            ExampleColumn c = columns.get(i);
            features.putFeature(
                    c.name(), c.depth() == 0 ? scalar(c, row, i) : list(c, row.getArray(i)));
        }
        return Example.newBuilder().setFeatures(features).build().toByteArray();
    }

    private static Feature scalar(ExampleColumn c, RowData row, int i) {
        switch (c.dtype()) {
            case INT64:
                return int64s(Int64List.newBuilder().addValue(int64(c, row, i)));
            case FLOAT32:
                return floats(FloatList.newBuilder().addValue(float32(c, row, i)));
            default:
                return bytes(BytesList.newBuilder().addValue(bytes(c, row, i)));
        }
    }

    private static Feature list(ExampleColumn c, ArrayData a) {
        int n = a.size();
        for (int k = 0; k < n; k++) {
            if (a.isNullAt(k)) {
                throw new IllegalArgumentException(
                        "Column '"
                                + c.name()
                                + "': element "
                                + k
                                + " of the ARRAY is NULL; a feature list cannot hold NULL");
            }
        }
        switch (c.dtype()) {
            case INT64:
                Int64List.Builder l = Int64List.newBuilder();
                for (int k = 0; k < n; k++) {
                    l.addValue(int64(c, a, k));
                }
                return int64s(l);
            case FLOAT32:
                FloatList.Builder f = FloatList.newBuilder();
                for (int k = 0; k < n; k++) {
                    f.addValue(float32(c, a, k));
                }
                return floats(f);
            default:
                BytesList.Builder b = BytesList.newBuilder();
                for (int k = 0; k < n; k++) {
                    b.addValue(bytes(c, a, k));
                }
                return bytes(b);
        }
    }

    private static Feature int64s(Int64List.Builder l) {
        return Feature.newBuilder().setInt64List(l).build();
    }

    private static Feature floats(FloatList.Builder l) {
        return Feature.newBuilder().setFloatList(l).build();
    }

    private static Feature bytes(BytesList.Builder l) {
        return Feature.newBuilder().setBytesList(l).build();
    }

    private static long int64(ExampleColumn c, RowData r, int i) {
        switch (c.leaf()) {
            case BIGINT:
                return r.getLong(i);
            case INTEGER:
                return r.getInt(i);
            case SMALLINT:
                return r.getShort(i);
            case TINYINT:
                return r.getByte(i);
            case BOOLEAN:
                return r.getBoolean(i) ? 1 : 0;
            default: // timestamps, precision <= 3
                return r.getTimestamp(i, 3).getMillisecond();
        }
    }

    private static long int64(ExampleColumn c, ArrayData a, int k) {
        switch (c.leaf()) {
            case BIGINT:
                return a.getLong(k);
            case INTEGER:
                return a.getInt(k);
            case SMALLINT:
                return a.getShort(k);
            case TINYINT:
                return a.getByte(k);
            case BOOLEAN:
                return a.getBoolean(k) ? 1 : 0;
            default:
                return a.getTimestamp(k, 3).getMillisecond();
        }
    }

    private static float float32(ExampleColumn c, RowData r, int i) {
        return c.leaf() == org.apache.flink.table.types.logical.LogicalTypeRoot.FLOAT
                ? r.getFloat(i)
                : (float) r.getDouble(i);
    }

    private static float float32(ExampleColumn c, ArrayData a, int k) {
        return c.leaf() == org.apache.flink.table.types.logical.LogicalTypeRoot.FLOAT
                ? a.getFloat(k)
                : (float) a.getDouble(k);
    }

    private static ByteString bytes(ExampleColumn c, RowData r, int i) {
        return ByteString.copyFrom(c.text() ? r.getString(i).toBytes() : r.getBinary(i));
    }

    private static ByteString bytes(ExampleColumn c, ArrayData a, int k) {
        return ByteString.copyFrom(c.text() ? a.getString(k).toBytes() : a.getBinary(k));
    }
}
