package io.tfstream.api;

import org.apache.flink.annotation.PublicEvolving;

/**
 * A Kafka sink of the parsed batches' tensor payloads ({@link ParseResult#batches()}), one {@code
 * tfstream.v1.TensorBatch} per message with its {@code tfstream.*} headers, as {@code tfstream
 * run}'s {@code output.batches.topic}:
 *
 * <pre>{@code
 * TensorPayloadSinkBuilder payloads = TensorPayloadSink.builder()
 *         .setBootstrapServers("broker:9092")
 *         .setTopic("batches")
 *         .setTransactionalIdPrefix("my-job-batches");
 * TfstreamParse parse = TfstreamParse.builder()
 *         .setSchemaFile(schema)
 *         .setTensorBatches(fingerprint, payloads.maxPayloadBytes())
 *         .build();
 * parse.applyTo(records).batches().sinkTo(payloads.build());
 * }</pre>
 *
 * <p>The producer gets {@code max.request.size} = {@link
 * TensorPayloadSinkBuilder#setMaxMessageBytes} and a {@code buffer.memory} of at least two
 * messages.
 */
@PublicEvolving
public final class TensorPayloadSink {
    private TensorPayloadSink() {}

    /**
     * A builder of the sink; {@code build()} gives Flink's {@code KafkaSink<EncodedTensorBatch>}.
     */
    public static TensorPayloadSinkBuilder builder() {
        return new TensorPayloadSinkBuilder();
    }
}
