package io.tfstream.e2e.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The summary of the failure tests: per scenario the records produced, the faults injected, the
 * recovery time of each, and what was lost or duplicated in each output. Printed, and written as
 * Markdown with the machine and the date.
 */
final class FailureResults {
    /** One scenario's outcome. */
    record Row(
            String scenario,
            long records,
            long good,
            long bad,
            String faults,
            List<Duration> recoveries,
            List<OutputAudit.Counts> outputs) {
        long lost() {
            return outputs.stream().mapToLong(OutputAudit.Counts::lost).sum();
        }

        long duplicated() {
            return outputs.stream().mapToLong(OutputAudit.Counts::duplicated).sum();
        }
    }

    private final List<Row> rows = new ArrayList<>();

    synchronized void add(Row row) {
        rows.add(row);
        System.out.println("[e2e] " + line(row));
    }

    synchronized boolean isEmpty() {
        return rows.isEmpty();
    }

    /**
     * Writes the Markdown report to {@code file}, keeping the sections ({@code ## ...}) the file
     * already has below its table, and prints it.
     */
    synchronized void write(Path file, String runDescription) throws IOException {
        StringBuilder md = new StringBuilder();
        md.append("# Failure tests on the local cluster: results\n\n")
                .append(runDescription)
                .append("\n\n")
                .append("Machine: ")
                .append(machine())
                .append(".\nDate: ")
                .append(
                        DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
                                .format(Instant.now().atZone(ZoneOffset.UTC)))
                .append(".\n\n")
                .append(
                        "| scenario | records (good / broken) | faults | recovery s per fault |"
                                + " lost | duplicated | per output (found of expected) |\n")
                .append("| --- | --- | --- | --- | --- | --- | --- |\n");
        for (Row r : rows) {
            md.append("| ")
                    .append(r.scenario())
                    .append(" | ")
                    .append(r.records())
                    .append(" (")
                    .append(r.good())
                    .append(" / ")
                    .append(r.bad())
                    .append(") | ")
                    .append(r.faults())
                    .append(" | ")
                    .append(recoveries(r))
                    .append(" | ")
                    .append(r.lost())
                    .append(" | ")
                    .append(r.duplicated())
                    .append(" | ")
                    .append(
                            r.outputs().stream()
                                    .map(c -> c.output() + " " + c.found() + "/" + c.expected())
                                    .collect(Collectors.joining(", ")))
                    .append(" |\n");
        }
        md.append(
                "\nRecovery: from the fault (a TaskManager killed; the broker or S3Proxy started"
                        + " again after its outage) until a checkpoint triggered after it has"
                        + " completed. Lost and duplicated count good records in the committed"
                        + " payloads and the finished shards on S3, and broken records in the"
                        + " dead-letter topic.\n");
        Files.createDirectories(file.toAbsolutePath().getParent());
        if (Files.isRegularFile(file)) {
            // the sections below the table (other runs, the soak's) are kept
            String before = Files.readString(file, StandardCharsets.UTF_8);
            int sections = before.indexOf("\n## ");
            if (sections >= 0) {
                md.append(before.substring(sections));
            }
        }
        Files.writeString(file, md, StandardCharsets.UTF_8);
        System.out.println(md);
    }

    private static String line(Row r) {
        return r.scenario()
                + ": "
                + r.records()
                + " records, "
                + r.faults()
                + ", recovery s "
                + recoveries(r)
                + ", lost "
                + r.lost()
                + ", duplicated "
                + r.duplicated();
    }

    private static String recoveries(Row r) {
        return r.recoveries().isEmpty()
                ? "-"
                : r.recoveries().stream()
                        .map(d -> String.format("%.1f", d.toMillis() / 1000.0))
                        .collect(Collectors.joining(", "));
    }

    private static String machine() {
        String cpu = "unknown CPU";
        try {
            cpu =
                    Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                            .filter(l -> l.startsWith("model name"))
                            .map(l -> l.substring(l.indexOf(':') + 1).trim())
                            .findFirst()
                            .orElse(cpu);
        } catch (IOException unreadable) {
            cpu = "CPU not readable (" + unreadable.getMessage() + ")";
        }
        return Runtime.getRuntime().availableProcessors()
                + " cores, "
                + cpu
                + ", "
                + Runtime.getRuntime().maxMemory() / (1024 * 1024)
                + " MiB test heap, "
                + System.getProperty("os.name")
                + " "
                + System.getProperty("os.version")
                + ", Java "
                + System.getProperty("java.version");
    }
}
