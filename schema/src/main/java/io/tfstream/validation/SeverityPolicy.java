package io.tfstream.validation;

import java.util.EnumMap;
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

    /** TFDV's {@code severity_overrides}. */
    public static SeverityPolicy withOverrides(Map<AnomalyInfo.Type, AnomalyInfo.Severity> o) {
        Map<AnomalyInfo.Type, AnomalyInfo.Severity> m = new EnumMap<>(AnomalyInfo.Type.class);
        m.putAll(o);
        return new SeverityPolicy(m);
    }

    public AnomalyInfo.Severity severity(AnomalyInfo.Type type) {
        return overrides.getOrDefault(type, AnomalyInfo.Severity.ERROR);
    }
}
