package io.tfstream.job.validation;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.proto.v1.TensorBatch;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.SchemaFingerprint;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.testkit.KafkaTestCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * What the {@code schema.update: poll} ITCases share: schema files replaced as a deployment would,
 * fingerprints, the polling settings, the payloads' fingerprints and the end of a run after a
 * killed TaskManager.
 */
final class LiveSchemaTestSupport {
    private LiveSchemaTestSupport() {}

    /** {@code spec} as SPEC.json bytes. */
    static byte[] specJson(FeatureSpecs spec) {
        return SpecJsonWriter.write(spec).getBytes(StandardCharsets.UTF_8);
    }

    /** The fingerprint of {@code spec} read from a file named {@code spec.json}. */
    static String fingerprint(FeatureSpecs spec) {
        return fingerprint(specJson(spec), "spec.json");
    }

    /** The fingerprint of {@code content} read from a file named {@code fileName}. */
    static String fingerprint(byte[] content, String fileName) {
        try {
            return SchemaFingerprint.of(content, fileName);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Replaces {@code file} in one step, as a deployment would (a rename). */
    static void replace(Path file, byte[] content) throws Exception {
        io.tfstream.operators.parse.LiveSchemaTesting.replace(file, content);
    }

    /** Polls the schema file every 100 ms; tensor payloads to {@code batchesTopic}. */
    static void pollEvery100Ms(Map<String, Object> settings, String batchesTopic) {
        settings.put("schema.update", "poll");
        settings.put("schema.poll-interval", "100 ms");
        settings.put("output.batches.topic", batchesTopic);
    }

    /** The fingerprints the committed payloads of {@code topic} name. */
    static Set<String> payloadFingerprints(KafkaTestCluster kafka, String topic) throws Exception {
        Set<String> out = new HashSet<>();
        for (ConsumerRecord<byte[], byte[]> r : kafka.readCommitted(topic)) {
            out.add(TensorBatch.parseFrom(r.value()).getSchemaFingerprint());
        }
        return out;
    }

    /** The last header {@code name} of {@code r} as UTF-8 text. */
    static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    /**
     * Asserts the job restarted (its TaskManager was killed), then stops it with a savepoint in
     * {@code dir}: the final watermark fires the open windows and the last checkpoint commits.
     */
    static void stopAfterRestart(MiniCluster cluster, JobID id, JobClient client, Path dir)
            throws Exception {
        assertTrue(
                cluster.getExecutionGraph(id).get().getStatusTimestamp(JobStatus.RESTARTING) > 0,
                "the job restarted after the TaskManager was killed");
        client.stopWithSavepoint(
                        true,
                        dir.resolve("savepoints").toUri().toString(),
                        SavepointFormatType.CANONICAL)
                .get(3, TimeUnit.MINUTES);
    }

    /** Cancels the job unless it has ended. */
    static void cancelUnlessEnded(JobClient client) throws Exception {
        if (!client.getJobStatus().get().isGloballyTerminalState()) {
            client.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    /**
     * Sends {@code record(i)} for {@code i} in {@code from} .. {@code from + n - 1} through an
     * idempotent producer, in 20 flushed chunks 100 ms apart (about 2 s, so records keep flowing
     * across the checkpoints and schema changes); returns the next id.
     */
    static int produceOver2s(
            KafkaTestCluster kafka,
            int from,
            int n,
            IntFunction<ProducerRecord<byte[], byte[]>> record) {
        try (KafkaProducer<byte[], byte[]> producer = kafka.idempotentProducer()) {
            int chunk = Math.max(1, n / 20);
            for (int i = from; i < from + n; i++) {
                producer.send(record.apply(i));
                if ((i - from) % chunk == chunk - 1) {
                    producer.flush();
                    Thread.sleep(100);
                }
            }
            producer.flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return from + n;
    }
}
