package io.tfstream.api.model;

import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * One message of the validation outputs: an alert ({@code key} = alert id, {@code value} = the
 * alert JSON in UTF-8) or a window's TFDV {@code Anomalies} proto ({@code key} = {@code <window
 * start>/<split>}, {@code value} = the serialized proto).
 */
@PublicEvolving
public record ValidationOutput(String key, byte[] value) {
    public ValidationOutput {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
    }
}
