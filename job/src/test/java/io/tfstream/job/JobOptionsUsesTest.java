package io.tfstream.job;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The job reads its stages through the library builders' {@code fromConfig} over prefixed views
 * ({@link StageView}), not constant by constant: the main code of every module names {@link
 * JobOptions}' constants (qualified or statically imported) at most {@value #MAX_USES} times
 * outside the registry itself, so that a key keeps one mapping to its field.
 */
class JobOptionsUsesTest {
    static final int MAX_USES = 100;

    private static final Pattern QUALIFIED = Pattern.compile("JobOptions\\.([A-Z][A-Z_0-9]+)\\b");
    private static final Pattern STATIC_IMPORT =
            Pattern.compile("import static io\\.tfstream\\.job\\.JobOptions\\.([A-Z_0-9]+);");

    @Test
    void theJobOptionsConstantsAreNamedAtMostAHundredTimesOutsideTheRegistry() throws IOException {
        int uses = 0;
        List<String> files = new ArrayList<>();
        try (Stream<Path> modules = Files.list(Path.of(".."))) {
            for (Path main : modules.map(m -> m.resolve("src/main/java")).toList()) {
                if (!Files.isDirectory(main)) {
                    continue;
                }
                try (Stream<Path> sources = Files.walk(main)) {
                    for (Path f : sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                        if (f.getFileName().toString().equals("JobOptions.java")) {
                            continue;
                        }
                        int n = uses(Files.readString(f));
                        if (n > 0) {
                            files.add(f + ": " + n);
                            uses += n;
                        }
                    }
                }
            }
        }
        assertTrue(files.size() > 5, "the modules' sources were read: " + files);
        assertTrue(uses <= MAX_USES, uses + " uses of JobOptions constants: " + files);
    }

    private static int uses(String source) {
        String body = STATIC_IMPORT.matcher(source).replaceAll("");
        int n = 0;
        Matcher q = QUALIFIED.matcher(body);
        while (q.find()) {
            n++;
        }
        Matcher imported = STATIC_IMPORT.matcher(source);
        while (imported.find()) {
            Matcher use = Pattern.compile("(?<![\\w.])" + imported.group(1) + "\\b").matcher(body);
            while (use.find()) {
                n++;
            }
        }
        return n;
    }
}
