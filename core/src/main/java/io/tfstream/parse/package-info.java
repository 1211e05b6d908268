/**
 * Batch parsing of serialized {@code tf.train.Example} records into columnar tensors, with the
 * semantics and error texts of TensorFlow's {@code ParseExampleV2} kernel ({@code
 * example_proto_fast_parsing.cc}, TF 2.18) and Python's {@code parse_example} composition.
 *
 * <p>{@link io.tfstream.parse.ExampleBatchParser} is the entry point: a spec is lowered to raw keys
 * once ({@code ExampleParsePlan}), each record is split into its map entries without an object
 * graph ({@code ExampleScanner} over {@code WireCursor}), requested values are decoded straight
 * into per-key columns ({@code FeatureListDecoder}, {@code KeyColumn}) and the columns become
 * tensors per batch ({@code BatchAssembler}). {@link io.tfstream.parse.ParseLimits} bounds what
 * untrusted input may make the parser allocate.
 *
 * <p>Python's composite layer runs after the kernel: {@code SparseFeatureMerge} ({@code
 * sparse_merge_impl}) and {@code RaggedPartitions} ({@code _add_batched_ragged_partition} / {@code
 * _add_ragged_partition}, public through {@link io.tfstream.parse.RaggedComposition}). {@link
 * io.tfstream.parse.SingleExampleParser} is {@code parse_single_example} (scalar input) and {@link
 * io.tfstream.parse.SequenceExampleBatchParser} parses SequenceExamples, both sharing the same
 * composition.
 */
package io.tfstream.parse;
