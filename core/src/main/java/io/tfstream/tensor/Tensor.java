package io.tfstream.tensor;

import io.tfstream.spec.DType;
import org.apache.flink.annotation.PublicEvolving;

/**
 * One parsed output: a dense tensor, a SparseTensor or a RaggedTensor, as TensorFlow returns it.
 */
@PublicEvolving
public sealed interface Tensor permits DenseTensor, SparseTensor, RaggedTensor {
    DType dtype();

    /** The flat values. */
    Column values();
}
