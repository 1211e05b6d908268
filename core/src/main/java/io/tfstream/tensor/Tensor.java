package io.tfstream.tensor;

import io.tfstream.spec.DType;

/**
 * One parsed output: a dense tensor, a SparseTensor or a RaggedTensor, as TensorFlow returns it.
 */
public sealed interface Tensor permits DenseTensor, SparseTensor, RaggedTensor {
    DType dtype();

    /** The flat values. */
    Column values();
}
