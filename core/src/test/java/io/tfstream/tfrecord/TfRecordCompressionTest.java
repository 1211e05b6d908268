package io.tfstream.tfrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tfstream.tfrecord.CorruptRecordException.Kind;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TfRecordCompressionTest {
    private final List<byte[]> records = TfRecordTestData.records(300, 400, 7);

    @Test
    void gzipAndZlibRoundTripThroughAPickyStream() throws IOException {
        for (Compression c : List.of(Compression.GZIP, Compression.ZLIB)) {
            byte[] file = TfRecordTestData.write(records, c);
            for (TfRecordReadOptions options :
                    List.of(
                            TfRecordReadOptions.defaults(),
                            TfRecordReadOptions.defaults().withCompression(c))) {
                try (TfRecordReader r =
                        TfRecordReader.open(new PickyInputStream(file), "noext", options)) {
                    assertEquals(c, r.compression());
                    assertRecords(TfRecordTestData.readAll(r));
                }
            }
        }
    }

    @Test
    void compressedOutputIsAStandardStreamOfTheUncompressedBytes() throws IOException {
        byte[] plain = TfRecordTestData.write(records, Compression.NONE);
        byte[] gz = TfRecordTestData.write(records, Compression.GZIP);
        byte[] zz = TfRecordTestData.write(records, Compression.ZLIB);
        assertEquals(0x1f, gz[0] & 0xff);
        assertEquals(0x8b, gz[1] & 0xff);
        assertEquals(0x78, zz[0] & 0xff);
        assertEquals(0x9c, zz[1] & 0xff);
        assertArrayEquals(plain, new GZIPInputStream(new ByteArrayInputStream(gz)).readAllBytes());
        assertArrayEquals(
                plain, new InflaterInputStream(new ByteArrayInputStream(zz)).readAllBytes());
    }

    @Test
    void everyCompressionLevelReadsBack() throws IOException {
        byte[] plain = TfRecordTestData.write(records, Compression.NONE);
        for (Compression c : List.of(Compression.GZIP, Compression.ZLIB)) {
            int previous = Integer.MAX_VALUE;
            for (int level : new int[] {0, 1, 9}) {
                java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
                try (TfRecordWriter w =
                        TfRecordWriter.builder(out)
                                .compression(c)
                                .compressionLevel(level)
                                .build()) {
                    for (byte[] rec : records) {
                        w.write(rec);
                    }
                }
                byte[] file = out.toByteArray();
                try (TfRecordReader r =
                        TfRecordReader.open(
                                new ByteArrayInputStream(file),
                                "l",
                                TfRecordReadOptions.defaults())) {
                    assertEquals(c, r.compression());
                    assertRecords(TfRecordTestData.readAll(r));
                }
                if (level == 0) {
                    // Stored blocks: at least as large as the records themselves.
                    assertEquals(true, file.length > plain.length, c + " level 0");
                }
                assertEquals(true, file.length <= previous, c + " level " + level);
                previous = file.length;
            }
        }
        assertThrows(
                IllegalArgumentException.class,
                () -> TfRecordWriter.builder(new CollectingOutputStream()).compressionLevel(10));
    }

    @Test
    void concatenatedGzipMembersReadAsOneStream() throws IOException {
        byte[] a = TfRecordTestData.write(records.subList(0, 100), Compression.GZIP);
        byte[] b = TfRecordTestData.write(records.subList(100, 300), Compression.GZIP);
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        try (TfRecordReader r =
                TfRecordReader.open(
                        new ByteArrayInputStream(both), "x.gz", TfRecordReadOptions.defaults())) {
            assertRecords(TfRecordTestData.readAll(r));
        }
    }

    @Test
    void detectionByNameThenCrcThenMagic() {
        byte[] none = new byte[0];
        assertEquals(Compression.GZIP, Compression.detect("a/b.tfrecord.GZ", none, 0));
        assertEquals(Compression.ZLIB, Compression.detect("b.zlib", none, 0));
        assertEquals(Compression.ZLIB, Compression.detect("b.zz", none, 0));
        assertEquals(Compression.NONE, Compression.detect("b.tfrecord", none, 0));
        assertEquals(Compression.GZIP, Compression.detect(null, new byte[] {0x1f, (byte) 0x8b}, 2));
        for (int second : new int[] {0x01, 0x5e, 0x9c, 0xda}) {
            assertEquals(
                    Compression.ZLIB,
                    Compression.detect(null, new byte[] {0x78, (byte) second}, 2));
        }
        assertEquals(Compression.NONE, Compression.detect(null, new byte[] {0x78, 0x02}, 2));
    }

    @Test
    void uncompressedFileStartingWithTheGzipMagicIsNotMisdetected() throws IOException {
        // A record of 0x8b1f bytes: its little-endian length starts with 1f 8b.
        byte[] big = new byte[0x8b1f];
        Arrays.fill(big, (byte) 7);
        byte[] file = TfRecordTestData.write(List.of(big, new byte[] {1}), Compression.NONE);
        assertEquals(0x1f, file[0] & 0xff);
        assertEquals(0x8b, file[1] & 0xff);
        assertEquals(Compression.NONE, Compression.detect("data.tfrecord", file, 12));
        try (TfRecordReader r =
                TfRecordReader.open(
                        new PickyInputStream(file), "data", TfRecordReadOptions.defaults())) {
            assertEquals(Compression.NONE, r.compression());
            List<byte[]> read = TfRecordTestData.readAll(r);
            assertArrayEquals(big, read.get(0));
            assertEquals(2, read.size());
        }
    }

    @Test
    void uncompressedFileStartingWithTheZlibMagicIsNotMisdetected() throws IOException {
        byte[] rec = new byte[0x9c78];
        byte[] file = TfRecordTestData.write(List.of(rec), Compression.NONE);
        assertEquals(0x78, file[0] & 0xff);
        assertEquals(Compression.NONE, Compression.detect(null, file, 12));
    }

    @Test
    void truncatedCompressedFileIsReportedAsDamagedStream() throws IOException {
        for (Compression c : List.of(Compression.GZIP, Compression.ZLIB)) {
            byte[] file = TfRecordTestData.write(records, c);
            byte[] cut = Arrays.copyOf(file, file.length / 2);
            try (TfRecordReader r =
                    TfRecordReader.open(
                            new ByteArrayInputStream(cut),
                            "cut",
                            TfRecordReadOptions.defaults().withCompression(c))) {
                CorruptRecordException e =
                        assertThrows(
                                CorruptRecordException.class,
                                () -> {
                                    while (r.next()) {
                                        // read to the damage
                                    }
                                });
                // Depending on where the cut falls, either inflation fails or the last record
                // decompressed is incomplete.
                assertEquals(
                        true,
                        e.kind() == Kind.COMPRESSED_STREAM || e.kind() == Kind.TRUNCATED,
                        c + ": " + e.getMessage());
                assertEquals("cut", e.file());
            }
        }
    }

    @Test
    void forcedGzipOnAPlainFileIsDamageAtByteZero() throws IOException {
        byte[] plain = TfRecordTestData.write(records, Compression.NONE);
        for (byte[] file : List.of(plain, new byte[0])) {
            CorruptRecordException e =
                    assertThrows(
                            CorruptRecordException.class,
                            () ->
                                    TfRecordReader.open(
                                            new ByteArrayInputStream(file),
                                            "plain",
                                            TfRecordReadOptions.defaults()
                                                    .withCompression(Compression.GZIP)));
            assertEquals(Kind.COMPRESSED_STREAM, e.kind());
            assertEquals(0, e.offset());
            assertEquals(0, e.recordIndex());
        }
    }

    @Test
    void readsFilesByPathWithDetection(@TempDir Path dir) throws IOException {
        for (Compression c : Compression.values()) {
            Path file = dir.resolve("records-" + c.cliName());
            try (TfRecordWriter w = TfRecordFiles.newWriter(file, c)) {
                for (byte[] rec : records) {
                    w.write(rec);
                }
            }
            try (TfRecordReader r =
                    TfRecordFiles.openReader(file, TfRecordReadOptions.defaults())) {
                assertEquals(c, r.compression());
                assertRecords(TfRecordTestData.readAll(r));
            }
        }
        byte[] gz = Files.readAllBytes(dir.resolve("records-gzip"));
        assertEquals(0x1f, gz[0] & 0xff);
    }

    private void assertRecords(List<byte[]> read) {
        assertEquals(records.size(), read.size());
        for (int i = 0; i < records.size(); i++) {
            assertArrayEquals(records.get(i), read.get(i), "record " + i);
        }
    }
}
