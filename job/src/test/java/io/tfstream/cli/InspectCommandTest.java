package io.tfstream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordTestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.Feature;
import org.tensorflow.example.FeatureList;
import org.tensorflow.example.FeatureLists;
import org.tensorflow.example.Features;
import org.tensorflow.example.Int64List;
import org.tensorflow.example.SequenceExample;

/** {@code tfstream inspect}: sizes, kinds, presence and value counts, text and JSON. */
class InspectCommandTest {
    @TempDir Path dir;

    @Test
    void describesTheSeedDataset() throws Exception {
        List<byte[]> records = Seed001Corpus.records(50, 4);
        Path f = dir.resolve("seed.tfrecord.gz");
        Files.write(f, TfRecordTestData.write(records, Compression.GZIP));
        CliRun run = CliRun.of("inspect", f.toString());
        assertEquals(0, run.exitCode(), run.err());
        String[] lines = run.out().split("\n");
        assertTrue(
                lines[0].startsWith(
                        f + ": 50 records, " + Files.size(f) + " bytes, gzip, record size "),
                lines[0]);
        assertTrue(lines[0].endsWith(", Example"), lines[0]);
        assertEquals("  feature0  int64  presence 1.000  values 1..1", lines[1]);
        assertEquals("  feature2  bytes  presence 1.000  values 1..1", lines[3]);
        assertEquals("  feature3  float  presence 1.000  values 1..1", lines[4]);
        assertEquals("total: 50 records, " + Files.size(f) + " bytes in 1 files", lines[5]);
    }

    @Test
    void sequenceExamplesAndJson() throws Exception {
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            FeatureList.Builder steps = FeatureList.newBuilder();
            for (int s = 0; s < i; s++) {
                steps.addFeature(
                        Feature.newBuilder().setInt64List(Int64List.newBuilder().addValue(s)));
            }
            SequenceExample.Builder b =
                    SequenceExample.newBuilder()
                            .setFeatureLists(
                                    FeatureLists.newBuilder()
                                            .putFeatureList("tokens", steps.build()));
            if (i % 2 == 0) {
                b.setContext(
                        Features.newBuilder()
                                .putFeature(
                                        "id",
                                        Feature.newBuilder()
                                                .setInt64List(Int64List.newBuilder().addValue(i))
                                                .build()));
            }
            records.add(b.build().toByteArray());
        }
        Path f = dir.resolve("seq.tfrecord");
        Files.write(f, TfRecordTestData.write(records, Compression.NONE));
        CliRun run = CliRun.of("inspect", "--json", f.toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode o = new ObjectMapper().readTree(run.out());
        assertEquals("SequenceExample", o.get("type").asText());
        assertEquals(4, o.get("records").asLong());
        assertEquals(0.5, o.get("context").get("id").get("presence").asDouble());
        assertEquals(0, o.get("feature_lists").get("tokens").get("values").get("min").asLong());
        assertEquals(3, o.get("feature_lists").get("tokens").get("values").get("max").asLong());
        assertEquals("int64", o.get("feature_lists").get("tokens").get("kinds").get(0).asText());
    }

    @Test
    void aMissingFileExits2() {
        Path missing = dir.resolve("x.tfrecord");
        CliRun run = CliRun.of("inspect", missing.toString());
        assertEquals(2, run.exitCode());
        assertEquals("tfstream inspect: no such file: " + missing + "\n", run.err());
    }
}
