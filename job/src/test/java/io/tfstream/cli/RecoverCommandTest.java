package io.tfstream.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import io.tfstream.tfrecord.TfRecordTestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tfstream recover}: intact, bit-flipped, truncated gzip and missing inputs. */
class RecoverCommandTest {
    @TempDir Path dir;

    private final List<byte[]> records = new ArrayList<>();

    RecoverCommandTest() {
        for (int i = 0; i < 10; i++) {
            byte[] r = new byte[100 + i];
            Arrays.fill(r, (byte) i);
            records.add(r);
        }
    }

    private Path write(String name, byte[] bytes) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        return p;
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

    @Test
    void anIntactFileIsCopiedWholeWithExit0() throws IOException {
        byte[] bytes = TfRecordTestData.write(records, Compression.NONE);
        Path in = write("in.tfrecord", bytes);
        Path out = dir.resolve("out.tfrecord");
        CliRun run = CliRun.of("recover", in.toString(), out.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(
                in + ": 10 records copied to " + out + ", 0 damaged regions skipped (0 bytes)\n",
                run.out());
        assertArrayEquals(bytes, Files.readAllBytes(out));
    }

    @Test
    void aFlippedByteLosesOnlyItsRecordWithExit1() throws IOException {
        byte[] bytes = TfRecordTestData.write(records, Compression.NONE);
        int record3 = 3 * 16 + 100 + 101 + 102; // framed sizes of records 0..2
        bytes[record3 + 12 + 5] ^= 0x40; // inside record 3's data
        Path in = write("in.tfrecord", bytes);
        Path out = dir.resolve("out.tfrecord.gz");
        CliRun run = CliRun.of("recover", in.toString(), out.toString(), "--compression", "gzip");
        assertEquals(1, run.exitCode(), run.err());
        assertTrue(run.out().startsWith("skipped bytes " + record3 + ".."), run.out());
        assertTrue(
                run.out().contains("9 records copied to " + out + ", 1 damaged regions skipped"),
                run.out());
        List<byte[]> got = read(out);
        List<byte[]> expected = new ArrayList<>(records);
        expected.remove(3);
        assertEquals(expected.size(), got.size());
        for (int i = 0; i < got.size(); i++) {
            assertArrayEquals(expected.get(i), got.get(i), "record " + i);
        }
    }

    @Test
    void aTruncatedGzipFileKeepsWhatDecompresses() throws IOException {
        byte[] gz = TfRecordTestData.write(records, Compression.GZIP);
        Path in = write("in.tfrecord.gz", Arrays.copyOf(gz, gz.length - 30));
        Path out = dir.resolve("out.tfrecord");
        CliRun run = CliRun.of("recover", in.toString(), out.toString(), "--compression", "none");
        assertEquals(1, run.exitCode(), run.err());
        assertTrue(run.out().contains("(nothing after it can be decompressed)"), run.out());
        List<byte[]> got = read(out);
        assertFalse(got.isEmpty());
        for (int i = 0; i < got.size(); i++) {
            assertArrayEquals(records.get(i), got.get(i), "record " + i);
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
