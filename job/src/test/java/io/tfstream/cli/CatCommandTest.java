package io.tfstream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.util.JsonFormat;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordTestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.BytesList;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.example.Int64List;

/** {@code tfstream cat}: JSON and text format, offset and limit, bad records, missing files. */
class CatCommandTest {
    @TempDir Path dir;

    private static Example example(long id, String name) {
        return Example.newBuilder()
                .setFeatures(
                        Features.newBuilder()
                                .putFeature(
                                        "id",
                                        Feature.newBuilder()
                                                .setInt64List(Int64List.newBuilder().addValue(id))
                                                .build())
                                .putFeature(
                                        "name",
                                        Feature.newBuilder()
                                                .setBytesList(
                                                        BytesList.newBuilder()
                                                                .addValue(
                                                                        ByteString.copyFromUtf8(
                                                                                name)))
                                                .build()))
                .build();
    }

    private Path file(List<byte[]> records, Compression c) throws IOException {
        Path p = dir.resolve("f" + records.size() + c);
        Files.write(p, TfRecordTestData.write(records, c));
        return p;
    }

    @Test
    void printsProtobufsJsonMappingOnePerLineWithOffsetAndLimit() throws Exception {
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            records.add(example(i, "n" + i).toByteArray());
        }
        Path f = file(records, Compression.GZIP);
        CliRun run = CliRun.of("cat", f.toString(), "--offset", "1", "--limit", "2");
        assertEquals(0, run.exitCode(), run.err());
        JsonFormat.Printer json = JsonFormat.printer().omittingInsignificantWhitespace();
        assertEquals(
                json.print(example(1, "n1")) + "\n" + json.print(example(2, "n2")) + "\n",
                run.out());
        assertTrue(run.out().startsWith("{\"features\":{\"feature\":{"), run.out());
        assertTrue(run.out().contains("\"int64List\":{\"value\":[\"1\"]}"), run.out());
    }

    @Test
    void printsOneLineTextFormat() throws Exception {
        Path f = file(List.of(example(7, "x").toByteArray()), Compression.NONE);
        CliRun run = CliRun.of("cat", f.toString(), "--format", "pbtxt");
        assertEquals(0, run.exitCode(), run.err());
        String line = run.out().trim();
        assertEquals(1, run.out().split("\n").length);
        assertEquals(example(7, "x"), com.google.protobuf.TextFormat.parse(line, Example.class));
    }

    @Test
    void aRecordThatIsNoExampleIsReportedAndSkipped() throws Exception {
        Path f =
                file(
                        List.of(
                                example(1, "a").toByteArray(),
                                new byte[] {0x0a, (byte) 0xff},
                                example(2, "b").toByteArray()),
                        Compression.NONE);
        CliRun run = CliRun.of("cat", f.toString());
        assertEquals(1, run.exitCode());
        assertEquals(2, run.out().split("\n").length);
        assertTrue(run.err().startsWith("tfstream cat: record 1 at byte "), run.err());
        assertTrue(run.err().contains("is not an Example"), run.err());
    }

    @Test
    void aMissingFileExits2() {
        Path missing = dir.resolve("none.tfrecord");
        CliRun run = CliRun.of("cat", missing.toString());
        assertEquals(2, run.exitCode());
        assertEquals("tfstream cat: no such file: " + missing + "\n", run.err());
    }

    @Test
    void printsSequenceExamplesWithSeq() throws Exception {
        org.tensorflow.example.SequenceExample s =
                org.tensorflow.example.SequenceExample.newBuilder()
                        .setContext(example(3, "c").getFeatures())
                        .setFeatureLists(
                                org.tensorflow.example.FeatureLists.newBuilder()
                                        .putFeatureList(
                                                "tokens",
                                                org.tensorflow.example.FeatureList.newBuilder()
                                                        .addFeature(
                                                                Feature.newBuilder()
                                                                        .setInt64List(
                                                                                Int64List
                                                                                        .newBuilder()
                                                                                        .addValue(
                                                                                                9)))
                                                        .build()))
                        .build();
        Path f = file(List.of(s.toByteArray()), Compression.ZLIB);
        CliRun run = CliRun.of("cat", "--seq", f.toString());
        assertEquals(0, run.exitCode(), run.err());
        org.tensorflow.example.SequenceExample.Builder back =
                org.tensorflow.example.SequenceExample.newBuilder();
        JsonFormat.parser().merge(run.out().trim(), back);
        assertEquals(s, back.build());
        assertTrue(run.out().contains("\"featureLists\""), run.out());
    }
}
