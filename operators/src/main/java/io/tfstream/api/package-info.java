/**
 * The tfstream DataStream API: the pipeline's operators as builders for a Flink job of your own, in
 * the style of Flink's connectors. Sources: {@link io.tfstream.api.TfstreamKafkaSource} and {@link
 * io.tfstream.api.TfRecordFileSource}. {@link io.tfstream.api.TfstreamConvert} turns JSON or Avro
 * records into Examples ({@link io.tfstream.api.ConvertResult}). {@link
 * io.tfstream.api.TfstreamParse} batches and parses a stream of serialized {@code
 * tf.train.Example}s into a {@link io.tfstream.api.ParseResult} (accepted records, tensor batches,
 * dead letters); {@link io.tfstream.api.TfstreamValidation} validates the rows in the parse and
 * evaluates windows into alerts; {@link io.tfstream.api.TfRecordShards} writes accepted records as
 * TFRecord shards behind its guards. The Kafka outputs are Flink's own {@code KafkaSink} with the
 * record serializers of {@link io.tfstream.api.TensorBatchRecords}, {@link
 * io.tfstream.api.DeadLetterRecords}, {@link io.tfstream.api.AcceptedRecords} and {@link
 * io.tfstream.api.ValidationRecords}. {@code tfstream run} builds its own graph with these same
 * builders.
 */
package io.tfstream.api;
