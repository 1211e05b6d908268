package io.tfstream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertLinesMatch;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.TextFormat;
import com.google.protobuf.util.JsonFormat;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordTestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Int64List;

/**
 * {@code tfstream cat}: JSON and text format, offset and limit, gzip, zlib, truncated and
 * bit-flipped files, records that are not Examples, SequenceExamples, missing files.
 */
class CatCommandTest {
    @TempDir Path dir;

    private static Example example(long id, String name) {
        return TestRecords.example(id, name);
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
        assertEquals(example(7, "x"), TextFormat.parse(line, Example.class));
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
    void aTruncatedFilePrintsTheRecordsBeforeTheCutThenTheDamageAndExits1() throws Exception {
        List<byte[]> records = TestRecords.examples(3);
        long[] at = TfRecordTestData.offsets(records);
        byte[] full = TfRecordTestData.write(records, Compression.NONE);
        Path f = dir.resolve("cut.tfrecord");
        Files.write(f, Arrays.copyOf(full, full.length - 3));
        CliRun run = CliRun.of("cat", f.toString());
        assertEquals(1, run.exitCode());
        JsonFormat.Printer json = JsonFormat.printer().omittingInsignificantWhitespace();
        assertEquals(
                json.print(example(0, "n0")) + "\n" + json.print(example(1, "n1")) + "\n",
                run.out());
        int length = records.get(2).length;
        assertEquals(
                "tfstream cat: "
                        + f
                        + ": damaged at byte "
                        + at[2]
                        + " (record 2): truncated record: "
                        + (length + 13)
                        + " of "
                        + (length + 16)
                        + " bytes (data length "
                        + length
                        + ")\n",
                run.err());
    }

    @Test
    void aFlippedBitStopsAtItsRecordWithTheCrcsAndExits1() throws Exception {
        List<byte[]> records = TestRecords.examples(4);
        long[] at = TfRecordTestData.offsets(records);
        Path f = dir.resolve("flipped.tfrecord");
        Files.write(f, TestRecords.withFlippedDataBit(records, 2));
        CliRun run = CliRun.of("cat", "--format", "pbtxt", f.toString());
        assertEquals(1, run.exitCode());
        String[] lines = run.out().split("\n");
        assertEquals(2, lines.length, run.out());
        assertEquals(example(0, "n0"), TextFormat.parse(lines[0], Example.class));
        assertEquals(example(1, "n1"), TextFormat.parse(lines[1], Example.class));
        assertLinesMatch(
                List.of(
                        Pattern.quote("tfstream cat: " + f + ": damaged at byte " + at[2])
                                + " \\(record 2\\): data CRC mismatch: expected masked CRC"
                                + " 0x\\p{XDigit}{8} \\(stored\\), actual 0x\\p{XDigit}{8}"
                                + " \\(computed\\)"),
                List.of(run.err().split("\n")));
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
