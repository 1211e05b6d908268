package io.tfstream.e2e.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tfstream.e2e.parse.TfParseOracle;
import io.tfstream.e2e.tfrecord.TensorFlowRecordIo;
import io.tfstream.sample.SeedDataset;
import io.tfstream.spec.DType;
import io.tfstream.testing.ExampleAvro;
import io.tfstream.testing.ExampleJson;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.tfrecord.Compression;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumWriter;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tensorflow.example.Example;

/**
 * {@code tfstream local --input-format json|avro} from the CLI jar in its own JVM: the seed-001
 * sample written as JSON Lines or as an Avro container file, 5% of the records broken in the
 * input's own format. TensorFlow reads every shard ({@code TFRecordReaderV2}) and parses every
 * record in them ({@code ParseExampleV2} with the seed-001 spec) without an error; the shards hold
 * exactly the Examples of the intact records, and the dead letters are all {@code
 * conversion_error}.
 */
class LocalConvertProcessITCase {
    private static final int RECORDS = 3000;

    @TempDir Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"json", "avro"})
    void tensorFlowReadsAndParsesEveryShardOfAConvertedRun(String format) throws Exception {
        List<byte[]> examples = SeedDataset.records(RECORDS, 11);
        Path input = dir.resolve("input." + (format.equals("json") ? "jsonl" : "avro"));
        if (format.equals("json")) {
            try (OutputStream o = Files.newOutputStream(input)) {
                for (byte[] e : examples) {
                    o.write(ExampleJson.of(e, false));
                    o.write('\n');
                }
            }
        } else {
            Map<String, DType> types = new TreeMap<>();
            types.put("feature0", DType.INT64);
            types.put("feature1", DType.INT64);
            types.put("feature2", DType.STRING);
            types.put("feature3", DType.FLOAT32);
            ExampleAvro avro = new ExampleAvro(types);
            try (DataFileWriter<Object> w = new DataFileWriter<>(new GenericDatumWriter<>())) {
                w.create(avro.schema(), input.toFile());
                for (byte[] e : examples) {
                    w.appendEncoded(ByteBuffer.wrap(avro.of(e)));
                }
            }
        }
        Path out = dir.resolve("out-" + format);
        List<String> cmd = CliJar.command();
        cmd.addAll(
                List.of(
                        "local",
                        "--input-format",
                        format,
                        "--input",
                        input.toString(),
                        "--corrupt-fraction",
                        "0.05",
                        "--out",
                        out.toString(),
                        "--rest-port",
                        "0"));
        Path stdout = dir.resolve(format + ".out");
        Path stderr = dir.resolve(format + ".err");
        String printed = CliJar.runLocal(cmd, stdout, stderr);
        assertTrue(
                printed.contains(
                        "3000 records in = 2850 accepted + 150 dead-lettered (conversion_error"
                                + " 150)"),
                printed);

        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        Map<Example, Integer> inShards = new HashMap<>();
        try (TfParseOracle tf = new TfParseOracle(Seed001Corpus.spec())) {
            for (JsonNode shard : summary.get("shards")) {
                Path file = out.resolve(shard.asText());
                TensorFlowRecordIo.ReadResult read =
                        TensorFlowRecordIo.read(file, Compression.NONE);
                assertNull(read.error(), "TensorFlow's reader on " + file);
                TfParseOracle.Outcome parsed = tf.parse(read.records());
                assertNull(parsed.error(), "ParseExampleV2 on the records of " + file);
                for (byte[] r : read.records()) {
                    inShards.merge(Example.parseFrom(r), 1, Integer::sum);
                }
            }
        }
        Map<Example, Integer> all = new HashMap<>();
        for (byte[] e : examples) {
            all.merge(Example.parseFrom(e), 1, Integer::sum);
        }
        long total = inShards.values().stream().mapToLong(Integer::longValue).sum();
        assertEquals(2850, total);
        inShards.forEach(
                (e, n) ->
                        assertTrue(
                                all.getOrDefault(e, 0) >= n,
                                "a shard record that is not an input Example: " + e));
        for (String line : Files.readAllLines(out.resolve("dlq.jsonl"))) {
            assertTrue(line.contains("\"reason\":\"conversion_error\""), line);
        }
    }
}
