package io.tfstream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.sample.SeedDataset;
import io.tfstream.spec.DType;
import io.tfstream.testing.ExampleAvro;
import io.tfstream.testing.ExampleJson;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.Example;

class ConvertCommandTest {
    @TempDir Path dir;

    private Path schema() throws Exception {
        return Files.write(dir.resolve("schema.pbtxt"), SeedDataset.schemaPbtxt());
    }

    /** {@code tfstream convert} of {@code in} to {@code out} with the seed schema. */
    private CliRun convert(String format, String in, String out) throws Exception {
        return CliRun.of(
                "convert", "--schema", schema().toString(), "--input-format", format, in, out);
    }

    private static List<Example> read(Path file) throws Exception {
        List<Example> out = new ArrayList<>();
        try (TfRecordReader r = TfRecordFiles.openReader(file, TfRecordReadOptions.defaults())) {
            while (r.next()) {
                out.add(Example.parseFrom(r.copy()));
            }
        }
        return out;
    }

    @Test
    void convertsJsonLinesAndReportsEachRefusedLine() throws Exception {
        List<byte[]> examples = SeedDataset.records(5, 3);
        Path in = dir.resolve("in.jsonl");
        try (OutputStream o = Files.newOutputStream(in)) {
            for (int i = 0; i < examples.size(); i++) {
                o.write(ExampleJson.of(examples.get(i), false));
                o.write('\n');
                if (i == 1) {
                    o.write("{\"feature0\": \"x\", \"other\": 1}\n\n".getBytes());
                }
            }
        }
        Path out = dir.resolve("out.tfrecord.gz");
        CliRun run = convert("json", in.toString(), out.toString());
        assertEquals(1, run.exitCode(), run.err());
        assertEquals(
                in
                        + ":3: field feature0: JSON string \"x\" does not fit (INT feature 'feature0')\n",
                run.err());
        assertEquals(
                in + ": 6 records, 5 converted, 1 refused, 0 fields ignored, " + out + "\n",
                run.out());
        List<Example> expected = new ArrayList<>();
        for (byte[] e : examples) {
            expected.add(Example.parseFrom(e));
        }
        assertEquals(expected, read(out));
    }

    @Test
    void convertsAnAvroContainerFile() throws Exception {
        Map<String, DType> types = new TreeMap<>();
        types.put("feature0", DType.INT64);
        types.put("feature1", DType.INT64);
        types.put("feature2", DType.STRING);
        types.put("feature3", DType.FLOAT32);
        ExampleAvro avro = new ExampleAvro(types);
        List<byte[]> examples = SeedDataset.records(4, 5);
        Path in = dir.resolve("in.avro");
        try (DataFileWriter<Object> w = new DataFileWriter<>(new GenericDatumWriter<>())) {
            w.create(avro.schema(), in.toFile());
            for (byte[] e : examples) {
                w.appendEncoded(ByteBuffer.wrap(avro.of(e)));
            }
        }
        Path out = dir.resolve("out.tfrecord");
        CliRun run = convert("avro", in.toString(), out.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(4, read(out).size());
        assertEquals(Example.parseFrom(examples.get(2)), read(out).get(2));
    }

    @Test
    void refusesAnAvroSchemaWithADecimalFeatureField() throws Exception {
        Schema s =
                new Schema.Parser()
                        .parse(
                                "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":"
                                        + "\"feature3\",\"type\":{\"type\":\"bytes\",\"logicalType\":"
                                        + "\"decimal\",\"precision\":4,\"scale\":2}}]}");
        Path in = dir.resolve("dec.avro");
        try (DataFileWriter<Object> w = new DataFileWriter<>(new GenericDatumWriter<>())) {
            w.create(s, in.toFile());
        }
        Path out = dir.resolve("dec.tfrecord");
        CliRun run = convert("avro", in.toString(), out.toString());
        assertEquals(3, run.exitCode(), run.err());
        assertTrue(run.err().contains("'feature3' has logical type decimal"), run.err());
        assertFalse(Files.exists(out));
    }

    @Test
    void anUnreadableInputIsAUsageErrorAndWritesNothing() throws Exception {
        Path out = dir.resolve("none.tfrecord");
        CliRun run = convert("avro", dir.resolve("missing.avro").toString(), out.toString());
        assertEquals(2, run.exitCode(), run.err());
        assertFalse(Files.exists(out));
        assertEquals(2, convert("csv", "a", "b").exitCode());
    }
}
