package io.tfstream.validation;

import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.tensorflow.metadata.v0.AnomalyInfo;

/**
 * Severity per anomaly type: {@code ERROR} unless overridden, as TFDV's {@code
 * ValidationConfig.severity_overrides} (dataset-level reasons are always {@code ERROR}).
 */
public final class SeverityPolicy {
    private final Map<AnomalyInfo.Type, AnomalyInfo.Severity> overrides;

    private SeverityPolicy(Map<AnomalyInfo.Type, AnomalyInfo.Severity> overrides) {
        this.overrides = overrides;
    }

    public static SeverityPolicy allErrors() {
        return new SeverityPolicy(new EnumMap<>(AnomalyInfo.Type.class));
    }

    /**
     * Parses {@code TYPE=SEVERITY} entries: TYPE an {@code AnomalyInfo.Type} name, SEVERITY {@code
     * ERROR} or {@code WARNING} (any case).
     *
     * @throws IllegalArgumentException naming the bad entry and what is accepted
     */
    public static SeverityPolicy parse(List<String> entries) {
        Map<AnomalyInfo.Type, AnomalyInfo.Severity> m = new EnumMap<>(AnomalyInfo.Type.class);
        for (String e : entries) {
            int eq = e.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(
                        "'" + e + "' is not TYPE=SEVERITY (e.g. SCHEMA_NEW_COLUMN=WARNING)");
            }
            String name = e.substring(0, eq).trim().toUpperCase(Locale.ROOT);
            String level = e.substring(eq + 1).trim().toUpperCase(Locale.ROOT);
            AnomalyInfo.Type type;
            try {
                type = AnomalyInfo.Type.valueOf(name);
            } catch (IllegalArgumentException x) {
                throw new IllegalArgumentException(
                        "'" + e + "': " + name + " is not an anomaly type name (AnomalyInfo.Type)",
                        x);
            }
            if (type == AnomalyInfo.Type.UNKNOWN_TYPE) {
                throw new IllegalArgumentException("'" + e + "': UNKNOWN_TYPE has no severity");
            }
            if (!level.equals("ERROR") && !level.equals("WARNING")) {
                throw new IllegalArgumentException(
                        "'" + e + "': severity must be ERROR or WARNING");
            }
            m.put(type, AnomalyInfo.Severity.valueOf(level));
        }
        return new SeverityPolicy(m);
    }

    public AnomalyInfo.Severity severity(AnomalyInfo.Type type) {
        return overrides.getOrDefault(type, AnomalyInfo.Severity.ERROR);
    }
}
