package io.tfstream.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertLinesMatch;

import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.CompressionStreams;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import io.tfstream.tfrecord.TfRecordTestData;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.SequenceExample;

/**
 * {@code tfstream recover}: intact, bit-flipped, truncated, gzip, zlib and SequenceExample inputs,
 * the records lost per skipped region, missing inputs.
 */
class RecoverCommandTest {
    /** Record i is 100 + i bytes, framed 116 + i. */
    private static final int RECORDS = 10;

    private static final String DATA_CRC =
            "data CRC mismatch: expected masked CRC 0x\\p{XDigit}{8}.*";

    @TempDir Path dir;

    private final List<byte[]> records = new ArrayList<>();

    RecoverCommandTest() {
        for (int i = 0; i < RECORDS; i++) {
            byte[] r = new byte[100 + i];
            Arrays.fill(r, (byte) i);
            records.add(r);
        }
    }

    /** Offset of record k's header in the uncompressed stream. */
    private static int offset(int k) {
        return 116 * k + k * (k - 1) / 2;
    }

    private Path write(String name, byte[] bytes) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        return p;
    }

    private static byte[] compress(byte[] plain, Compression c) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream z = CompressionStreams.compressing(bytes, c, 1 << 16)) {
            z.write(plain);
        }
        return bytes.toByteArray();
    }

    private static List<byte[]> read(Path file) throws IOException {
        List<byte[]> out = new ArrayList<>();
        try (TfRecordReader r = TfRecordFiles.openReader(file, TfRecordReadOptions.defaults())) {
            while (r.next()) {
                out.add(r.copy());
            }
        }
        return out;
    }

    private static void assertRecords(List<byte[]> expected, Path file) throws IOException {
        List<byte[]> got = read(file);
        assertEquals(expected.size(), got.size());
        for (int i = 0; i < got.size(); i++) {
            assertArrayEquals(expected.get(i), got.get(i), "record " + i);
        }
    }

    private List<byte[]> without(int... lost) {
        List<byte[]> kept = new ArrayList<>(records);
        for (int i = lost.length - 1; i >= 0; i--) {
            kept.remove(lost[i]);
        }
        return kept;
    }

    @Test
    void anIntactFileIsCopiedWholeWithExit0() throws IOException {
        byte[] bytes = TfRecordTestData.write(records, Compression.NONE);
        Path in = write("in.tfrecord", bytes);
        Path out = dir.resolve("out.tfrecord");
        CliRun run = CliRun.of("recover", in.toString(), out.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(
                in
                        + ": 10 records copied to "
                        + out
                        + ", 0 damaged regions skipped (0 bytes, records lost: 0)\n",
                run.out());
        assertArrayEquals(bytes, Files.readAllBytes(out));
    }

    @Test
    void aFlippedByteLosesOnlyItsRecordWithExit1() throws IOException {
        byte[] bytes = TfRecordTestData.write(records, Compression.NONE);
        bytes[offset(3) + 12 + 5] ^= 0x40; // inside record 3's data
        Path in = write("in.tfrecord", bytes);
        Path out = dir.resolve("out.tfrecord.gz");
        CliRun run = CliRun.of("recover", in.toString(), out.toString(), "--compression", "gzip");
        assertEquals(1, run.exitCode(), run.err());
        assertLinesMatch(
                List.of(
                        "skipped bytes 351..470 before record 3 \\(records lost: 1\\): " + DATA_CRC,
                        Pattern.quote(
                                in
                                        + ": 9 records copied to "
                                        + out
                                        + ", 1 damaged regions skipped (119 bytes, records lost:"
                                        + " 1)")),
                List.of(run.out().split("\n")));
        assertRecords(without(3), out);
    }

    @Test
    void aTruncatedFileLosesItsLastRecord() throws IOException {
        byte[] bytes = TfRecordTestData.write(records, Compression.NONE);
        Path in = write("in.tfrecord", Arrays.copyOf(bytes, bytes.length - 30));
        Path out = dir.resolve("out.tfrecord");
        CliRun run = CliRun.of("recover", in.toString(), out.toString());
        assertEquals(1, run.exitCode(), run.err());
        assertEquals(
                "skipped bytes 1080..1175 before record 9 (records lost: 1): truncated record:"
                        + " 95 of 125 bytes (data length 109)\n"
                        + in
                        + ": 9 records copied to "
                        + out
                        + ", 1 damaged regions skipped (95 bytes, records lost: 1)\n",
                run.out());
        assertRecords(without(9), out);
    }

    @Test
    void aDamagedLengthIsNotCountableAndTheTotalSaysSo() throws IOException {
        byte[] bytes = TfRecordTestData.write(records, Compression.NONE);
        bytes[offset(2) + 1] ^= 0x01; // record 2's length
        bytes[offset(6) + 12] ^= 0x01; // record 6's data
        Path in = write("in.tfrecord", bytes);
        Path out = dir.resolve("out.tfrecord");
        CliRun run = CliRun.of("recover", in.toString(), out.toString());
        assertEquals(1, run.exitCode(), run.err());
        assertLinesMatch(
                List.of(
                        "skipped bytes 233..351 before record 2 \\(records lost: unknown\\):"
                                + " length CRC mismatch: .*",
                        "skipped bytes 711..833 before record 5 \\(records lost: 1\\): " + DATA_CRC,
                        Pattern.quote(
                                in
                                        + ": 8 records copied to "
                                        + out
                                        + ", 2 damaged regions skipped (240 bytes, records lost:"
                                        + " at least 1)")),
                List.of(run.out().split("\n")));
        assertRecords(without(2, 6), out);
    }

    @Test
    void aFlippedByteInsideAZlibStreamLosesOnlyItsRecord() throws IOException {
        byte[] plain = TfRecordTestData.write(records, Compression.NONE);
        plain[offset(4) + 12 + 50] ^= 0x02;
        Path in = write("in.tfrecord.zz", compress(plain, Compression.ZLIB));
        Path out = dir.resolve("out.tfrecord.zz");
        CliRun run = CliRun.of("recover", in.toString(), out.toString());
        assertEquals(1, run.exitCode(), run.err());
        assertLinesMatch(
                List.of(
                        "skipped bytes 470..590 before record 4 \\(records lost: 1\\): " + DATA_CRC,
                        Pattern.quote(
                                in
                                        + ": 9 records copied to "
                                        + out
                                        + ", 1 damaged regions skipped (120 bytes, records lost:"
                                        + " 1)")),
                List.of(run.out().split("\n")));
        assertEquals(
                Compression.ZLIB, Compression.detect(out.toString(), Files.readAllBytes(out), 12));
        assertRecords(without(4), out);
    }

    @Test
    void aCutZlibStreamKeepsWhatDecompresses() throws IOException {
        byte[] zz = TfRecordTestData.write(records, Compression.ZLIB);
        Path in = write("in.tfrecord.zz", Arrays.copyOf(zz, zz.length - 30));
        Path out = dir.resolve("out.tfrecord");
        CliRun run = CliRun.of("recover", in.toString(), out.toString(), "--compression", "none");
        assertEquals(1, run.exitCode(), run.err());
        String[] lines = run.out().split("\n");
        assertEquals(2, lines.length, run.out());
        assertLinesMatch(
                List.of(
                        "skipped bytes \\d+\\.\\.end before record \\d+ \\(records lost:"
                                + " unknown\\): damaged compressed stream: .* \\(nothing after it"
                                + " can be decompressed\\)",
                        Pattern.quote(in + ": ")
                                + "\\d+"
                                + Pattern.quote(
                                        " records copied to "
                                                + out
                                                + ", 0 damaged regions and the rest of the stream"
                                                + " skipped (0 bytes, records lost: unknown)")),
                List.of(lines));
        List<byte[]> got = read(out);
        assertFalse(got.isEmpty());
        assertEquals(
                in + ": " + got.size() + " records",
                lines[1].substring(0, lines[1].indexOf(" records") + 8));
        for (int i = 0; i < got.size(); i++) {
            assertArrayEquals(records.get(i), got.get(i), "record " + i);
        }
    }

    @Test
    void aTruncatedGzipFileKeepsWhatDecompresses() throws IOException {
        byte[] gz = TfRecordTestData.write(records, Compression.GZIP);
        Path in = write("in.tfrecord.gz", Arrays.copyOf(gz, gz.length - 30));
        Path out = dir.resolve("out.tfrecord");
        CliRun run = CliRun.of("recover", in.toString(), out.toString(), "--compression", "none");
        assertEquals(1, run.exitCode(), run.err());
        String[] lines = run.out().split("\n");
        assertEquals(2, lines.length, run.out());
        assertLinesMatch(
                List.of(
                        "skipped bytes \\d+\\.\\.end before record \\d+ \\(records lost:"
                                + " unknown\\): damaged compressed stream: .*",
                        ".* records copied to .*"),
                List.of(lines));
        List<byte[]> got = read(out);
        assertFalse(got.isEmpty());
        for (int i = 0; i < got.size(); i++) {
            assertArrayEquals(records.get(i), got.get(i), "record " + i);
        }
    }

    @Test
    void sequenceExamplesAreCopiedByteForByte() throws IOException {
        List<byte[]> seqs = TestRecords.sequences(5);
        long[] at = TfRecordTestData.offsets(seqs);
        byte[] bytes = TfRecordTestData.write(seqs, Compression.NONE);
        bytes[(int) at[1] + 12 + 2] ^= 0x10;
        Path in = write("seq.tfrecord", bytes);
        Path out = dir.resolve("seq-out.tfrecord");
        CliRun run = CliRun.of("recover", in.toString(), out.toString());
        assertEquals(1, run.exitCode(), run.err());
        assertLinesMatch(
                List.of(
                        "skipped bytes "
                                + at[1]
                                + "\\.\\."
                                + at[2]
                                + " before record 1 \\(records lost: 1\\): "
                                + DATA_CRC,
                        Pattern.quote(
                                in
                                        + ": 4 records copied to "
                                        + out
                                        + ", 1 damaged regions skipped ("
                                        + (at[2] - at[1])
                                        + " bytes, records lost: 1)")),
                List.of(run.out().split("\n")));
        List<byte[]> got = read(out);
        assertEquals(4, got.size());
        for (int i = 0; i < got.size(); i++) {
            byte[] expected = seqs.get(i < 1 ? i : i + 1);
            assertArrayEquals(expected, got.get(i), "record " + i);
            assertEquals(
                    SequenceExample.parseFrom(expected), SequenceExample.parseFrom(got.get(i)));
        }
    }

    @Test
    void aMissingInputExits2AndWritesNothing() {
        Path missing = dir.resolve("nope.tfrecord");
        Path out = dir.resolve("out.tfrecord");
        CliRun run = CliRun.of("recover", missing.toString(), out.toString());
        assertEquals(2, run.exitCode());
        assertEquals("tfstream recover: no such file: " + missing + "\n", run.err());
        assertFalse(Files.exists(out));
    }
}
