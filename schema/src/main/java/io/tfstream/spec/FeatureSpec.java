package io.tfstream.spec;

/**
 * One entry of a {@code tf.io} feature-spec dict: how a tensor is built from the features of
 * serialized Examples. The five kinds mirror Python's {@code FixedLenFeature}, {@code
 * FixedLenSequenceFeature}, {@code VarLenFeature}, {@code SparseFeature} and {@code RaggedFeature};
 * instances are immutable and validated on construction.
 */
public sealed interface FeatureSpec
        permits FixedLenFeature,
                FixedLenSequenceFeature,
                VarLenFeature,
                SparseFeature,
                RaggedFeature {

    /** The value type of the tensor this spec produces. */
    DType dtype();
}
