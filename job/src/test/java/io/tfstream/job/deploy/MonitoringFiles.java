package io.tfstream.job.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The metric names that deploy/monitoring's dashboard (JSON) and Prometheus rules (YAML) use: every
 * {@code flink_*} name in their PromQL expressions, and the {@code tfstream:*} names their
 * recording rules define and use.
 */
final class MonitoringFiles {
    static final Path DIR = Path.of("..", "deploy", "monitoring");

    private static final Pattern FLINK_NAME = Pattern.compile("\\bflink_[A-Za-z0-9_]+");
    private static final Pattern RECORDED_NAME = Pattern.compile("\\btfstream:[A-Za-z0-9_:]+");
    private static final Pattern RECORD_RULE =
            Pattern.compile("(?m)^\\s*-?\\s*record:\\s*(tfstream:[A-Za-z0-9_:]+)\\s*$");

    private MonitoringFiles() {}

    static List<Path> files() throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(DIR)) {
            // The rules' own unit tests (*-test.yaml) are AlertRulesTest's.
            s.filter(p -> p.toString().endsWith(".json") || p.toString().endsWith(".yaml"))
                    .filter(p -> !p.toString().endsWith("-test.yaml"))
                    .sorted()
                    .forEach(out::add);
        }
        if (out.isEmpty()) {
            throw new AssertionError("no dashboard or rules in " + DIR.toAbsolutePath());
        }
        return out;
    }

    /** Every Flink metric name the files use. */
    static Set<String> flinkNames() throws IOException {
        return matches(FLINK_NAME);
    }

    /** Every recorded ({@code tfstream:*}) name the files use. */
    static Set<String> recordedNamesUsed() throws IOException {
        return matches(RECORDED_NAME);
    }

    /** The recorded names the rules files define ({@code record: tfstream:...}). */
    static Set<String> recordedNamesDefined() throws IOException {
        Set<String> out = new TreeSet<>();
        for (Path p : files()) {
            Matcher m = RECORD_RULE.matcher(Files.readString(p));
            while (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    private static Set<String> matches(Pattern pattern) throws IOException {
        Set<String> out = new TreeSet<>();
        for (Path p : files()) {
            Matcher m = pattern.matcher(Files.readString(p));
            while (m.find()) {
                out.add(m.group());
            }
        }
        return out;
    }
}
