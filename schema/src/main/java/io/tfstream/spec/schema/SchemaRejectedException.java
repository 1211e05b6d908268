package io.tfstream.spec.schema;

import io.tfstream.spec.SpecRejectedException;

/**
 * A TFMD schema that tfx-bsl / tensorflow_transform refuse to turn into a feature spec. {@link
 * #reason()} is upstream's error text verbatim (the {@code ValueError} / {@code
 * NotImplementedError} message); {@link #getMessage()} adds the feature's name when that text does
 * not already name it.
 */
public final class SchemaRejectedException extends SpecRejectedException {
    private static final long serialVersionUID = 1L;

    private final String reason;
    private final String feature;

    private SchemaRejectedException(String message, String reason, String feature) {
        super(message);
        this.reason = reason;
        this.feature = feature;
    }

    /** A rejection whose upstream text already names the feature. */
    static SchemaRejectedException naming(String feature, String reason) {
        return new SchemaRejectedException(reason, reason, feature);
    }

    /** A rejection whose upstream text does not name the feature: the name is appended. */
    static SchemaRejectedException of(String feature, String reason) {
        return new SchemaRejectedException(
                reason + " (feature '" + feature + "')", reason, feature);
    }

    /** Upstream's error text, without the feature name this class may add. */
    public String reason() {
        return reason;
    }

    /** The feature or tensor representation the schema was rejected for. */
    public String feature() {
        return feature;
    }
}
