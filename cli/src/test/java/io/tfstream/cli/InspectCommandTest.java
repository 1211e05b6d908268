package io.tfstream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertLinesMatch;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordTestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.Feature;
import org.tensorflow.example.FeatureList;
import org.tensorflow.example.FeatureLists;
import org.tensorflow.example.Features;
import org.tensorflow.example.Int64List;
import org.tensorflow.example.SequenceExample;

/**
 * {@code tfstream inspect}: sizes, kinds, presence and value counts, text and JSON; gzip, zlib,
 * truncated and bit-flipped files, SequenceExamples.
 */
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

    /** The first line inspect prints for {@code records}, without the file and its size. */
    private static String sizes(List<byte[]> records) {
        IntSummaryStatistics st = records.stream().mapToInt(r -> r.length).summaryStatistics();
        return String.format(
                Locale.ROOT,
                "record size %d..%d (mean %.1f), Example",
                st.getMin(),
                st.getMax(),
                st.getAverage());
    }

    private static final String FEATURES =
            "  id  int64  presence 1.000  values 1..1\n"
                    + "  name  bytes  presence 1.000  values 1..1\n";

    @Test
    void describesAZlibFile() throws Exception {
        List<byte[]> records = TestRecords.examples(4);
        Path f = TestRecords.write(dir.resolve("ex.tfrecord.zz"), records, Compression.ZLIB);
        CliRun run = CliRun.of("inspect", f.toString());
        assertEquals(0, run.exitCode(), run.err());
        long size = Files.size(f);
        assertEquals(
                f
                        + ": 4 records, "
                        + size
                        + " bytes, zlib, "
                        + sizes(records)
                        + "\n"
                        + FEATURES
                        + "total: 4 records, "
                        + size
                        + " bytes in 1 files\n",
                run.out());
        assertEquals("", run.err());
    }

    @Test
    void aTruncatedFileIsDescribedUpToTheCutWithItsDamageAndExits1() throws Exception {
        List<byte[]> records = TestRecords.examples(4);
        long[] at = TfRecordTestData.offsets(records);
        byte[] full = TfRecordTestData.write(records, Compression.NONE);
        Path f = dir.resolve("cut.tfrecord");
        Files.write(f, Arrays.copyOf(full, (int) at[3] + 5));
        CliRun run = CliRun.of("inspect", f.toString());
        assertEquals(1, run.exitCode(), run.err());
        long size = Files.size(f);
        assertEquals(
                f
                        + ": 3 records, "
                        + size
                        + " bytes, none, "
                        + sizes(records.subList(0, 3))
                        + "\n"
                        + FEATURES
                        + "  "
                        + f
                        + ": damaged at byte "
                        + at[3]
                        + " (record 3): truncated record header: 5 of 12 bytes\n"
                        + "total: 3 records, "
                        + size
                        + " bytes in 1 files\n",
                run.out());
    }

    @Test
    void aFlippedBitIsReportedWithTheRecordsBeforeItAndExits1() throws Exception {
        List<byte[]> records = TestRecords.examples(4);
        long[] at = TfRecordTestData.offsets(records);
        Path f = dir.resolve("flipped.tfrecord");
        Files.write(f, TestRecords.withFlippedDataBit(records, 1));
        CliRun run = CliRun.of("inspect", f.toString());
        assertEquals(1, run.exitCode(), run.err());
        long size = Files.size(f);
        assertLinesMatch(
                List.of(
                        Pattern.quote(
                                f
                                        + ": 1 records, "
                                        + size
                                        + " bytes, none, "
                                        + sizes(records.subList(0, 1))),
                        Pattern.quote("  id  int64  presence 1.000  values 1..1"),
                        Pattern.quote("  name  bytes  presence 1.000  values 1..1"),
                        Pattern.quote("  " + f + ": damaged at byte " + at[1])
                                + " \\(record 1\\): data CRC mismatch: expected masked CRC"
                                + " 0x\\p{XDigit}{8} \\(stored\\), actual 0x\\p{XDigit}{8}"
                                + " \\(computed\\)",
                        Pattern.quote("total: 1 records, " + size + " bytes in 1 files")),
                List.of(run.out().split("\n")));
    }

    @Test
    void aMissingFileExits2() {
        Path missing = dir.resolve("x.tfrecord");
        CliRun run = CliRun.of("inspect", missing.toString());
        assertEquals(2, run.exitCode());
        assertEquals("tfstream inspect: no such file: " + missing + "\n", run.err());
    }
}
