package io.tfstream.api.model;

import io.tfstream.text.Quoted;
import java.io.Serializable;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;
import org.tensorflow.metadata.v0.AnomalyInfo;

/**
 * The action per anomaly type name, else per severity, else {@link ValidationAction#PASS}: parsed
 * from {@code TYPE=action} / {@code SEVERITY=action} entries ({@code validation.actions}). The
 * action of a record is the strongest of its anomalies' ({@code divert} over {@code mark} over
 * {@code pass}).
 */
@PublicEvolving
public final class ValidationActions implements Serializable {
    private static final long serialVersionUID = 1L;

    private final EnumMap<AnomalyInfo.Type, ValidationAction> byType;
    private final EnumMap<AnomalyInfo.Severity, ValidationAction> bySeverity;

    private ValidationActions(
            EnumMap<AnomalyInfo.Type, ValidationAction> byType,
            EnumMap<AnomalyInfo.Severity, ValidationAction> bySeverity) {
        this.byType = byType;
        this.bySeverity = bySeverity;
    }

    /** Every anomaly passes. */
    public static ValidationActions passAll() {
        return parse(List.of());
    }

    /**
     * Parses {@code NAME=action} entries; NAME is an {@code AnomalyInfo.Type} name (e.g. {@code
     * ENUM_TYPE_UNEXPECTED_STRING_VALUES}) or a severity ({@code ERROR}, {@code WARNING}), action
     * one of pass, mark, divert (any case).
     *
     * @throws IllegalArgumentException naming the bad entry and what is accepted
     */
    public static ValidationActions parse(List<String> entries) {
        EnumMap<AnomalyInfo.Type, ValidationAction> types = new EnumMap<>(AnomalyInfo.Type.class);
        EnumMap<AnomalyInfo.Severity, ValidationAction> severities =
                new EnumMap<>(AnomalyInfo.Severity.class);
        for (String e : entries) {
            int eq = e.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(
                        "'"
                                + Quoted.cut(e)
                                + "' is not NAME=action (e.g. INT_TYPE_BIG_INT=divert)");
            }
            String name = e.substring(0, eq).trim().toUpperCase(Locale.ROOT);
            ValidationAction action = action(e, e.substring(eq + 1));
            if (name.equals("ERROR") || name.equals("WARNING")) {
                severities.put(AnomalyInfo.Severity.valueOf(name), action);
                continue;
            }
            AnomalyInfo.Type type;
            try {
                type = AnomalyInfo.Type.valueOf(name);
            } catch (IllegalArgumentException x) {
                throw new IllegalArgumentException(
                        "'"
                                + e
                                + "': "
                                + name
                                + " is neither an anomaly type name (AnomalyInfo.Type) nor a"
                                + " severity (ERROR, WARNING)",
                        x);
            }
            types.put(type, action);
        }
        return new ValidationActions(types, severities);
    }

    private static ValidationAction action(String entry, String text) {
        try {
            return ValidationAction.valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException x) {
            throw new IllegalArgumentException(
                    "'" + Quoted.cut(entry) + "': action must be one of pass, mark, divert", x);
        }
    }

    /** Whether every anomaly passes (then records need no per-record action). */
    public boolean allPass() {
        return byType.values().stream().allMatch(a -> a == ValidationAction.PASS)
                && bySeverity.values().stream().allMatch(a -> a == ValidationAction.PASS);
    }

    /**
     * The action for an anomaly of {@code type} at {@code severity}: the one its type is given,
     * else the one of its severity, else {@link ValidationAction#PASS}.
     */
    public ValidationAction actionFor(AnomalyInfo.Type type, AnomalyInfo.Severity severity) {
        ValidationAction a = byType.get(type);
        if (a != null) {
            return a;
        }
        return bySeverity.getOrDefault(severity, ValidationAction.PASS);
    }

    /** The actions as configured, for messages. */
    public Map<String, ValidationAction> asMap() {
        Map<String, ValidationAction> m = new java.util.LinkedHashMap<>();
        byType.forEach((k, v) -> m.put(k.name(), v));
        bySeverity.forEach((k, v) -> m.put(k.name(), v));
        return m;
    }
}
