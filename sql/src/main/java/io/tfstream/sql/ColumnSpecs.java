package io.tfstream.sql;

import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.FixedLenSequenceFeature;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.SparseFeature;
import io.tfstream.spec.VarLenFeature;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.ValidationException;

/**
 * The parse spec behind a table's columns. Without a schema every column is a {@code VarLenFeature}
 * of its list type (an absent feature is NULL, no default applies); with one, the spec TensorFlow
 * derives from it is used whole (so its defaults and required features apply as in {@code
 * tf.io.parse_example}) and every column must be one of its features with the same value type and
 * nesting depth.
 */
final class ColumnSpecs {
    private ColumnSpecs() {}

    /** One {@code VarLenFeature} per column; nested arrays need a schema. */
    static FeatureSpecs withoutSchema(List<ExampleColumn> columns, String schemaOption) {
        Map<String, FeatureSpec> specs = new LinkedHashMap<>();
        for (ExampleColumn c : columns) {
            if (c.depth() > 1) {
                throw new ValidationException(
                        "Column '"
                                + c.name()
                                + "' is a nested ARRAY: its row partitions come from a"
                                + " RaggedFeature, so set '"
                                + schemaOption
                                + "' to a schema or SPEC.json that declares it");
            }
            specs.put(c.name(), new VarLenFeature(c.dtype()));
        }
        return FeatureSpecs.of(specs);
    }

    /**
     * Checks the columns against {@code spec} (from {@code schemaFile}).
     *
     * @throws ValidationException naming the first column that disagrees
     */
    static void check(List<ExampleColumn> columns, FeatureSpecs spec, String schemaFile) {
        for (ExampleColumn c : columns) {
            FeatureSpec f = spec.get(c.name());
            if (f == null) {
                throw new ValidationException(
                        "Column '"
                                + c.name()
                                + "' is not a feature of "
                                + schemaFile
                                + " (features: "
                                + spec.features().keySet()
                                + ")");
            }
            if (f instanceof SparseFeature) {
                throw new ValidationException(
                        "Column '"
                                + c.name()
                                + "': "
                                + schemaFile
                                + " declares it as a SparseFeature, which has no SQL column type");
            }
            if (f.dtype() != c.dtype()) {
                throw new ValidationException(
                        "Column '"
                                + c.name()
                                + "' holds "
                                + c.leafName()
                                + " values ("
                                + c.dtype().listName()
                                + "_list) but "
                                + schemaFile
                                + " declares dtype "
                                + f.dtype().jsonName());
            }
            int depth = depth(f);
            if (depth != c.depth()) {
                throw new ValidationException(
                        "Column '"
                                + c.name()
                                + "' has array depth "
                                + c.depth()
                                + " but "
                                + schemaFile
                                + " parses it as "
                                + f
                                + " (depth "
                                + depth
                                + (depth == 0 ? ": a scalar column)" : ": declare it as ARRAY)"));
            }
        }
    }

    /** The array depth a row of the parsed feature has. */
    static int depth(FeatureSpec f) {
        if (f instanceof FixedLenFeature x) {
            return x.shape().size();
        }
        if (f instanceof FixedLenSequenceFeature x) {
            return x.shape().size() + 1;
        }
        if (f instanceof VarLenFeature) {
            return 1;
        }
        if (f instanceof RaggedFeature x) {
            return x.partitions().size() + 1;
        }
        return -1;
    }
}
