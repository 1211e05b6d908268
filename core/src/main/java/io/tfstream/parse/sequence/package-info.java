/**
 * Parsing {@code tf.train.SequenceExample} records: {@code tf.io.parse_sequence_example} ({@link
 * io.tfstream.parse.sequence.SequenceExampleBatchParser}), its context features and its feature
 * lists, counted in one pass and assembled in a second, as TensorFlow's {@code
 * FastParseSequenceExample} does. Internal.
 */
package io.tfstream.parse.sequence;
