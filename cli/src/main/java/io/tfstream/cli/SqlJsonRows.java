package io.tfstream.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.lang.reflect.Array;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.apache.flink.types.Row;

/**
 * One result row of {@code tfstream sql} as one JSON object: column name → value, BYTES as base64,
 * arrays as JSON arrays, NULL as null, FLOAT/DOUBLE as numbers with NaN and infinities as the
 * strings {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"} (as the CLI's batch lines), other
 * values (timestamps, decimals, dates) as their SQL text; in streaming mode with {@code "op"} the
 * row's change kind ({@code +I}, {@code -U}, {@code +U}, {@code -D}).
 */
final class SqlJsonRows {
    private final JsonFactory json = new JsonFactory();
    private final List<String> columns;
    private final boolean withOp;

    SqlJsonRows(List<String> columns, boolean withOp) {
        this.columns = List.copyOf(columns);
        this.withOp = withOp;
    }

    String line(Row row) throws IOException {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = json.createGenerator(w)) {
            g.writeStartObject();
            if (withOp) {
                g.writeStringField("op", row.getKind().shortString());
            }
            for (int i = 0; i < columns.size(); i++) {
                g.writeFieldName(columns.get(i));
                value(g, row.getField(i));
            }
            g.writeEndObject();
        }
        return w.toString();
    }

    private static void value(JsonGenerator g, Object v) throws IOException {
        if (v == null) {
            g.writeNull();
        } else if (v instanceof byte[] b) {
            g.writeString(Base64.getEncoder().encodeToString(b));
        } else if (v instanceof Float f) {
            floating(g, f, Float.toString(f));
        } else if (v instanceof Double d) {
            floating(g, d, Double.toString(d));
        } else if (v instanceof Long
                || v instanceof Integer
                || v instanceof Short
                || v instanceof Byte) {
            g.writeNumber(((Number) v).longValue());
        } else if (v instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (v.getClass().isArray()) {
            g.writeStartArray();
            for (int i = 0, n = Array.getLength(v); i < n; i++) {
                value(g, Array.get(v, i));
            }
            g.writeEndArray();
        } else if (v instanceof Map<?, ?> m) {
            g.writeStartObject();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                g.writeFieldName(String.valueOf(e.getKey()));
                value(g, e.getValue());
            }
            g.writeEndObject();
        } else if (v instanceof Row r) {
            g.writeStartArray();
            for (int i = 0; i < r.getArity(); i++) {
                value(g, r.getField(i));
            }
            g.writeEndArray();
        } else {
            g.writeString(v.toString());
        }
    }

    private static void floating(JsonGenerator g, double v, String text) throws IOException {
        if (Double.isNaN(v)) {
            g.writeString("NaN");
        } else if (Double.isInfinite(v)) {
            g.writeString(v > 0 ? "Infinity" : "-Infinity");
        } else {
            g.writeNumber(text);
        }
    }
}
