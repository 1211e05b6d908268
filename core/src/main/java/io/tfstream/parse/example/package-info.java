/**
 * Parsing {@code tf.train.Example} records: {@code tf.io.parse_example} ({@link
 * io.tfstream.parse.example.ExampleBatchParser}) and {@code tf.io.parse_single_example} ({@link
 * io.tfstream.parse.example.SingleExampleParser}).
 *
 * <p>A spec is lowered to raw keys once ({@link io.tfstream.parse.example.ExampleParsePlan}), each
 * record is split into its map entries without an object graph ({@link
 * io.tfstream.parse.example.ExampleScanner}), requested values are decoded straight into per-key
 * columns, and the columns become tensors per batch ({@link
 * io.tfstream.parse.example.BatchAssembler}). Internal: the DataStream API and the SQL formats are
 * the published way to parse.
 */
package io.tfstream.parse.example;
