package io.tfstream.spec;

import org.apache.flink.annotation.PublicEvolving;

/**
 * What a parser needs to know about its input: either one feature-spec dict for {@code
 * tf.io.parse_example} ({@link FeatureSpecs}, written as SPEC.json) or the context and feature-list
 * dicts of {@code tf.io.parse_sequence_example} ({@link SequenceFeatureSpecs}, written as
 * SEQSPEC.json).
 */
@PublicEvolving
public sealed interface ParseSpec permits FeatureSpecs, SequenceFeatureSpecs {

    /** True for {@link SequenceFeatureSpecs}. */
    default boolean isSequence() {
        return this instanceof SequenceFeatureSpecs;
    }
}
