package io.tfstream.convert;

import io.tfstream.spec.DType;
import org.apache.avro.LogicalType;
import org.apache.avro.Schema;

/**
 * How one Avro value reaches a feature, decided once from the writer schema: which decoder call
 * reads it and whether it fits the feature's type. A union has one {@code AvroValue} per branch; an
 * array the value of its items.
 */
final class AvroValue {
    static final int NULL = 0;
    static final int INT = 1;
    static final int LONG = 2;
    static final int BOOLEAN = 3;
    static final int FLOAT = 4;
    static final int DOUBLE = 5;
    static final int STRING = 6;
    static final int BYTES = 7;
    static final int FIXED = 8;
    static final int ENUM = 9;
    static final int ARRAY = 10;
    static final int UNION = 11;

    final int kind;
    final boolean fits;
    final Schema schema;
    final byte[][] symbols;
    final AvroValue items;
    final AvroValue[] branches;

    private AvroValue(
            int kind, boolean fits, Schema schema, AvroValue items, AvroValue[] branches) {
        this.kind = kind;
        this.fits = fits;
        this.schema = schema;
        this.items = items;
        this.branches = branches;
        if (kind == ENUM) {
            symbols = new byte[schema.getEnumSymbols().size()][];
            for (int i = 0; i < symbols.length; i++) {
                symbols[i] =
                        schema.getEnumSymbols()
                                .get(i)
                                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
            }
        } else {
            symbols = null;
        }
    }

    /** The value of {@code s} for a feature of {@code type} at field {@code path}. */
    static AvroValue of(Schema s, DType type, String path, boolean inArray) {
        LogicalType logical = s.getLogicalType();
        String ln = logical == null ? null : logical.getName();
        if (ln != null && !ln.equals("timestamp-millis") && !ln.equals("date")) {
            throw new AvroSchemaRejectedException(
                    "Avro field '"
                            + path
                            + "' has logical type "
                            + ln
                            + ", which tfstream does not convert (only timestamp-millis and"
                            + " date, as INT features)");
        }
        return switch (s.getType()) {
            case NULL -> new AvroValue(NULL, true, s, null, null);
            case INT -> new AvroValue(INT, type == DType.INT64, s, null, null);
            case LONG -> new AvroValue(LONG, type == DType.INT64, s, null, null);
            case BOOLEAN -> new AvroValue(BOOLEAN, type == DType.INT64, s, null, null);
            case FLOAT -> new AvroValue(FLOAT, type == DType.FLOAT32, s, null, null);
            case DOUBLE -> new AvroValue(DOUBLE, type == DType.FLOAT32, s, null, null);
            case STRING -> new AvroValue(STRING, type == DType.STRING, s, null, null);
            case BYTES -> new AvroValue(BYTES, type == DType.STRING, s, null, null);
            case FIXED -> new AvroValue(FIXED, type == DType.STRING, s, null, null);
            case ENUM -> new AvroValue(ENUM, type == DType.STRING, s, null, null);
            case ARRAY -> {
                if (inArray) {
                    yield new AvroValue(ARRAY, false, s, null, null);
                }
                AvroValue items = of(s.getElementType(), type, path, true);
                yield new AvroValue(ARRAY, items.fitsSomehow(), s, items, null);
            }
            case UNION -> {
                AvroValue[] b = new AvroValue[s.getTypes().size()];
                boolean any = false;
                for (int i = 0; i < b.length; i++) {
                    b[i] = of(s.getTypes().get(i), type, path, inArray);
                    any |= b[i].kind != NULL && b[i].fits;
                }
                yield new AvroValue(UNION, any, s, null, b);
            }
            default -> new AvroValue(-1, false, s, null, null); // record, map: never a value
        };
    }

    /** Whether some value of this type fits (a union: some non-null branch). */
    boolean fitsSomehow() {
        return fits;
    }

    /** The Avro type as errors name it: {@code string}, {@code long (timestamp-millis)}. */
    String typeName() {
        LogicalType l = schema.getLogicalType();
        String base = schema.getType().getName();
        return l == null ? base : base + " (" + l.getName() + ")";
    }
}
