/**
 * Parsing serialized {@code tf.train.Example} and {@code tf.train.SequenceExample} records into
 * columnar tensors, with the semantics and error texts of TensorFlow's {@code ParseExampleV2} and
 * {@code ParseSequenceExampleV2} kernels ({@code example_proto_fast_parsing.cc}, TF 2.18) and
 * Python's {@code parse_example} composition.
 *
 * <p>This package holds what both record kinds share: the limits on what untrusted input may make
 * the parser allocate ({@link io.tfstream.parse.ParseLimits}, published), the errors ({@link
 * io.tfstream.parse.ExampleParseException}, published, with its {@link
 * io.tfstream.parse.ParseErrorKind}), the records handed to a parser ({@link
 * io.tfstream.parse.SerializedRecords}), records of other formats decoded straight into columns
 * ({@link io.tfstream.parse.RecordDecoder}), and the entry points that take either kind: {@link
 * io.tfstream.parse.LenientBatchParser} (a batch whose bad records are set aside) and {@link
 * io.tfstream.parse.FeatureEntryWalker}.
 *
 * <p>The sub-packages split the rest by what they parse: {@code wire} decodes the protobuf wire
 * format of a feature's values, {@code example} parses Examples ({@code ExampleBatchParser}, {@code
 * SingleExampleParser}), {@code sequence} parses SequenceExamples, and {@code composite} is
 * Python's composite layer that runs after either kernel (sparse and ragged features).
 */
package io.tfstream.parse;
