package io.tfstream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordTestData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexCommandTest {
    @TempDir Path dir;

    private final List<byte[]> records = List.of(new byte[5], new byte[0], new byte[100]);

    @Test
    void writesTheDaliIndexNextToTheFile() throws IOException {
        Path file = dir.resolve("train.tfrecord");
        Files.write(file, TfRecordTestData.write(records, Compression.NONE));
        CliRun run = CliRun.of("index", file.toString());
        assertEquals(0, run.exitCode(), run.err());
        Path idx = dir.resolve("train.tfrecord.idx");
        assertEquals(file + ": 3 records, index " + idx + "\n", run.out());
        assertEquals("0 21\n21 16\n37 116\n", Files.readString(idx, StandardCharsets.US_ASCII));
    }

    @Test
    void writesWhereOutSays() throws IOException {
        Path file = dir.resolve("train.tfrecord");
        Files.write(file, TfRecordTestData.write(records, Compression.NONE));
        Path idx = dir.resolve("other.idx");
        CliRun run = CliRun.of("index", file.toString(), "--out", idx.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("0 21\n21 16\n37 116\n", Files.readString(idx));
    }

    @Test
    void refusesCompressedFiles() throws IOException {
        Path file = dir.resolve("train.tfrecord");
        Files.write(file, TfRecordTestData.write(records, Compression.GZIP));
        CliRun run = CliRun.of("index", file.toString());
        assertEquals(2, run.exitCode());
        assertEquals("", run.out());
        assertTrue(run.err().contains("is gzip-compressed"), run.err());
        assertFalse(Files.exists(dir.resolve("train.tfrecord.idx")));
    }

    @Test
    void damagedFileLeavesNoIndex() throws IOException {
        byte[] bytes = TfRecordTestData.write(records, Compression.NONE);
        bytes[21 + 3] ^= 1; // length of record 1
        Path file = dir.resolve("bad.tfrecord");
        Files.write(file, bytes);
        CliRun run = CliRun.of("index", file.toString());
        assertEquals(2, run.exitCode());
        assertTrue(
                run.out().startsWith(file + ": damaged at byte 21 (record 1): length CRC mismatch"),
                run.out());
        try (var files = Files.list(dir)) {
            assertEquals(List.of(file), files.toList());
        }
    }
}
