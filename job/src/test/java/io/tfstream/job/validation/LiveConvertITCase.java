package io.tfstream.job.validation;

import static io.tfstream.job.validation.LiveSchemaTestSupport.fingerprint;
import static io.tfstream.job.validation.LiveSchemaTestSupport.header;
import static io.tfstream.job.validation.LiveSchemaTestSupport.payloadFingerprints;
import static io.tfstream.job.validation.LiveSchemaTestSupport.pollEvery100Ms;
import static io.tfstream.job.validation.LiveSchemaTestSupport.produceOver2s;
import static io.tfstream.job.validation.LiveSchemaTestSupport.replace;
import static io.tfstream.job.validation.LiveSchemaTestSupport.specJson;
import static io.tfstream.testkit.MiniClusters.completedCheckpoints;
import static io.tfstream.testkit.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.job.JobTestSupport;
import io.tfstream.operators.deadletter.DeadLetterHeaders;
import io.tfstream.parse.RecordBatch;
import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.payload.TensorBatchCodec;
import io.tfstream.proto.v1.TensorBatch;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.VarLenFeature;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.Tensor;
import io.tfstream.testkit.KafkaTestBase;
import io.tfstream.testkit.MiniClusters;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.example.FloatList;
import org.tensorflow.example.Int64List;

/**
 * {@code source.format: json} with {@code schema.update: poll} on a MiniCluster and a real KRaft
 * broker: every JSON record carries x and w, the spec starts with x alone and gains w while records
 * flow. Every payload is the parse, under the schema it names, of its rows converted with that
 * schema: w is in every row of the payloads after the change (not a default), in none before; the
 * records that do not convert are {@code conversion_error} dead letters with their JSON bytes.
 */
class LiveConvertITCase extends KafkaTestBase {
    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(2);

    @TempDir static Path dir;

    private static final FeatureSpecs V1 =
            FeatureSpecs.of(
                    Map.<String, FeatureSpec>of(
                            "x", FixedLenFeature.required(List.of(), DType.INT64)));

    /** V1 plus w, which the JSON records have had all along. */
    private static final FeatureSpecs V2 =
            FeatureSpecs.of(
                    Map.<String, FeatureSpec>of(
                            "x",
                            FixedLenFeature.required(List.of(), DType.INT64),
                            "w",
                            new VarLenFeature(DType.FLOAT32)));

    /** One record in this many has a string x: a conversion error. */
    private static final int BAD_EVERY = 29;

    @Test
    void aFeatureAddedWhileJsonRecordsFlowIsConvertedFromTheSwitchOn(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        String in = "lc-in";
        String dlq = "lc-dlq";
        String batches = "lc-batches";
        kafka.createTopic(in, 3);
        kafka.createTopic(dlq, 2);
        kafka.createTopic(batches, 2);
        Path specFile = dir.resolve("spec.json");
        replace(specFile, specJson(V1));
        Map<String, FeatureSpecs> specs = Map.of(fingerprint(V1), V1, fingerprint(V2), V2);

        Map<String, Object> settings =
                JobTestSupport.failureTestSettings(
                        "live-convert", kafka.bootstrapServers(), in, specFile, dlq);
        settings.put("source.format", "json");
        pollEvery100Ms(settings, batches);
        JobClient client = JobTestSupport.startPipeline(settings, "live-convert");
        JobID id = client.getJobID();
        int total;
        try {
            int next = produce(in, 0, 1000);
            waitFor(
                    () ->
                            completedCheckpoints(cluster, id) >= 2
                                    && payloadFingerprints(kafka, batches)
                                            .contains(fingerprint(V1)),
                    Duration.ofMinutes(2),
                    "two checkpoints and a payload under the first schema");
            replace(specFile, specJson(V2));
            next = produce(in, next, 1000);
            waitFor(
                    () -> payloadFingerprints(kafka, batches).contains(fingerprint(V2)),
                    Duration.ofMinutes(2),
                    "a payload parsed with V2");
            total = produce(in, next, 500);
            JobTestSupport.waitForConsumed(
                    kafka.bootstrapServers(), "tfstream", in, Duration.ofMinutes(3));
            long done = completedCheckpoints(cluster, id);
            waitFor(
                    () -> completedCheckpoints(cluster, id) >= done + 2,
                    Duration.ofMinutes(2),
                    "everything committed");
        } finally {
            client.cancel().get(1, TimeUnit.MINUTES);
        }

        Map<Integer, Integer> seen = new HashMap<>();
        Set<String> fingerprints = new HashSet<>();
        for (ConsumerRecord<byte[], byte[]> r : kafka.readCommitted(batches)) {
            TensorBatch b = TensorBatch.parseFrom(r.value());
            FeatureSpecs spec = specs.get(b.getSchemaFingerprint());
            assertNotNull(spec, "a payload names a schema of the run");
            fingerprints.add(b.getSchemaFingerprint());
            Map<String, Tensor> tensors = TensorBatchCodec.decode(b, "");
            DenseTensor x = (DenseTensor) tensors.get("x");
            List<byte[]> rows = new ArrayList<>();
            for (int row = 0; row < b.getRows(); row++) {
                int i = (int) x.values().int64(row);
                seen.merge(i, 1, Integer::sum);
                rows.add(converted(i, spec));
            }
            assertEquals(
                    ExampleBatchParser.create(spec).parse(RecordBatch.of(rows)).features(),
                    tensors,
                    "payload "
                            + b.getBatchId()
                            + " is the parse of its rows converted with its"
                            + " schema");
        }
        assertEquals(Set.of(fingerprint(V1), fingerprint(V2)), fingerprints);
        for (ConsumerRecord<byte[], byte[]> r : kafka.readCommitted(dlq)) {
            int i = Integer.parseInt(new String(r.key(), StandardCharsets.UTF_8));
            assertEquals("conversion_error", header(r, DeadLetterHeaders.REASON));
            assertTrue(
                    specs.containsKey(header(r, DeadLetterHeaders.SCHEMA_FINGERPRINT)),
                    "a dead letter names a schema of the run");
            assertArrayEquals(value(i), r.value(), "the dead letter holds the JSON bytes");
            seen.merge(i, 1, Integer::sum);
        }
        for (int i = 0; i < total; i++) {
            assertEquals(1, seen.getOrDefault(i, 0), "record " + i + " exactly once");
        }
        assertEquals(total, seen.size(), "no other records");
    }

    /** Record {@code i} as JSON: x = i and w = [i + 0.5]; every 29th has a string x. */
    private static byte[] value(int i) {
        String x = i % BAD_EVERY == BAD_EVERY - 1 ? "\"x" + i + "\"" : Integer.toString(i);
        return ("{\"x\": " + x + ", \"w\": [" + i + ".5]}").getBytes(StandardCharsets.UTF_8);
    }

    /** The Example record {@code i} converts to under {@code spec}. */
    private static byte[] converted(int i, FeatureSpecs spec) {
        Features.Builder f =
                Features.newBuilder()
                        .putFeature(
                                "x",
                                Feature.newBuilder()
                                        .setInt64List(Int64List.newBuilder().addValue(i))
                                        .build());
        if (spec.features().containsKey("w")) {
            f.putFeature(
                    "w",
                    Feature.newBuilder()
                            .setFloatList(FloatList.newBuilder().addValue(i + 0.5f))
                            .build());
        }
        return Example.newBuilder().setFeatures(f).build().toByteArray();
    }

    /** Produces records {@code from} .. {@code from + n - 1} over about 2 s; returns the next. */
    private static int produce(String topic, int from, int n) {
        return produceOver2s(
                kafka,
                from,
                n,
                i ->
                        new ProducerRecord<>(
                                topic,
                                i % 3,
                                Integer.toString(i).getBytes(StandardCharsets.UTF_8),
                                value(i)));
    }
}
