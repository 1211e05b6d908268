package io.tfstream.validation.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * An anomaly the report marks: a feature's path (no steps: the dataset), TFDV's anomaly type,
 * severity and texts, and in how many alerts it was seen (one per window of {@code tfstream
 * validate --window}, say).
 */
public record ReportAnomaly(
        List<String> featurePath,
        String anomalyType,
        String severity,
        String shortDescription,
        String description,
        int alerts) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Lines longer than this are refused rather than parsed. */
    private static final int MAX_LINE_CHARS = 1 << 20;

    /** At most this many alert lines are read. */
    private static final int MAX_ALERTS = 1_000_000;

    public ReportAnomaly {
        featurePath = List.copyOf(featurePath);
    }

    /**
     * The anomalies of a file of alert JSON lines ({@code tfstream validate}'s output, the alerts
     * topic's records, {@code tfstream local}'s {@code alerts.jsonl}): alerts of the same feature
     * and anomaly type become one, with the texts of the last and the count of all. Blank lines are
     * skipped.
     *
     * @throws IOException when the file cannot be read, or a line is not an alert (the message
     *     names the line)
     */
    public static List<ReportAnomaly> readAlerts(Path file) throws IOException {
        java.util.LinkedHashMap<List<Object>, ReportAnomaly> byKey =
                new java.util.LinkedHashMap<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            int read = 0;
            while ((line = r.readLine()) != null) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                if (line.length() > MAX_LINE_CHARS || ++read > MAX_ALERTS) {
                    throw new IOException(
                            file + ": line " + number + ": more than the report reads");
                }
                ReportAnomaly a = parse(file, number, line);
                List<Object> key = List.of(a.featurePath, a.anomalyType);
                ReportAnomaly before = byKey.get(key);
                byKey.put(
                        key,
                        before == null
                                ? a
                                : new ReportAnomaly(
                                        a.featurePath,
                                        a.anomalyType,
                                        a.severity,
                                        a.shortDescription,
                                        a.description,
                                        before.alerts + 1));
            }
        }
        return new ArrayList<>(byKey.values());
    }

    private static ReportAnomaly parse(Path file, int number, String line) throws IOException {
        JsonNode n;
        try {
            n = JSON.readTree(line);
        } catch (IOException e) {
            throw new IOException(file + ": line " + number + " is not JSON", e);
        }
        if (n == null
                || !n.isObject()
                || !n.path("anomaly_type").isTextual()
                || !n.path("feature_path_steps").isArray()) {
            throw new IOException(
                    file
                            + ": line "
                            + number
                            + " is not an alert (no anomaly_type and feature_path_steps)");
        }
        List<String> steps = new ArrayList<>();
        n.get("feature_path_steps").forEach(s -> steps.add(s.asText()));
        return new ReportAnomaly(
                steps,
                n.get("anomaly_type").asText(),
                n.path("severity").asText(""),
                n.path("short_description").asText(""),
                n.path("description").asText(""),
                1);
    }
}
