package io.tfstream.e2e.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tfstream.cli.TfstreamCli;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.tensor.json.BatchJsonWriter;
import io.tfstream.tensor.json.StringEncoding;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testing.WideProfileCorpus;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.example.FloatList;

/**
 * {@code tfstream parse} end to end against TensorFlow: the same TFRecord file is printed by the
 * CLI and, batch by batch, by TensorFlow's {@code ParseExampleV2} rendered through the CLI's JSON
 * format; every line must be identical, error lines included.
 */
class ParseCommandAgainstTensorFlowTest {
    private static final int BATCH = 100;

    @TempDir Path dir;

    private static byte[] wrongType() {
        return Example.newBuilder()
                .setFeatures(
                        Features.newBuilder()
                                .putFeature(
                                        "feature0",
                                        Feature.newBuilder()
                                                .setFloatList(FloatList.newBuilder().addValue(1f))
                                                .build()))
                .build()
                .toByteArray();
    }

    private List<String> cli(
            FeatureSpecs specs, List<byte[]> records, Compression c, String strings)
            throws IOException {
        Path file = dir.resolve("in.tfrecord" + (c == Compression.GZIP ? ".gz" : ""));
        try (TfRecordWriter w = TfRecordFiles.newWriter(file, c)) {
            for (byte[] r : records) {
                w.write(r);
            }
        }
        Path spec = Files.writeString(dir.resolve("spec.json"), SpecJsonWriter.write(specs));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        TfstreamCli.run(
                new PrintWriter(out),
                new PrintWriter(err),
                "parse",
                "--feature-spec",
                spec.toString(),
                "--input",
                file.toString(),
                "--batch-size",
                String.valueOf(BATCH),
                "--strings",
                strings);
        assertEquals("", err.toString());
        return out.toString().lines().toList();
    }

    private static List<String> tensorFlow(
            FeatureSpecs specs, List<byte[]> records, StringEncoding strings) throws IOException {
        StringWriter out = new StringWriter();
        try (TfParseOracle tf = new TfParseOracle(specs);
                BatchJsonWriter json = new BatchJsonWriter(out, strings)) {
            for (int b = 0; b * BATCH < records.size(); b++) {
                List<byte[]> chunk =
                        records.subList(b * BATCH, Math.min(records.size(), (b + 1) * BATCH));
                TfParseOracle.Outcome o = tf.parse(chunk);
                if (o.error() != null) {
                    json.writeError(b, o.error(), "INVALID_ARGUMENT");
                } else {
                    json.writeBatch(b, o.features());
                }
            }
        }
        return out.toString().lines().toList();
    }

    @Test
    void seed001WithRejectedBatchesMatchesTensorFlowLineForLine() throws IOException {
        List<byte[]> records = new ArrayList<>(Seed001Corpus.records(1_050, 11));
        records.set(130, wrongType());
        records.set(777, wrongType());
        List<String> ours = cli(Seed001Corpus.spec(), records, Compression.GZIP, "base64");
        assertEquals(11, ours.size());
        assertEquals(tensorFlow(Seed001Corpus.spec(), records, StringEncoding.BASE64), ours);
        assertEquals(2, ours.stream().filter(l -> l.contains("\"error\"")).count());
    }

    @Test
    void wideProfileInUtf8MatchesTensorFlowLineForLine() throws IOException {
        List<byte[]> records = WideProfileCorpus.records(450, 5);
        List<String> ours = cli(WideProfileCorpus.spec(), records, Compression.NONE, "utf8");
        assertEquals(5, ours.size());
        assertEquals(tensorFlow(WideProfileCorpus.spec(), records, StringEncoding.UTF8), ours);
    }
}
