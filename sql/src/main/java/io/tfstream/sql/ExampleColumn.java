package io.tfstream.sql;

import io.tfstream.spec.DType;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * How one table column maps to an Example feature of the same name: its array depth (0 for a
 * scalar, 1 for {@code ARRAY<T>}, 2 for {@code ARRAY<ARRAY<T>>}, ...), the SQL type of its leaf
 * values and the feature list that carries them ({@code int64_list}, {@code float_list}, {@code
 * bytes_list}).
 */
record ExampleColumn(String name, int depth, LogicalTypeRoot leaf, DType dtype) {

    /**
     * The columns of {@code rowType}, in order.
     *
     * @throws ValidationException naming the first column whose type has no feature mapping
     */
    static List<ExampleColumn> of(RowType rowType, String format) {
        List<ExampleColumn> out = new ArrayList<>();
        for (RowType.RowField f : rowType.getFields()) {
            out.add(of(f.getName(), f.getType(), format));
        }
        return out;
    }

    static ExampleColumn of(String name, LogicalType type, String format) {
        int depth = 0;
        LogicalType t = type;
        while (t instanceof ArrayType a) {
            depth++;
            t = a.getElementType();
        }
        DType dtype = dtypeOf(t);
        if (dtype == null) {
            throw new ValidationException(
                    "Column '"
                            + name
                            + "' has type "
                            + type.asSummaryString()
                            + ", which the '"
                            + format
                            + "' format does not map to a tf.train.Feature. Supported: BIGINT, INT,"
                            + " SMALLINT, TINYINT, BOOLEAN, TIMESTAMP(3), TIMESTAMP_LTZ(3) (int64_list),"
                            + " FLOAT, DOUBLE (float_list), STRING, BYTES (bytes_list) and ARRAYs of"
                            + " them.");
        }
        return new ExampleColumn(name, depth, t.getTypeRoot(), dtype);
    }

    private static DType dtypeOf(LogicalType t) {
        switch (t.getTypeRoot()) {
            case BIGINT:
            case INTEGER:
            case SMALLINT:
            case TINYINT:
            case BOOLEAN:
                return DType.INT64;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return ((TimestampType) t).getPrecision() <= 3 ? DType.INT64 : null;
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return ((LocalZonedTimestampType) t).getPrecision() <= 3 ? DType.INT64 : null;
            case FLOAT:
            case DOUBLE:
                return DType.FLOAT32;
            case CHAR:
            case VARCHAR:
            case BINARY:
            case VARBINARY:
                return DType.STRING;
            default:
                return null;
        }
    }

    /** Whether the leaf values are text (UTF-8 checked) rather than bytes. */
    boolean text() {
        return leaf == LogicalTypeRoot.CHAR || leaf == LogicalTypeRoot.VARCHAR;
    }

    /** The SQL type name of the leaf, for messages. */
    String leafName() {
        return leaf.name();
    }
}
