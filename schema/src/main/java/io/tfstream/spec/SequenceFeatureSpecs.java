package io.tfstream.spec;

import java.util.Objects;

/**
 * The two feature-spec dicts of {@code tf.io.parse_sequence_example}: context features (FixedLen,
 * VarLen, Ragged) and feature lists (FixedLenSequence, VarLen, Ragged).
 */
public record SequenceFeatureSpecs(FeatureSpecs context, FeatureSpecs featureLists)
        implements ParseSpec {
    public SequenceFeatureSpecs {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(featureLists, "featureLists");
        for (var e : context.features().entrySet()) {
            FeatureSpec s = e.getValue();
            if (!(s instanceof FixedLenFeature
                    || s instanceof VarLenFeature
                    || s instanceof RaggedFeature)) {
                throw new IllegalArgumentException(
                        "Unsupported "
                                + s.getClass().getSimpleName()
                                + " "
                                + e.getKey()
                                + " in context features: allowed are fixed_len, var_len, ragged");
            }
        }
        for (var e : featureLists.features().entrySet()) {
            FeatureSpec s = e.getValue();
            if (!(s instanceof FixedLenSequenceFeature
                    || s instanceof VarLenFeature
                    || s instanceof RaggedFeature)) {
                throw new IllegalArgumentException(
                        "Unsupported "
                                + s.getClass().getSimpleName()
                                + " "
                                + e.getKey()
                                + " in feature lists: allowed are fixed_len_seq, var_len, ragged");
            }
        }
    }
}
