package io.tfstream.validation;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/** Makes {@link Alert}s from the findings of a window, with deterministic alert ids. */
public final class Alerts {
    private Alerts() {}

    /** Where and when a window's alerts are made. */
    public record Context(
            String job,
            long windowStart,
            long windowEnd,
            long emittedAt,
            long watermark,
            long lateCount,
            long controlWindowStart) {}

    /**
     * Hex of the first 16 bytes of SHA-256 over (job, schema fingerprint, window start, serialized
     * feature path, anomaly type name), NUL-separated.
     */
    public static String alertId(
            String job, String fingerprint, long windowStart, String path, String type) {
        String key = job + '\0' + fingerprint + '\0' + windowStart + '\0' + path + '\0' + type;
        try {
            byte[] d =
                    MessageDigest.getInstance("SHA-256")
                            .digest(key.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }

    public static List<Alert> of(
            Context c,
            WindowAccumulator window,
            List<WindowFinding> findings,
            SeverityPolicy severity) {
        ValidationSchema schema = window.schema();
        List<Alert> out = new ArrayList<>(findings.size());
        long n = window.numExamples();
        for (WindowFinding w : findings) {
            Finding f = w.finding();
            String path = f.path() == null ? "" : f.path().serialized();
            long present = 0;
            if (f.path() != null) {
                for (FeatureRule r : schema.rules()) {
                    if (r.path.equals(f.path())) {
                        present = window.stats[r.index].present;
                    }
                }
            }
            boolean dataset = w.scope() == AlertScope.DATASET;
            out.add(
                    new Alert(
                            alertId(
                                    c.job(),
                                    schema.fingerprint(),
                                    c.windowStart(),
                                    path,
                                    f.type().name()),
                            w.scope(),
                            c.windowStart(),
                            c.windowEnd(),
                            c.emittedAt(),
                            c.watermark(),
                            schema.options().environment() == null
                                    ? ""
                                    : schema.options().environment(),
                            schema.fingerprint(),
                            path,
                            f.path() == null ? List.of() : f.path().steps(),
                            f.type().name(),
                            f.type().getNumber(),
                            (dataset
                                            ? org.tensorflow.metadata.v0.AnomalyInfo.Severity.ERROR
                                            : severity.severity(f.type()))
                                    .name(),
                            f.shortDescription(),
                            f.description(),
                            n,
                            present,
                            n - present,
                            w.affectedExamples(),
                            n == 0 ? 0 : (double) w.affectedExamples() / n,
                            w.observed(),
                            w.expected(),
                            w.measurement(),
                            w.measurement() == null ? -1 : c.controlWindowStart(),
                            f.samples(),
                            w.exampleRefs(),
                            w.firstSeen(),
                            w.lastSeen(),
                            c.lateCount()));
        }
        return out;
    }

    /**
     * The tier-S (schema lint) findings of {@code schema} as {@link AlertScope#SCHEMA} alerts.
     * Their ids do not depend on a window (window start 0 in the id), so a report repeated after a
     * restore carries the same ids.
     */
    public static List<Alert> lint(
            ValidationSchema schema,
            String job,
            SeverityPolicy severity,
            long windowStart,
            long windowEnd,
            long emittedAt,
            long watermark) {
        List<Alert> out = new ArrayList<>();
        String env = schema.options().environment() == null ? "" : schema.options().environment();
        for (LintFinding f : schema.lintFindings()) {
            String path = f.path() == null ? "" : f.path().serialized();
            out.add(
                    new Alert(
                            Alerts.alertId(job, schema.fingerprint(), 0, path, f.type().name()),
                            AlertScope.SCHEMA,
                            windowStart,
                            windowEnd,
                            emittedAt,
                            watermark,
                            env,
                            schema.fingerprint(),
                            path,
                            f.path() == null ? List.of() : f.path().steps(),
                            f.type().name(),
                            f.type().getNumber(),
                            severity.severity(f.type()).name(),
                            f.shortDescription(),
                            f.description(),
                            0,
                            0,
                            0,
                            0,
                            0,
                            Map.of(),
                            Map.of(),
                            null,
                            -1,
                            List.of(),
                            List.of(),
                            Long.MAX_VALUE,
                            Long.MIN_VALUE,
                            0));
        }
        return out;
    }

    /** The {@code anomaly_type} of a refused schema update (not a TFDV anomaly type, number 0). */
    public static final String SCHEMA_UPDATE_REJECTED = "SCHEMA_UPDATE_REJECTED";

    /**
     * The {@link AlertScope#SCHEMA} alert of a new schema file that a running job refused ({@code
     * schema.update: poll}): {@code schema_fingerprint} is the schema that stays in force, {@code
     * description} the rejection message, {@code observed} the refused file's path and content
     * SHA-256. The id depends on the job, the schema in force and the refused content, so the same
     * refusal repeated (another subtask, a restore) carries the same id.
     */
    public static Alert schemaRejected(
            String job,
            String fingerprintInForce,
            String path,
            String contentSha256,
            String message,
            long emittedAt) {
        return new Alert(
                alertId(job, fingerprintInForce, 0, contentSha256, SCHEMA_UPDATE_REJECTED),
                AlertScope.SCHEMA,
                0,
                0,
                emittedAt,
                Long.MIN_VALUE,
                "",
                fingerprintInForce,
                "",
                List.of(),
                SCHEMA_UPDATE_REJECTED,
                0,
                "ERROR",
                "New schema refused",
                message,
                0,
                0,
                0,
                0,
                0,
                Map.of("path", path, "content_sha256", contentSha256),
                Map.of(),
                null,
                -1,
                List.of(),
                List.of(),
                Long.MAX_VALUE,
                Long.MIN_VALUE,
                0);
    }
}
