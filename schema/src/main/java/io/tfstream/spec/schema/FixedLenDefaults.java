package io.tfstream.spec.schema;

/**
 * Which default a {@code FixedLenFeature} derived from a schema gets when the schema gives none (no
 * {@code dense_tensor.default_value}).
 */
public enum FixedLenDefaults {
    /**
     * None: the feature is required, as tfx-bsl's and tensorflow_transform's open-source path
     * produce it. The default.
     */
    NONE,

    /**
     * The table of the legacy spec generation ({@code generate_legacy_feature_spec}, not part of
     * the open-source path): BYTES {@code b''}, INT {@code -1}, FLOAT {@code -1.0}, repeated to
     * {@code prod(shape)} values. An explicit {@code default_value} still wins.
     */
    LEGACY
}
