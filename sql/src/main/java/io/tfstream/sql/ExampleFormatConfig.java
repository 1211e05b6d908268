package io.tfstream.sql;

import io.tfstream.parse.ParseLimits;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.SpecSource;
import io.tfstream.spec.schema.FixedLenDefaults;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.types.logical.RowType;

/**
 * What a table's Example mapping needs on a task, small and serializable: the row type, the schema
 * file's bytes (not the parsed spec, which is built in {@code open()}), whether parse errors are
 * skipped, and the option prefix for messages ({@code tf-example.} or {@code tfrecord.}).
 */
final class ExampleFormatConfig implements Serializable {
    private static final long serialVersionUID = 1L;

    private final RowType rowType;
    private final byte[] schema;
    private final String schemaName;
    private final boolean ignoreParseErrors;
    private final String prefix;
    private final ParseLimits limits;
    private final FixedLenDefaults defaults;

    private ExampleFormatConfig(
            RowType rowType,
            byte[] schema,
            String schemaName,
            boolean ignoreParseErrors,
            String prefix,
            ParseLimits limits,
            FixedLenDefaults defaults) {
        this.rowType = Objects.requireNonNull(rowType, "rowType");
        this.schema = schema;
        this.schemaName = schemaName;
        this.ignoreParseErrors = ignoreParseErrors;
        this.prefix = prefix;
        this.limits = Objects.requireNonNull(limits, "limits");
        this.defaults = Objects.requireNonNull(defaults, "defaults");
    }

    /**
     * Reads the schema file (if any) and checks the columns against it, as the table is used.
     *
     * @param schemaPath the value of {@code <prefix>schema-path}, or null
     * @throws ValidationException naming the column or the option that is wrong
     */
    static ExampleFormatConfig create(
            RowType rowType, String schemaPath, boolean ignoreParseErrors, String prefix) {
        return create(
                rowType,
                schemaPath,
                ignoreParseErrors,
                prefix,
                ParseLimits.defaults(),
                FixedLenDefaults.NONE);
    }

    /**
     * As {@link #create(RowType, String, boolean, String)}, parsing with {@code limits} and a
     * schema's fixed-length {@code defaults} ({@code <prefix>legacy-defaults}).
     */
    static ExampleFormatConfig create(
            RowType rowType,
            String schemaPath,
            boolean ignoreParseErrors,
            String prefix,
            ParseLimits limits,
            FixedLenDefaults defaults) {
        byte[] bytes = null;
        String name = null;
        if (schemaPath != null) {
            Path p = Path.of(schemaPath);
            try {
                bytes = Files.readAllBytes(p);
            } catch (IOException e) {
                throw new ValidationException(
                        "Cannot read '" + prefix + "schema-path' " + schemaPath + ": " + e, e);
            }
            name = schemaPath;
        }
        ExampleFormatConfig c =
                new ExampleFormatConfig(
                        rowType, bytes, name, ignoreParseErrors, prefix, limits, defaults);
        try {
            c.newDecoder(); // checks the columns and the spec now, not on the task
        } catch (IllegalArgumentException e) {
            // The parser refuses the spec as TensorFlow would (e.g. a FixedLenSequenceFeature).
            throw new ValidationException(
                    "'" + prefix + "schema-path' " + schemaPath + ": " + e.getMessage(), e);
        }
        return c;
    }

    RowType rowType() {
        return rowType;
    }

    boolean ignoreParseErrors() {
        return ignoreParseErrors;
    }

    boolean hasSchema() {
        return schema != null;
    }

    List<ExampleColumn> columns() {
        return ExampleColumn.of(rowType, formatName());
    }

    /** The spec to parse with: the schema's, checked against the columns, or one per column. */
    FeatureSpecs specs() {
        List<ExampleColumn> columns = columns();
        if (schema == null) {
            return ColumnSpecs.withoutSchema(columns, prefix + "schema-path");
        }
        ParseSpec spec;
        try {
            spec = SpecSource.parse(schema, fileName(), defaults);
        } catch (IOException | RuntimeException e) {
            throw new ValidationException(
                    "'" + prefix + "schema-path' " + schemaName + ": " + e.getMessage(), e);
        }
        if (!(spec instanceof FeatureSpecs f)) {
            throw new ValidationException(
                    "'"
                            + prefix
                            + "schema-path' "
                            + schemaName
                            + " describes SequenceExample data; this format reads tf.train.Example");
        }
        ColumnSpecs.check(columns, f, schemaName);
        return f;
    }

    ExampleRowDecoder newDecoder() {
        return new ExampleRowDecoder(columns(), specs(), hasSchema(), limits);
    }

    private String fileName() {
        Path f = Path.of(schemaName).getFileName();
        return f == null ? schemaName : f.toString();
    }

    private String formatName() {
        return prefix.substring(0, prefix.length() - 1);
    }
}
