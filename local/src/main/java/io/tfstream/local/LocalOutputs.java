package io.tfstream.local;

import io.tfstream.job.JobConfig;
import io.tfstream.job.JobOptions;
import io.tfstream.proto.v1.TensorBatch;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a finished job left, collected under {@code --out}: the committed dead letters ({@code
 * dlq.jsonl}), payloads ({@code batches.tfrecord}) and, with validation on, alerts ({@code
 * alerts.jsonl}) drained from their topics, and the finished shards on disk or on S3.
 */
record LocalOutputs(
        long deadLettered,
        Map<String, Long> deadLetteredByReason,
        long batches,
        long batchRows,
        long alerts,
        ShardListing shards,
        SchemaCounts bySchema) {

    /**
     * Drains the run's topics into files under {@code outDir} and lists the shards: under {@code
     * outDir/shards}, or {@code onS3} under the job's shards path.
     */
    static LocalOutputs collect(
            LocalBroker broker, LocalTopics topics, JobConfig config, Path outDir, boolean onS3)
            throws IOException {
        Map<String, Long> byReason = new TreeMap<>();
        SchemaCounts bySchema = new SchemaCounts();
        long dead =
                DeadLetterDrain.drain(
                        broker, topics.dlq(), outDir.resolve("dlq.jsonl"), byReason, bySchema);
        long[] batches =
                drainBatches(
                        broker, topics.batches(), outDir.resolve("batches.tfrecord"), bySchema);
        long alerts =
                config.get(JobOptions.VALIDATION_ENABLED)
                        ? AlertsDrain.drain(
                                broker,
                                config.get(JobOptions.VALIDATION_ALERTS_TOPIC),
                                outDir.resolve("alerts.jsonl"))
                        : 0;
        ShardListing shards =
                onS3
                        ? ShardListing.onObjectStore(config.get(JobOptions.SHARDS_PATH))
                        : ShardListing.onDisk(outDir.resolve("shards"));
        bySchema.addShards(shards, outDir);
        return new LocalOutputs(dead, byReason, batches[0], batches[1], alerts, shards, bySchema);
    }

    /** Writes the payloads to {@code file} as they are; returns {payloads, rows}. */
    private static long[] drainBatches(
            LocalBroker broker, String topic, Path file, SchemaCounts bySchema) throws IOException {
        long[] n = {0, 0};
        try (TfRecordWriter w = TfRecordFiles.newWriter(file, Compression.NONE)) {
            TopicDrain.readCommitted(
                    broker,
                    topic,
                    r -> {
                        try {
                            TensorBatch b = TensorBatch.parseFrom(r.value());
                            n[1] += b.getRows();
                            bySchema.of(b.getSchemaFingerprint()).batches++;
                            w.write(r.value(), 0, r.value().length);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                        n[0]++;
                    });
        }
        return n;
    }
}
