package io.tfstream.job;

import io.tfstream.api.AcceptedRecords;
import io.tfstream.api.TensorBatchRecords;
import io.tfstream.api.TfstreamParseBuilder;
import io.tfstream.api.model.PayloadKeyMode;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.api.options.BatchOptions;
import io.tfstream.api.options.KafkaSinkOptions;
import io.tfstream.api.options.PayloadOptions;
import io.tfstream.payload.EncodedTensorBatch;
import java.util.Properties;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;

/**
 * The optional outputs of accepted data ({@code output.records.topic}, {@code output.batches.*}):
 * the records topic and the batches' tensor payloads, with the size limit a payload message keeps
 * to.
 */
final class PayloadConfig {
    /** Bytes of a payload message kept for its key, headers and Kafka's record framing. */
    static final int BATCH_MESSAGE_RESERVE = TensorBatchRecords.MESSAGE_RESERVE;

    private static final long MIN_BATCH_MESSAGE_BYTES = TensorBatchRecords.MIN_MAX_MESSAGE_BYTES;

    private final JobConfig c;
    // output.batches.*, output.records.topic, and batch.mode
    private final StageView v;

    PayloadConfig(JobConfig c) {
        this.c = c;
        this.v = c.view(JobOptionStage.PAYLOADS, JobOptionStage.KAFKA_SINKS, JobOptionStage.BATCH);
        if (v.get(BatchOptions.MODE) != BatchOptions.Mode.EVENT_TIME_WINDOW
                && v.get(PayloadOptions.KEY) == PayloadKeyMode.BATCH_KEY) {
            throw new JobConfigException(
                    "output.batches.key batch_key needs batch.mode event_time_window (batches"
                            + " closed by count, bytes or delay have no grouping key); use none or"
                            + " source_partition");
        }
        long payload = maxMessageBytes();
        if (payload < MIN_BATCH_MESSAGE_BYTES || payload > Integer.MAX_VALUE - 8) {
            throw OptionChecks.invalid(
                    payload + " bytes",
                    "output.batches.max-message-bytes (or output.properties.max.request.size)",
                    "4 KiB to 2 GiB");
        }
    }

    boolean batches() {
        return v.has(PayloadOptions.TOPIC);
    }

    boolean records() {
        return v.has(KafkaSinkOptions.RECORDS_TOPIC);
    }

    /**
     * The largest payload Kafka message: {@code output.batches.max-message-bytes}, else the
     * producer's {@code max.request.size}, else Kafka's default 1 MiB.
     */
    long maxMessageBytes() {
        if (v.has(PayloadOptions.MAX_MESSAGE_BYTES)) {
            return v.get(PayloadOptions.MAX_MESSAGE_BYTES).getBytes();
        }
        String request = c.outputProperties().getProperty("max.request.size");
        if (request != null) {
            try {
                return Long.parseLong(request.trim());
            } catch (NumberFormatException e) {
                throw OptionChecks.invalid(
                        request, "output.properties.max.request.size", "a number of bytes");
            }
        }
        return 1 << 20;
    }

    /** The largest serialized TensorBatch: the message limit less the reserve. */
    int maxPayloadBytes() {
        return (int) (maxMessageBytes() - BATCH_MESSAGE_RESERVE);
    }

    /** {@code parse} emitting its batches' payloads when {@code output.batches.topic} is set. */
    TfstreamParseBuilder withPayloads(TfstreamParseBuilder parse, String schemaFingerprint) {
        return batches() ? parse.setTensorBatches(schemaFingerprint, maxPayloadBytes()) : parse;
    }

    /** The payloads' records (topic and key). */
    KafkaRecordSerializationSchema<EncodedTensorBatch> batchRecords() {
        return TensorBatchRecords.fromConfig(v);
    }

    /** The payloads' producer, sized to their largest message. */
    Properties batchProducer() {
        return TensorBatchRecords.producerProperties(c.outputProperties(), maxMessageBytes());
    }

    /** The accepted records' records ({@code output.records.topic}). */
    KafkaRecordSerializationSchema<SourceRecord> acceptedRecords() {
        return AcceptedRecords.fromConfig(v);
    }
}
