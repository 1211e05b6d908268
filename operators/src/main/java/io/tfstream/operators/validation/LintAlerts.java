package io.tfstream.operators.validation;

import io.tfstream.validation.Alert;
import io.tfstream.validation.AlertScope;
import io.tfstream.validation.Alerts;
import io.tfstream.validation.LintFinding;
import io.tfstream.validation.SeverityPolicy;
import io.tfstream.validation.ValidationSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The tier-S (schema lint) findings of a schema as {@link AlertScope#SCHEMA} alerts, reported once
 * with the first window evaluated. Their ids do not depend on the window (window start 0 in the
 * id), so a report repeated after a restore from an older savepoint carries the same ids.
 */
final class LintAlerts {
    private LintAlerts() {}

    static List<Alert> of(
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
}
