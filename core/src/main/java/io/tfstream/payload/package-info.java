/**
 * The tensor payload codec: a parsed batch as a {@code tfstream.v1.TensorBatch} message (one {@code
 * TensorProto} per output tensor), split by size into numbered parts, and read back.
 */
package io.tfstream.payload;
