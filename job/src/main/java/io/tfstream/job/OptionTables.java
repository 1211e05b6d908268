package io.tfstream.job;

import io.tfstream.sql.TfExampleFormatFactory;
import io.tfstream.sql.TfRecordFormatFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.factories.Factory;

/**
 * The option tables of docs/, generated from the option declarations (as Flink's {@code flink-docs}
 * generates its own): between {@code <!-- generated: NAME -->} and {@code <!-- end generated -->}
 * in a Markdown file stands the table {@link #table(String)} renders. {@code OptionTablesTest}
 * fails when a file's table differs, and rewrites the files with {@code
 * -Dtfstream.docs.write=true}.
 */
public final class OptionTables {
    /** The file of each table, relative to docs/. */
    public static final Map<String, String> FILES =
            Map.of("job", "streaming-job.md", "sql", "sql.md");

    private static final String END = "<!-- end generated -->";

    private OptionTables() {}

    /**
     * The table {@code name}: {@code job} (tfstream run's options) or {@code sql} (the formats).
     */
    public static String table(String name) {
        return switch (name) {
            case "job" -> JobOptionsHelp.markdownTable();
            case "sql" -> sqlTable();
            default -> throw new IllegalArgumentException("no option table " + name);
        };
    }

    /**
     * The SQL formats' options: one row per key, for both formats when they share it with the same
     * description ({@code tf-example.KEY} / {@code tfrecord.KEY}).
     */
    static String sqlTable() {
        Map<String, ConfigOption<?>> example = options(new TfExampleFormatFactory());
        Map<String, ConfigOption<?>> tfrecord = options(new TfRecordFormatFactory());
        StringBuilder b = new StringBuilder("| option | default | description |\n");
        b.append("| --- | --- | --- |\n");
        for (Map.Entry<String, ConfigOption<?>> e : example.entrySet()) {
            ConfigOption<?> other = tfrecord.get(e.getKey());
            boolean shared =
                    other != null
                            && JobOptionsHelp.text(other).equals(JobOptionsHelp.text(e.getValue()))
                            && Objects.equals(defaultText(other), defaultText(e.getValue()));
            String keys =
                    "`tf-example."
                            + e.getKey()
                            + "`"
                            + (shared ? " / `tfrecord." + e.getKey() + "`" : "");
            row(b, keys, e.getValue());
        }
        for (Map.Entry<String, ConfigOption<?>> e : tfrecord.entrySet()) {
            ConfigOption<?> same = example.get(e.getKey());
            if (same == null
                    || !JobOptionsHelp.text(same).equals(JobOptionsHelp.text(e.getValue()))
                    || !Objects.equals(defaultText(same), defaultText(e.getValue()))) {
                row(b, "`tfrecord." + e.getKey() + "`", e.getValue());
            }
        }
        return b.toString();
    }

    private static Map<String, ConfigOption<?>> options(Factory f) {
        List<ConfigOption<?>> all = new ArrayList<>(f.requiredOptions());
        all.addAll(f.optionalOptions());
        all.sort(Comparator.comparing(ConfigOption::key));
        Map<String, ConfigOption<?>> byKey = new LinkedHashMap<>();
        for (ConfigOption<?> o : all) {
            byKey.put(o.key(), o);
        }
        return byKey;
    }

    private static String defaultText(ConfigOption<?> o) {
        return o.hasDefaultValue() ? JobOptionsHelp.defaultText(o) : "(none)";
    }

    private static void row(StringBuilder b, String keys, ConfigOption<?> o) {
        b.append("| ")
                .append(keys)
                .append(" | ")
                .append(defaultText(o))
                .append(" | ")
                .append(JobOptionsHelp.markdown(JobOptionsHelp.text(o)))
                .append(" |\n");
    }

    /** {@code text} with each generated table replaced by the current one. */
    public static String update(String text) {
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (true) {
            int start = text.indexOf("<!-- generated: ", at);
            if (start < 0) {
                out.append(text, at, text.length());
                return out.toString();
            }
            int nameEnd = text.indexOf(" -->", start);
            String name = text.substring(start + "<!-- generated: ".length(), nameEnd);
            int bodyStart = nameEnd + " -->".length() + 1;
            int end = text.indexOf(END, bodyStart);
            if (end < 0) {
                throw new IllegalArgumentException(
                        "generated table " + name + " has no end marker");
            }
            out.append(text, at, bodyStart).append(table(name)).append(END);
            at = end + END.length();
        }
    }

    /** Rewrites the generated tables of every file under {@code docs}; true when one changed. */
    public static boolean write(Path docs) throws IOException {
        boolean changed = false;
        for (String file : FILES.values()) {
            Path p = docs.resolve(file);
            String text = Files.readString(p);
            String updated = update(text);
            if (!updated.equals(text)) {
                Files.writeString(p, updated);
                changed = true;
            }
        }
        return changed;
    }
}
