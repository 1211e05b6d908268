package io.tfstream.spec.schema;

import io.tfstream.spec.DType;
import io.tfstream.spec.DefaultValue;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.Partition;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SparseFeature;
import io.tfstream.spec.VarLenFeature;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a feature-spec dict in the Python text form documentation prints, e.g. {@code {"x":
 * tf.io.RaggedFeature(value_key="x", dtype=tf.string, partitions=(,), row_splits_dtype=tf.int64)}},
 * into {@link FeatureSpecs}, applying the Python constructors' defaults.
 */
final class PythonSpecText {
    private final String text;
    private int pos;

    private PythonSpecText(String text) {
        this.text = text;
    }

    static FeatureSpecs parse(String text) {
        PythonSpecText p = new PythonSpecText(text);
        Object v = p.value();
        p.skipSpace();
        if (p.pos != text.length()) {
            throw p.error("trailing text");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> dict = (Map<String, Object>) v;
        Map<String, FeatureSpec> specs = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : dict.entrySet()) {
            specs.put(e.getKey(), spec((Call) e.getValue()));
        }
        return FeatureSpecs.of(specs);
    }

    private record Call(String name, List<Object> args, Map<String, Object> kwargs) {
        Object arg(int i, String kw, Object fallback) {
            if (kwargs.containsKey(kw)) {
                return kwargs.get(kw);
            }
            return i < args.size() ? args.get(i) : fallback;
        }
    }

    private record Name(String dotted) {}

    private static final Object NONE = new Object();

    private static FeatureSpec spec(Call c) {
        switch (c.name()) {
            case "tf.io.VarLenFeature":
                return new VarLenFeature(dtype(c.arg(0, "dtype", null)));
            case "tf.io.FixedLenFeature":
                DType d = dtype(c.arg(1, "dtype", null));
                List<Long> shape = longs(c.arg(0, "shape", null));
                Object dv = c.arg(2, "default_value", NONE);
                if (dv == NONE) {
                    return FixedLenFeature.required(shape, d);
                }
                return FixedLenFeature.withDefault(shape, d, defaults(d, dv));
            case "tf.io.SparseFeature":
                return new SparseFeature(
                        strings(c.arg(0, "index_key", null)),
                        (String) c.arg(1, "value_key", null),
                        dtype(c.arg(2, "dtype", null)),
                        longs(c.arg(3, "size", null)),
                        (Boolean) c.arg(4, "already_sorted", Boolean.FALSE));
            case "tf.io.RaggedFeature":
                List<Partition> partitions = new ArrayList<>();
                for (Object p : (List<?>) c.arg(2, "partitions", List.of())) {
                    partitions.add(partition((Call) p));
                }
                Object splits = c.arg(3, "row_splits_dtype", new Name("tf.int32"));
                return new RaggedFeature(
                        dtype(c.arg(0, "dtype", null)),
                        (String) c.arg(1, "value_key", null),
                        partitions,
                        RowSplitsDType.fromName(tfName(splits)));
            default:
                throw new IllegalArgumentException("unknown spec " + c.name());
        }
    }

    private static Partition partition(Call c) {
        String kind = c.name().substring("tf.io.RaggedFeature.".length());
        if (kind.equals("UniformRowLength")) {
            return new Partition.UniformRowLength((Long) c.arg(0, "length", null));
        }
        String key = (String) c.arg(0, "key", null);
        switch (kind) {
            case "RowSplits":
                return new Partition.RowSplits(key);
            case "RowLengths":
                return new Partition.RowLengths(key);
            case "RowStarts":
                return new Partition.RowStarts(key);
            case "RowLimits":
                return new Partition.RowLimits(key);
            case "ValueRowIds":
                return new Partition.ValueRowIds(key);
            default:
                throw new IllegalArgumentException("unknown partition " + c.name());
        }
    }

    private static String tfName(Object o) {
        String n = ((Name) o).dotted();
        if (!n.startsWith("tf.")) {
            throw new IllegalArgumentException("expected a tf dtype, got " + n);
        }
        return n.substring(3);
    }

    private static DType dtype(Object o) {
        return DType.fromName(tfName(o));
    }

    private static List<Long> longs(Object o) {
        List<Long> out = new ArrayList<>();
        for (Object v : (List<?>) o) {
            out.add((Long) v);
        }
        return out;
    }

    private static List<String> strings(Object o) {
        List<String> out = new ArrayList<>();
        for (Object v : (List<?>) o) {
            out.add((String) v);
        }
        return out;
    }

    private static DefaultValue defaults(DType d, Object v) {
        List<Object> flat = new ArrayList<>();
        flatten(v, flat);
        switch (d) {
            case INT64:
                return DefaultValue.ofInt64(flat.stream().mapToLong(x -> (Long) x).toArray());
            default:
                throw new IllegalArgumentException("defaults of " + d + " not needed here");
        }
    }

    private static void flatten(Object v, List<Object> out) {
        if (v instanceof List<?> l) {
            l.forEach(x -> flatten(x, out));
        } else {
            out.add(v);
        }
    }

    private Object value() {
        skipSpace();
        char c = peek();
        if (c == '"' || c == '\'') {
            return string();
        }
        if (c == '{') {
            return dict();
        }
        if (c == '[') {
            return sequence('[', ']');
        }
        if (c == '(') {
            return sequence('(', ')');
        }
        if (c == '-' || Character.isDigit(c)) {
            int start = pos++;
            while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
                pos++;
            }
            return Long.parseLong(text.substring(start, pos));
        }
        String name = name();
        switch (name) {
            case "True":
                return Boolean.TRUE;
            case "False":
                return Boolean.FALSE;
            case "None":
                return NONE;
            default:
                break;
        }
        skipSpace();
        if (pos < text.length() && peek() == '(') {
            return call(name);
        }
        return new Name(name);
    }

    private Call call(String name) {
        expect('(');
        List<Object> args = new ArrayList<>();
        Map<String, Object> kwargs = new LinkedHashMap<>();
        while (true) {
            skipSpace();
            if (peek() == ')') {
                pos++;
                return new Call(name, args, kwargs);
            }
            int save = pos;
            if (Character.isLetter(peek())) {
                String kw = name();
                skipSpace();
                if (peek() == '=') {
                    pos++;
                    kwargs.put(kw, value());
                    commaOr(')');
                    continue;
                }
                pos = save;
            }
            args.add(value());
            commaOr(')');
        }
    }

    private Map<String, Object> dict() {
        expect('{');
        Map<String, Object> m = new LinkedHashMap<>();
        while (true) {
            skipSpace();
            if (peek() == '}') {
                pos++;
                return m;
            }
            String key = string();
            skipSpace();
            expect(':');
            m.put(key, value());
            commaOr('}');
        }
    }

    /** A list or tuple; {@code (,)} is read as the empty tuple. */
    private List<Object> sequence(char open, char close) {
        expect(open);
        List<Object> out = new ArrayList<>();
        skipSpace();
        if (peek() == ',') {
            pos++;
            skipSpace();
            expect(close);
            return out;
        }
        while (true) {
            skipSpace();
            if (peek() == close) {
                pos++;
                return out;
            }
            out.add(value());
            commaOr(close);
        }
    }

    private void commaOr(char close) {
        skipSpace();
        if (peek() == ',') {
            pos++;
        } else if (peek() != close) {
            throw error("expected ',' or '" + close + "'");
        }
    }

    private String string() {
        char q = peek();
        if (q != '"' && q != '\'') {
            throw error("expected a string");
        }
        int end = text.indexOf(q, pos + 1);
        String s = text.substring(pos + 1, end);
        pos = end + 1;
        return s;
    }

    private String name() {
        int start = pos;
        while (pos < text.length()
                && (Character.isLetterOrDigit(text.charAt(pos))
                        || text.charAt(pos) == '_'
                        || text.charAt(pos) == '.')) {
            pos++;
        }
        if (start == pos) {
            throw error("expected a name");
        }
        return text.substring(start, pos);
    }

    private void expect(char c) {
        skipSpace();
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        pos++;
    }

    private char peek() {
        if (pos >= text.length()) {
            throw error("unexpected end");
        }
        return text.charAt(pos);
    }

    private void skipSpace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException(what + " at offset " + pos + " in: " + text);
    }
}
