package io.tfstream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertLinesMatch;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordTestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tfstream count}: records per file and in total for every compression and for
 * SequenceExamples; truncated and bit-flipped files, missing files.
 */
class CountCommandTest {
    @TempDir Path dir;

    private final List<byte[]> records = List.of(new byte[10], new byte[20], new byte[30]);

    private Path write(String name, byte[] bytes) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        return p;
    }

    @Test
    void countsEveryCompressionAndTheTotal() throws IOException {
        Path plain = write("a.tfrecord", TfRecordTestData.write(records, Compression.NONE));
        Path gz = write("b.tfrecord.gz", TfRecordTestData.write(records, Compression.GZIP));
        Path zz =
                write(
                        "c.tfrecord.zz",
                        TfRecordTestData.write(records.subList(0, 1), Compression.ZLIB));
        CliRun run = CliRun.of("count", plain.toString(), gz.toString(), zz.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(
                plain
                        + ": 3 records\n"
                        + gz
                        + ": 3 records\n"
                        + zz
                        + ": 1 records\n"
                        + "total: 7 records in 3 files\n",
                run.out());
        assertEquals("", run.err());
    }

    /**
     * A shard directory as an argument: the shards under it, bucket directories included, without
     * manifests, markers and hidden in-progress files; {@code verify} and {@code validate} alike.
     */
    @Test
    void aDirectoryIsTheShardsUnderIt() throws IOException {
        Path bucket = Files.createDirectories(dir.resolve("shards/dt=2026-11-27/hour=10"));
        byte[] three = TfRecordTestData.write(records, Compression.NONE);
        Path a = Files.write(bucket.resolve("part-a.tfrecord"), three);
        Path b =
                Files.write(
                        bucket.resolve("part-b.tfrecord.gz"),
                        TfRecordTestData.write(records, Compression.GZIP));
        Files.writeString(bucket.resolve("part-a.tfrecord.manifest.json"), "{}");
        Files.writeString(bucket.resolve("_SUCCESS"), "{}");
        Files.writeString(bucket.resolve(".part-c.tfrecord.inprogress.1"), "partial");
        CliRun run = CliRun.of("count", dir.resolve("shards").toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(
                a + ": 3 records\n" + b + ": 3 records\n" + "total: 6 records in 2 files\n",
                run.out());
        CliRun verify = CliRun.of("verify", dir.resolve("shards").toString());
        assertEquals(0, verify.exitCode(), verify.err());
        assertEquals(
                List.of(a + ": 3 records, ", b + ": 3 records, "),
                verify.out().lines().map(l -> l.substring(0, l.indexOf("records, ") + 9)).toList(),
                verify.out());
        assertTrue(verify.out().lines().allMatch(l -> l.endsWith(", ok")), verify.out());
    }

    @Test
    void aTruncatedFileCountsWhatComesBeforeTheDamageAndExits1() throws IOException {
        byte[] full = TfRecordTestData.write(records, Compression.NONE);
        Path cut = write("cut.tfrecord", Arrays.copyOf(full, full.length - 5));
        CliRun run = CliRun.of("count", cut.toString());
        assertEquals(1, run.exitCode());
        assertTrue(
                run.out().startsWith(cut + ": damaged at byte 62 (record 2): truncated record: "),
                run.out());
        assertTrue(
                run.out().contains("(2 records before)\ntotal: 2 records in 1 files\n"), run.out());
    }

    @Test
    void aFlippedBitCountsTheRecordsBeforeItAndExits1() throws IOException {
        long[] at = TfRecordTestData.offsets(records);
        Path flipped = write("flipped.tfrecord", TestRecords.withFlippedDataBit(records, 1));
        Path good = write("good.tfrecord", TfRecordTestData.write(records, Compression.NONE));
        CliRun run = CliRun.of("count", flipped.toString(), good.toString());
        assertEquals(1, run.exitCode());
        assertLinesMatch(
                List.of(
                        Pattern.quote(flipped + ": damaged at byte " + at[1])
                                + " \\(record 1\\): data CRC mismatch: expected masked CRC"
                                + " 0x\\p{XDigit}{8} \\(stored\\), actual 0x\\p{XDigit}{8}"
                                + " \\(computed\\) \\(1 records before\\)",
                        Pattern.quote(good + ": 3 records"),
                        Pattern.quote("total: 4 records in 2 files")),
                List.of(run.out().split("\n")));
        assertEquals("", run.err());
    }

    @Test
    void countsSequenceExamplesLikeAnyRecord() throws IOException {
        Path seq =
                TestRecords.write(
                        dir.resolve("seq.tfrecord.gz"), TestRecords.sequences(5), Compression.GZIP);
        CliRun run = CliRun.of("count", seq.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(seq + ": 5 records\ntotal: 5 records in 1 files\n", run.out());
    }

    @Test
    void aMissingFileIsNamedAndExits2() {
        Path missing = dir.resolve("nope.tfrecord");
        CliRun run = CliRun.of("count", missing.toString());
        assertEquals(2, run.exitCode());
        assertEquals("tfstream count: no such file: " + missing + "\n", run.err());
        assertEquals("total: 0 records in 1 files\n", run.out());
    }
}
