/**
 * The tfstream DataStream API: the pipeline's operators as builders for a Flink job of your own, in
 * the style of Flink's connectors. {@link io.tfstream.api.TfstreamParse} batches and parses a
 * stream of serialized {@code tf.train.Example}s into a {@link io.tfstream.api.ParseResult}
 * (accepted records, tensor batches, dead letters); {@link io.tfstream.api.TfRecordShards} writes
 * accepted records as TFRecord shards. {@code tfstream run} builds its own graph with these same
 * builders.
 */
package io.tfstream.api;
