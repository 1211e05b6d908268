package io.tfstream.convert;

import io.tfstream.spec.DType;
import java.util.List;
import org.apache.avro.Schema;

/**
 * What to do with each field of the Avro writer schema, decided once at start: read it into a
 * feature ({@link #FEATURE}), skip it ({@link #SKIP}, counted as ignored when {@code counted}),
 * read a nested record's fields as {@code parent.child} ({@link #RECORD}), or pick by union branch
 * ({@link #UNION}, a nullable nested record). Refuses, naming the field, what can never convert.
 */
final class AvroPlan {
    static final int FEATURE = 0;
    static final int SKIP = 1;
    static final int RECORD = 2;
    static final int UNION = 3;

    private static final int MAX_DEPTH = 64;

    final int action;
    final String path;
    final int slot;

    /** The feature's type ({@link #FEATURE} only). */
    final DType type;

    final AvroValue value;
    final Schema schema;
    final boolean counted;
    final AvroPlan[] children;

    private AvroPlan(
            int action,
            String path,
            int slot,
            AvroValue value,
            Schema schema,
            boolean counted,
            AvroPlan[] children) {
        this(action, path, slot, null, value, schema, counted, children);
    }

    private AvroPlan(
            int action,
            String path,
            int slot,
            DType type,
            AvroValue value,
            Schema schema,
            boolean counted,
            AvroPlan[] children) {
        this.type = type;
        this.action = action;
        this.path = path;
        this.slot = slot;
        this.value = value;
        this.schema = schema;
        this.counted = counted;
        this.children = children;
    }

    /** The plan of a writer schema, which must be a record. */
    static AvroPlan of(Schema writer, ConvertFeatures features, boolean flatten) {
        if (writer.getType() != Schema.Type.RECORD) {
            throw new AvroSchemaRejectedException(
                    "the Avro writer schema is a "
                            + writer.getType().getName()
                            + "; it must be a record, whose fields become features");
        }
        return record(writer, null, features, flatten, 0);
    }

    private static AvroPlan record(
            Schema s, String prefix, ConvertFeatures features, boolean flatten, int depth) {
        if (depth > MAX_DEPTH) {
            throw new AvroSchemaRejectedException(
                    "Avro field '" + prefix + "' nests records more than " + MAX_DEPTH + " deep");
        }
        List<Schema.Field> fields = s.getFields();
        AvroPlan[] children = new AvroPlan[fields.size()];
        for (int i = 0; i < children.length; i++) {
            Schema.Field f = fields.get(i);
            String path = prefix == null ? f.name() : prefix + '.' + f.name();
            children[i] = field(f.schema(), path, features, flatten, depth);
        }
        return new AvroPlan(RECORD, prefix, -1, null, s, false, children);
    }

    private static AvroPlan field(
            Schema s, String path, ConvertFeatures features, boolean flatten, int depth) {
        int slot = features.slot(path);
        if (slot >= 0) {
            DType type = features.type(slot);
            AvroValue v = AvroValue.of(s, type, path, false);
            if (!v.fits) {
                throw new AvroSchemaRejectedException(
                        "Avro field '"
                                + path
                                + "' of type "
                                + describe(s)
                                + " can never be a value of "
                                + ConvertFeatures.kind(type)
                                + " feature '"
                                + path
                                + "'");
            }
            return new AvroPlan(FEATURE, path, slot, type, v, s, false, null);
        }
        boolean nested = s.getType() == Schema.Type.RECORD || unionWithRecord(s);
        if (nested && !flatten && features.isPrefix(path)) {
            throw new AvroSchemaRejectedException(
                    "Avro field '"
                            + path
                            + "' is a nested record holding schema features; set"
                            + " source.convert.flatten: true (tfstream convert: --flatten) to"
                            + " read them as "
                            + path
                            + ".<field>");
        }
        if (nested && flatten) {
            if (s.getType() == Schema.Type.RECORD) {
                return record(s, path, features, true, depth + 1);
            }
            AvroPlan[] branches = new AvroPlan[s.getTypes().size()];
            for (int i = 0; i < branches.length; i++) {
                Schema b = s.getTypes().get(i);
                branches[i] =
                        b.getType() == Schema.Type.RECORD
                                ? record(b, path, features, true, depth + 1)
                                : new AvroPlan(SKIP, path, -1, null, b, false, null);
            }
            return new AvroPlan(UNION, path, -1, null, s, false, branches);
        }
        return new AvroPlan(SKIP, path, -1, null, s, true, null);
    }

    private static boolean unionWithRecord(Schema s) {
        return s.getType() == Schema.Type.UNION
                && s.getTypes().stream().anyMatch(b -> b.getType() == Schema.Type.RECORD);
    }

    private static String describe(Schema s) {
        if (s.getType() == Schema.Type.UNION) {
            return s.getTypes().stream().map(AvroPlan::describe).toList().toString();
        }
        if (s.getType() == Schema.Type.ARRAY) {
            return "array<" + describe(s.getElementType()) + ">";
        }
        return s.getLogicalType() == null
                ? s.getType().getName()
                : s.getType().getName() + " (" + s.getLogicalType().getName() + ")";
    }
}
