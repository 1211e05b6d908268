package io.tfstream.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tfstream.sql.TfExampleFormatFactory;
import io.tfstream.sql.TfRecordFormatFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.factories.Factory;
import org.junit.jupiter.api.Test;

/**
 * Every option a user sets, with its default and description, as one text: the job's options and
 * the SQL formats'. Kept equal to {@code options-baseline.txt} (a resource next to this test),
 * which was written from the options as they stood before their declarations were reorganised: a
 * refactoring of where options live must leave keys, defaults and descriptions as they are. An
 * intended change of an option updates the resource in the same commit (run with {@code
 * -Dtfstream.options.baseline=PATH} to write the current text to PATH).
 */
class OptionsBaselineTest {
    private static final String RESOURCE = "options-baseline.txt";

    static String current() {
        StringBuilder b = new StringBuilder("# tfstream run (job options)\n");
        for (ConfigOption<?> o : JobOptions.ALL) {
            line(b, o);
        }
        for (Factory f : List.of(new TfExampleFormatFactory(), new TfRecordFormatFactory())) {
            b.append("# SQL format ").append(f.factoryIdentifier()).append('\n');
            List<ConfigOption<?>> options = new ArrayList<>(f.requiredOptions());
            options.addAll(f.optionalOptions());
            options.sort(Comparator.comparing(ConfigOption::key));
            for (ConfigOption<?> o : options) {
                line(b, o);
            }
        }
        return b.toString();
    }

    private static void line(StringBuilder b, ConfigOption<?> o) {
        b.append(o.key())
                .append('\t')
                .append(o.hasDefaultValue() ? String.valueOf(o.defaultValue()) : "(none)")
                .append('\t')
                .append(JobOptionsHelp.text(o).replace('\n', ' '))
                .append('\n');
    }

    @Test
    void keysDefaultsAndDescriptionsAreTheBaselines() throws IOException {
        String now = current();
        String write = System.getProperty("tfstream.options.baseline");
        if (write != null) {
            Files.writeString(Path.of(write), now, StandardCharsets.UTF_8);
        }
        String baseline;
        try (InputStream in = OptionsBaselineTest.class.getResourceAsStream(RESOURCE)) {
            baseline = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertEquals(baseline, now);
    }
}
