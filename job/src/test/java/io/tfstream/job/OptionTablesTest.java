package io.tfstream.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The option tables in docs/ are the generated ones ({@link OptionTables}): run with {@code
 * -Dtfstream.docs.write=true} to rewrite them after changing an option.
 */
class OptionTablesTest {
    private static final Path DOCS = Path.of("..", "docs");

    @Test
    void theDocsTablesAreTheGeneratedOnes() throws Exception {
        if (Boolean.getBoolean("tfstream.docs.write")) {
            OptionTables.write(DOCS);
        }
        for (Map.Entry<String, String> e : OptionTables.FILES.entrySet()) {
            String text = Files.readString(DOCS.resolve(e.getValue()));
            assertTrue(
                    text.contains("<!-- generated: " + e.getKey() + " -->"),
                    e.getValue() + " holds the " + e.getKey() + " table");
            assertEquals(
                    text,
                    OptionTables.update(text),
                    "docs/"
                            + e.getValue()
                            + ": an option table is out of date; run the job module's"
                            + " OptionTablesTest with -Dtfstream.docs.write=true");
        }
    }

    @Test
    void theTablesHoldEveryOption() {
        String job = OptionTables.table("job");
        for (var o : JobOptions.ALL) {
            assertTrue(job.contains("| `" + o.key() + "` |"), o.key());
        }
        String sql = OptionTables.table("sql");
        for (String key :
                new String[] {
                    "tf-example.schema-path",
                    "tfrecord.compression",
                    "tfrecord.record-format",
                    "tf-example.max-record-bytes` / `tfrecord.max-record-bytes",
                    "tf-example.legacy-defaults` / `tfrecord.legacy-defaults"
                }) {
            assertTrue(sql.contains("`" + key + "`"), key + " in\n" + sql);
        }
    }
}
