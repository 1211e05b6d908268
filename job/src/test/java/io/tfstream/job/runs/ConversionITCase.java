package io.tfstream.job.runs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.job.JobConfig;
import io.tfstream.job.JobLauncher;
import io.tfstream.job.JobTestSupport;
import io.tfstream.job.TfstreamPipeline;
import io.tfstream.operators.deadletter.DeadLetterHeaders;
import io.tfstream.sample.SeedDataset;
import io.tfstream.spec.DType;
import io.tfstream.testing.ExampleAvro;
import io.tfstream.testing.ExampleJson;
import io.tfstream.testkit.KafkaTestBase;
import io.tfstream.testkit.MiniClusters;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Int64List;

/**
 * {@code source.format} json and avro over Kafka: seed-001 Examples written as JSON objects or Avro
 * records (some with the Confluent framing), mixed with records that do not convert (invalid JSON,
 * a string for an INT feature, 1.5 for an INT feature, truncated Avro, a union branch that does not
 * fit) and records that convert but that the parse rejects (two values for a scalar, a required
 * feature missing). A bounded run with shards: every good record's Example is in exactly one shard,
 * every other record in the dead letters exactly once, with its original JSON or Avro bytes (not
 * the converted Example), reason {@code conversion_error} with the field's path in the message, or
 * {@code parse_error} with the parse's message.
 */
class ConversionITCase extends KafkaTestBase {
    private static final int PARALLELISM = 2;
    private static final int GOOD = 3_000;

    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(PARALLELISM);

    @TempDir static Path dir;

    /** An input record and what must become of it: its Example, or a dead letter. */
    private record Input(byte[] value, byte[] example, String reason, String path) {}

    static Map<String, DType> seedTypes() {
        Map<String, DType> t = new TreeMap<>();
        t.put("feature0", DType.INT64);
        t.put("feature1", DType.INT64);
        t.put("feature2", DType.STRING);
        t.put("feature3", DType.FLOAT32);
        return t;
    }

    @Test
    void jsonRecordsInShardsOrDeadLettersOnce() throws Exception {
        List<Input> inputs = new ArrayList<>();
        for (byte[] e : SeedDataset.records(GOOD, 34)) {
            inputs.add(new Input(ExampleJson.of(e, false), e, null, null));
        }
        String[][] broken = {
            {"{\"feature0\": 1, \"feature1\": ", "feature1", "conversion_error"},
            {"{\"feature0\": \"one\", \"feature1\": 1}", "feature0", "conversion_error"},
            {"{\"feature0\": 1.5}", "feature0", "conversion_error"},
            {"{\"feature1\": 99999999999999999999}", "feature1", "conversion_error"},
            {"{\"feature3\": {\"x\": 1}}", "feature3", "conversion_error"},
            {"[1, 2, 3]", "$", "conversion_error"},
            {
                "{\"feature0\": [1, 2], \"feature1\": 1, \"feature2\": \"cat\", \"feature3\": 0.5}",
                "feature0",
                "parse_error"
            },
            {
                "{\"feature0\": 1, \"feature2\": \"cat\", \"feature3\": 0.5}",
                "feature1",
                "parse_error"
            },
        };
        for (int k = 0; k < 80; k++) {
            String[] b = broken[k % broken.length];
            inputs.add(new Input(b[0].getBytes(StandardCharsets.UTF_8), null, b[2], b[1]));
        }
        run("conv-json", inputs, Map.of("source.format", "json"));
    }

    @Test
    void avroRecordsInShardsOrDeadLettersOnce() throws Exception {
        ExampleAvro avro = new ExampleAvro(seedTypes());
        Path avsc = Files.writeString(dir.resolve("seed.avsc"), avro.schema().toString());
        List<Input> inputs = new ArrayList<>();
        int i = 0;
        for (byte[] e : SeedDataset.records(GOOD, 35)) {
            byte[] plain = avro.of(e);
            byte[] value = plain;
            if (i++ % 2 == 0) { // the Confluent framing, schema id 1
                value = new byte[plain.length + 5];
                value[4] = 1;
                System.arraycopy(plain, 0, value, 5, plain.length);
            }
            inputs.add(new Input(value, e, null, null));
        }
        byte[] whole = avro.of(SeedDataset.records(1, 36).get(0));
        for (int k = 0; k < 60; k++) {
            byte[] truncated = java.util.Arrays.copyOf(whole, 1 + k % (whole.length - 1));
            inputs.add(new Input(truncated, null, "conversion_error", null));
        }
        // A union index past the schema's branches for feature0.
        for (int k = 0; k < 10; k++) {
            inputs.add(new Input(new byte[] {6}, null, "conversion_error", "feature0"));
        }
        // Records that convert but that the parse refuses: two values for the scalar feature0,
        // the required feature1 missing.
        Example seed = Example.parseFrom(SeedDataset.records(1, 37).get(0));
        Example.Builder twoValues = seed.toBuilder();
        twoValues
                .getFeaturesBuilder()
                .putFeature(
                        "feature0",
                        Feature.newBuilder()
                                .setInt64List(Int64List.newBuilder().addValue(1).addValue(2))
                                .build());
        Example.Builder missing = seed.toBuilder();
        missing.getFeaturesBuilder().removeFeature("feature1");
        for (int k = 0; k < 10; k++) {
            inputs.add(new Input(avro.of(twoValues.build()), null, "parse_error", "feature0"));
            inputs.add(new Input(avro.of(missing.build()), null, "parse_error", "feature1"));
        }
        run(
                "conv-avro",
                inputs,
                Map.of("source.format", "avro", "source.avro.schema-path", avsc.toString()));
    }

    private static void run(String name, List<Input> inputs, Map<String, String> format)
            throws Exception {
        kafka.createTopic(name, PARALLELISM);
        kafka.createTopic(name + "-dlq", 1);
        // Shuffle broken records among the good ones, deterministically.
        List<Input> order = new ArrayList<>(inputs);
        java.util.Collections.shuffle(order, new java.util.Random(7));
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (Input in : order) {
                producer.send(new ProducerRecord<>(name, in.value())).get();
            }
        }
        Path schema = Files.write(dir.resolve(name + ".pbtxt"), SeedDataset.schemaPbtxt());
        Path shards = dir.resolve(name + "-shards");
        Map<String, Object> m =
                JobTestSupport.failureTestSettings(
                        name, kafka.bootstrapServers(), name, schema, name + "-dlq");
        m.remove("spec.path");
        m.put("schema.path", schema.toString());
        m.put("source.stopping-offsets", "latest");
        m.put("shards.path", shards.toUri().toString());
        m.putAll(format);
        JobLauncher.Prepared job = JobLauncher.prepare(JobConfig.of(m));
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(
                        JobLauncher.flinkConfiguration(job.config()));
        TfstreamPipeline.build(env, job.config(), job.schema());
        env.execute(name);

        Map<Example, Integer> expected = new HashMap<>();
        Map<String, Integer> expectedDead = new HashMap<>();
        for (Input in : inputs) {
            if (in.reason() == null) {
                expected.merge(Example.parseFrom(in.example()), 1, Integer::sum);
            } else {
                expectedDead.merge(
                        HexFormat.of().formatHex(in.value()) + " " + in.reason(), 1, Integer::sum);
            }
        }
        Map<Example, Integer> inShards = new HashMap<>();
        for (Path shard : JobTestSupport.finishedShards(shards)) {
            try (TfRecordReader r =
                    TfRecordFiles.openReader(shard, TfRecordReadOptions.defaults())) {
                while (r.next()) {
                    inShards.merge(Example.parseFrom(r.copy()), 1, Integer::sum);
                }
            }
        }
        assertEquals(expected, inShards, "every good record's Example in exactly one shard");
        Map<String, Integer> dead = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : kafka.readCommitted(name + "-dlq")) {
            String reason = header(r, DeadLetterHeaders.REASON);
            String error = header(r, DeadLetterHeaders.ERROR);
            if (reason.equals("conversion_error")) {
                assertTrue(error.startsWith("field "), error);
            }
            dead.merge(HexFormat.of().formatHex(r.value()) + " " + reason, 1, Integer::sum);
        }
        assertEquals(expectedDead, dead, "every broken record dead-lettered once, as it arrived");
        List<ConsumerRecord<byte[], byte[]>> letters = kafka.readCommitted(name + "-dlq");
        for (Input in : inputs) {
            if (in.path() == null) {
                continue;
            }
            String hex = HexFormat.of().formatHex(in.value());
            // Conversion errors name the field's path; TensorFlow's parse message the feature
            // ("Key: f" for a value count, "Feature: f" for a missing one).
            String expectedText =
                    in.reason().equals("conversion_error")
                            ? "field " + in.path() + ":"
                            : ": " + in.path() + (in.path().equals("feature1") ? " (" : ",");
            assertTrue(
                    letters.stream()
                            .filter(r -> HexFormat.of().formatHex(r.value()).equals(hex))
                            .allMatch(
                                    r ->
                                            in.reason().equals(header(r, DeadLetterHeaders.REASON))
                                                    && header(r, DeadLetterHeaders.ERROR)
                                                            .contains(expectedText)),
                    in.reason() + " naming " + expectedText);
        }
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        var h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
