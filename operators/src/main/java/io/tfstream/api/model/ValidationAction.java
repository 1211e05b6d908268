package io.tfstream.api.model;

import org.apache.flink.annotation.PublicEvolving;

/** What happens to an accepted record with a per-record anomaly ({@code validation.actions}). */
@PublicEvolving
public enum ValidationAction {
    /** Passed on unchanged; only counted in the window's alerts. */
    PASS,
    /** Passed on with header {@code tfstream.anomalies} listing the anomaly types. */
    MARK,
    /** Sent to the dead-letter output with reason {@code validation}, in no other output. */
    DIVERT
}
