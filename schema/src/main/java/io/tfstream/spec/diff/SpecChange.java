package io.tfstream.spec.diff;

import java.util.Locale;
import java.util.Objects;

/**
 * One feature-level difference between two parse specs.
 *
 * @param section {@code context} or {@code feature_lists} for SequenceExample specs, else null
 * @param feature the output name in the spec dict (null for a change of the whole spec's kind)
 * @param change what changed
 * @param oldJson the old value as JSON text ({@code null} when absent)
 * @param newJson the new value as JSON text ({@code null} when absent)
 * @param breaking true when a record the old spec accepts can be refused under the new one
 * @param reason why the change breaks or not, in one sentence
 */
public record SpecChange(
        String section,
        String feature,
        Kind change,
        String oldJson,
        String newJson,
        boolean breaking,
        String reason) {

    /** The kinds of change {@code tfstream schema diff} reports. */
    public enum Kind {
        ADDED,
        REMOVED,
        DTYPE,
        SHAPE,
        DEFAULT,
        REQUIRED,
        KIND;

        /** The lowercase name used in JSON and text output. */
        public String jsonName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public SpecChange {
        Objects.requireNonNull(change, "change");
        Objects.requireNonNull(oldJson, "oldJson");
        Objects.requireNonNull(newJson, "newJson");
        Objects.requireNonNull(reason, "reason");
    }

    /** The feature with its section, e.g. {@code feature_lists/tokens}. */
    public String qualifiedFeature() {
        String name = feature == null ? "*" : feature;
        return section == null ? name : section + "/" + name;
    }
}
