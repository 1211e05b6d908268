package io.tfstream.job;

import java.time.Duration;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.description.BlockElement;
import org.apache.flink.configuration.description.TextElement;
import org.apache.flink.util.TimeUtils;

/**
 * Renders {@link JobOptions} for people: the {@code tfstream run --help} table and the option table
 * of docs/streaming-job.md#options come from here, so they cannot drift from the code.
 */
public final class JobOptionsHelp {
    private JobOptionsHelp() {}

    /** The Java type of an option's values, as its stage declares it. */
    static Class<?> valueClass(ConfigOption<?> o) {
        return JobOptions.stageOf(o).type(o);
    }

    /** What an option accepts, in words. */
    public static String typeName(ConfigOption<?> o) {
        Class<?> c = valueClass(o);
        if (c.isEnum()) {
            return "one of "
                    + JobOptions.stageOf(o).accepted(o).stream()
                            .map(e -> ((Enum<?>) e).name().toLowerCase(Locale.ROOT))
                            .collect(Collectors.joining(", "));
        }
        if (c == Integer.class || c == Long.class) {
            return "an integer";
        }
        if (c == Double.class) {
            return "a number";
        }
        if (c == Boolean.class) {
            return "true or false";
        }
        if (c == Duration.class) {
            return "a duration (e.g. 200 ms, 10 s, 5 min)";
        }
        if (c == MemorySize.class) {
            return "a size (e.g. 512 kb, 8 mb)";
        }
        if (c == java.util.List.class) {
            return "a list of names";
        }
        return "text";
    }

    /** The default, as it would be written in a config file, or "(none)". */
    public static String defaultText(ConfigOption<?> o) {
        if (!o.hasDefaultValue()) {
            return "(none)";
        }
        Object d = o.defaultValue();
        if (d instanceof Duration dur) {
            return TimeUtils.formatWithHighestUnit(dur);
        }
        if (d instanceof MemorySize m) {
            return size(m.getBytes());
        }
        if (d instanceof Enum<?> e) {
            return e.name().toLowerCase(Locale.ROOT);
        }
        return String.valueOf(d);
    }

    /** A size as Flink's {@link MemorySize} parses it back: {@code 8 mb}, {@code 64 kb}. */
    static String size(long bytes) {
        String[] units = {"b", "kb", "mb", "gb"};
        int u = 0;
        while (u < units.length - 1 && bytes >= 1024 && bytes % 1024 == 0) {
            bytes /= 1024;
            u++;
        }
        return bytes + " " + units[u];
    }

    /** {@code text} safe in a Markdown table cell. */
    static String markdown(String text) {
        return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;");
    }

    /** The option's description as plain text. */
    public static String text(ConfigOption<?> o) {
        StringBuilder b = new StringBuilder();
        for (BlockElement e : o.description().getBlocks()) {
            if (e instanceof TextElement t) {
                b.append(t.getFormat());
            }
        }
        return b.toString();
    }

    /** The help text: one block per option with key, accepted values, default, description. */
    public static String helpText() {
        StringBuilder b = new StringBuilder();
        b.append("Job options (YAML file with --config, or --set key=value):\n");
        for (ConfigOption<?> o : JobOptions.ALL) {
            b.append("\n  ")
                    .append(o.key())
                    .append("  (")
                    .append(typeName(o))
                    .append("; default: ")
                    .append(defaultText(o))
                    .append(")\n      ")
                    .append(text(o))
                    .append('\n');
        }
        b.append("\n  ")
                .append(JobOptions.SOURCE_PROPERTIES_PREFIX)
                .append("<key>  Kafka consumer setting, e.g. security.protocol, sasl.mechanism\n");
        b.append("  ")
                .append(JobOptions.OUTPUT_PROPERTIES_PREFIX)
                .append("<key>  Kafka producer setting for every output\n");
        b.append(
                "  (secrets such as sasl.jaas.config or ssl.*.password only as"
                        + " ${file:PATH:KEY} or ${env:NAME}, resolved on the TaskManagers)\n");
        b.append("  ")
                .append(JobOptions.FLINK_PREFIX)
                .append("<key>  Flink setting, e.g. flink.restart-strategy.type\n");
        return b.toString();
    }

    /**
     * The option table of docs/streaming-job.md#options: {@code | key | default | description |}
     * rows.
     */
    public static String markdownTable() {
        StringBuilder b = new StringBuilder("| key | accepts | default | description |\n");
        b.append("| --- | --- | --- | --- |\n");
        for (ConfigOption<?> o : JobOptions.ALL) {
            b.append("| `")
                    .append(o.key())
                    .append("` | ")
                    .append(typeName(o))
                    .append(" | ")
                    .append(defaultText(o))
                    .append(" | ")
                    .append(markdown(text(o)))
                    .append(" |\n");
        }
        return b.toString();
    }
}
