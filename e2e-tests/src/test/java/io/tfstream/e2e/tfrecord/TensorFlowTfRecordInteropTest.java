package io.tfstream.e2e.tfrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.CorruptRecordException;
import io.tfstream.tfrecord.CorruptRecordException.Kind;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import io.tfstream.tfrecord.TfRecordTestData;
import io.tfstream.tfrecord.TfRecordWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files written by TensorFlow read by us, ours read by TensorFlow, damage located by both. */
class TensorFlowTfRecordInteropTest {
    @TempDir Path dir;

    private final List<byte[]> records = records();

    private static List<byte[]> records() {
        List<byte[]> r = new ArrayList<>(TfRecordTestData.records(300, 2000, 42));
        byte[] big = new byte[200_000];
        new java.util.Random(9).nextBytes(big);
        r.add(big);
        r.add(new byte[] {0x1f, (byte) 0x8b});
        return r;
    }

    @Test
    void weReadWhatTensorFlowWrites() throws IOException {
        for (Compression c : Compression.values()) {
            // No telling file extension: compression is detected from the bytes.
            Path file = dir.resolve("tf-written-" + c.cliName());
            TensorFlowRecordIo.write(file, records, c);
            try (TfRecordReader r =
                    TfRecordFiles.openReader(file, TfRecordReadOptions.defaults())) {
                assertEquals(c, r.compression());
                assertRecords(TfRecordTestData.readAll(r), c.name());
            }
            if (c == Compression.NONE) {
                assertArrayEquals(
                        TfRecordTestData.write(records, Compression.NONE),
                        Files.readAllBytes(file));
            }
        }
    }

    @Test
    void tensorFlowReadsWhatWeWrite() throws IOException {
        for (Compression c : Compression.values()) {
            Path file = dir.resolve("ours-" + c.cliName());
            try (TfRecordWriter w = TfRecordFiles.newWriter(file, c)) {
                for (byte[] rec : records) {
                    w.write(rec);
                }
            }
            TensorFlowRecordIo.ReadResult tf = TensorFlowRecordIo.read(file, c);
            assertNull(tf.error(), () -> c + ": " + tf.error());
            assertRecords(tf.records(), c.name());
        }
    }

    @Test
    void tensorFlowsBatchedReadGivesEveryRecordAtEveryBatchBoundary() throws IOException {
        // TensorFlowRecordIo reads in batches: none may be lost when the file ends mid-batch
        for (int n : new int[] {0, 1, 299, 300, 301, 302}) {
            Path file = dir.resolve("batched-" + n);
            List<byte[]> some = records.subList(0, n);
            if (n == 0) {
                Files.write(file, new byte[0]); // TensorFlow's writer takes no empty slice
            } else {
                TensorFlowRecordIo.write(file, some, Compression.NONE);
            }
            for (int batch : new int[] {1, 100, 300, 4096}) {
                TensorFlowRecordIo.ReadResult tf =
                        TensorFlowRecordIo.read(file, Compression.NONE, batch);
                assertNull(tf.error(), () -> n + " records: " + tf.error());
                assertEquals(n, tf.records().size(), n + " records in batches of " + batch);
                for (int i = 0; i < n; i++) {
                    assertArrayEquals(some.get(i), tf.records().get(i), "record " + i);
                }
            }
        }
    }

    @Test
    void tensorFlowReadsOurNonDefaultCompressionLevels() throws IOException {
        for (Compression c : List.of(Compression.GZIP, Compression.ZLIB)) {
            for (int level : new int[] {1, 9}) {
                Path file = dir.resolve("ours-" + c.cliName() + "-" + level);
                try (TfRecordWriter w =
                        TfRecordWriter.builder(Files.newOutputStream(file))
                                .compression(c)
                                .compressionLevel(level)
                                .build()) {
                    for (byte[] rec : records) {
                        w.write(rec);
                    }
                }
                TensorFlowRecordIo.ReadResult tf = TensorFlowRecordIo.read(file, c);
                assertNull(tf.error(), () -> c + " level " + level + ": " + tf.error());
                assertRecords(tf.records(), c + " level " + level);
            }
        }
    }

    @Test
    void concatenatedGzipMembersAreOneStreamForBoth() throws IOException {
        byte[] a = TfRecordTestData.write(records.subList(0, 100), Compression.GZIP);
        byte[] b = TfRecordTestData.write(records.subList(100, records.size()), Compression.GZIP);
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        Path file = dir.resolve("members.tfrecord.gz");
        Files.write(file, both);
        TensorFlowRecordIo.ReadResult tf = TensorFlowRecordIo.read(file, Compression.GZIP);
        assertNull(tf.error(), () -> "TensorFlow: " + tf.error());
        assertRecords(tf.records(), "TensorFlow");
        try (TfRecordReader r = TfRecordFiles.openReader(file, TfRecordReadOptions.defaults())) {
            assertRecords(TfRecordTestData.readAll(r), "ours");
        }
    }

    @Test
    void truncatedFileIsRejectedByBothAtTheSameRecord() throws IOException {
        byte[] file = TfRecordTestData.write(records, Compression.NONE);
        long[] offsets = TfRecordTestData.offsets(records);
        // Inside the header of record 10, inside the data of record 20, inside the last footer.
        int[] cuts = {
            (int) offsets[10] + 5, (int) offsets[20] + 30, file.length - 2,
        };
        int[] damaged = {10, 20, records.size() - 1};
        for (int i = 0; i < cuts.length; i++) {
            Path path = dir.resolve("cut-" + i);
            Files.write(path, Arrays.copyOf(file, cuts[i]));
            CorruptRecordException ours = readOurs(path, damaged[i]);
            assertEquals(Kind.TRUNCATED, ours.kind());
            assertEquals(offsets[damaged[i]], ours.offset());
            TensorFlowRecordIo.ReadResult tf = TensorFlowRecordIo.read(path, Compression.NONE);
            assertEquals(damaged[i], tf.records().size());
            if (i == 0) {
                // TensorFlow's ReadNBytes reports a partial header as OUT_OF_RANGE, which the
                // reader op takes for a clean end: it silently drops the tail. We do not.
                assertNull(tf.error(), () -> "TensorFlow changed: " + tf.error());
                continue;
            }
            assertNotNull(tf.error(), "TensorFlow must reject cut " + i);
            assertTrue(
                    tf.error().getMessage().contains("truncated record at " + offsets[damaged[i]]),
                    tf.error().getMessage());
        }
    }

    @Test
    void bitFlipsAreRejectedByBothAtTheSameRecord() throws IOException {
        byte[] clean = TfRecordTestData.write(records, Compression.NONE);
        long[] offsets = TfRecordTestData.offsets(records);
        int rec = 50;
        int start = (int) offsets[rec];
        int len = records.get(rec).length;
        int[] flips = {start + 1, start + 9, start + 12 + len / 2, start + 12 + len + 2};
        Kind[] kinds = {
            Kind.LENGTH_CRC_MISMATCH,
            Kind.LENGTH_CRC_MISMATCH,
            Kind.DATA_CRC_MISMATCH,
            Kind.DATA_CRC_MISMATCH
        };
        for (int i = 0; i < flips.length; i++) {
            byte[] bytes = clean.clone();
            bytes[flips[i]] ^= 0x40;
            Path path = dir.resolve("flip-" + i);
            Files.write(path, bytes);
            CorruptRecordException ours = readOurs(path, rec);
            assertEquals(kinds[i], ours.kind());
            assertEquals(start, ours.offset());
            TensorFlowRecordIo.ReadResult tf = TensorFlowRecordIo.read(path, Compression.NONE);
            assertEquals(rec, tf.records().size());
            assertNotNull(tf.error(), "TensorFlow must reject flip " + i);
            long tfOffset = kinds[i] == Kind.LENGTH_CRC_MISMATCH ? start : start + 12;
            assertTrue(
                    tf.error().getMessage().contains("corrupted record at " + tfOffset),
                    tf.error().getMessage());
        }
    }

    @Test
    void damagedCompressedFilesAreRejectedByBoth() throws IOException {
        for (Compression c : List.of(Compression.GZIP, Compression.ZLIB)) {
            byte[] file = TfRecordTestData.write(records, c);
            Path cut = dir.resolve("cut-" + c.cliName());
            Files.write(cut, Arrays.copyOf(file, file.length * 2 / 3));
            byte[] flipped = file.clone();
            flipped[file.length / 2] ^= 0x01;
            Path flip = dir.resolve("flip-" + c.cliName());
            Files.write(flip, flipped);
            for (Path path : List.of(cut, flip)) {
                TfRecordReadOptions options = TfRecordReadOptions.defaults().withCompression(c);
                List<byte[]> before = new ArrayList<>();
                CorruptRecordException ours =
                        assertThrows(
                                CorruptRecordException.class,
                                () -> {
                                    try (TfRecordReader r =
                                            TfRecordFiles.openReader(path, options)) {
                                        while (r.next()) {
                                            before.add(r.copy());
                                        }
                                    }
                                });
                assertEquals(path.toString(), ours.file());
                assertEquals(before.size(), ours.recordIndex());
                TensorFlowRecordIo.ReadResult tf = TensorFlowRecordIo.read(path, c);
                assertNotNull(tf.error(), "TensorFlow must reject " + path);
                assertTrue(
                        Math.abs(tf.records().size() - before.size()) <= 1,
                        path
                                + ": TensorFlow read "
                                + tf.records().size()
                                + ", we read "
                                + before.size());
            }
        }
    }

    private static CorruptRecordException readOurs(Path path, int goodRecords) {
        return assertThrows(
                CorruptRecordException.class,
                () -> {
                    try (TfRecordReader r =
                            TfRecordFiles.openReader(path, TfRecordReadOptions.defaults())) {
                        for (int i = 0; i < goodRecords; i++) {
                            assertTrue(r.next());
                        }
                        r.next();
                    }
                });
    }

    private void assertRecords(List<byte[]> read, String what) {
        assertEquals(records.size(), read.size(), what);
        for (int i = 0; i < records.size(); i++) {
            assertArrayEquals(records.get(i), read.get(i), what + " record " + i);
        }
    }
}
