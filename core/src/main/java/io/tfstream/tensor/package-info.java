/**
 * Columnar tensors as TensorFlow's parsing ops return them: {@link io.tfstream.tensor.DenseTensor},
 * {@link io.tfstream.tensor.SparseTensor} and {@link io.tfstream.tensor.RaggedTensor} over a flat
 * {@link io.tfstream.tensor.Column} of int64, float32 or byte-string values, plus the growable
 * buffers the parser fills.
 */
package io.tfstream.tensor;
