package io.tfstream.tfrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.tfrecord.CorruptRecordException.Kind;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TfRecordReaderTest {
    private static final TfRecordReadOptions NONE =
            TfRecordReadOptions.defaults().withCompression(Compression.NONE);

    private static TfRecordReader reader(byte[] bytes, TfRecordReadOptions options)
            throws IOException {
        return TfRecordReader.open(new ByteArrayInputStream(bytes), "test.tfrecord", options);
    }

    @Test
    void readsBackWhatTheWriterWrote() throws IOException {
        List<byte[]> records = TfRecordTestData.records(200, 3000, 1);
        byte[] file = TfRecordTestData.write(records, Compression.NONE);
        long[] offsets = TfRecordTestData.offsets(records);
        try (TfRecordReader r = reader(file, NONE.withBufferSize(64))) {
            for (int i = 0; i < records.size(); i++) {
                assertTrue(r.next());
                assertEquals(i, r.recordIndex());
                assertEquals(offsets[i], r.recordOffset());
                assertEquals(records.get(i).length + 16L, r.framedLength());
                byte[] view = Arrays.copyOfRange(r.buffer(), r.offset(), r.offset() + r.length());
                assertArrayEquals(records.get(i), view);
            }
            assertFalse(r.next());
            assertFalse(r.next());
            assertEquals(200, r.recordCount());
            assertEquals(file.length, r.position());
        }
    }

    @Test
    void readsOneByteAtATimeFromAPickyStream() throws IOException {
        List<byte[]> records = TfRecordTestData.records(20, 500, 2);
        byte[] file = TfRecordTestData.write(records, Compression.NONE);
        PickyInputStream picky = new PickyInputStream(file);
        try (TfRecordReader r =
                TfRecordReader.open(picky, "picky", TfRecordReadOptions.defaults())) {
            assertEquals(Compression.NONE, r.compression());
            List<byte[]> read = TfRecordTestData.readAll(r);
            assertEquals(records.size(), read.size());
            for (int i = 0; i < records.size(); i++) {
                assertArrayEquals(records.get(i), read.get(i));
            }
        }
        assertTrue(picky.reads() > file.length, "one byte per call");
    }

    @Test
    void emptyStreamIsACleanEnd() throws IOException {
        try (TfRecordReader r = reader(new byte[0], TfRecordReadOptions.defaults())) {
            assertNull(r.readRecord());
            assertEquals(0, r.recordCount());
        }
    }

    @Test
    void everyTruncationIsACleanEndAtABoundaryOrTruncatedInsideARecord() throws IOException {
        List<byte[]> records = TfRecordTestData.records(4, 40, 3);
        byte[] file = TfRecordTestData.write(records, Compression.NONE);
        long[] offsets = TfRecordTestData.offsets(records);
        for (int cut = 0; cut < file.length; cut++) {
            byte[] prefix = Arrays.copyOf(file, cut);
            int complete = 0;
            while (complete < records.size() && offsets[complete + 1] <= cut) {
                complete++;
            }
            try (TfRecordReader r = reader(prefix, NONE)) {
                for (int i = 0; i < complete; i++) {
                    assertTrue(r.next(), "cut " + cut);
                }
                if (offsets[complete] == cut) {
                    assertFalse(r.next(), "clean end at cut " + cut);
                } else {
                    CorruptRecordException e = assertThrows(CorruptRecordException.class, r::next);
                    assertEquals(Kind.TRUNCATED, e.kind(), "cut " + cut);
                    assertEquals(offsets[complete], e.offset());
                    assertEquals(complete, e.recordIndex());
                    assertEquals("test.tfrecord", e.file());
                }
            }
        }
    }

    @Test
    void truncationMessageSaysHowMuchIsThere() throws IOException {
        byte[] file =
                TfRecordTestData.write(List.of(new byte[10], new byte[100]), Compression.NONE);
        CorruptRecordException e =
                assertThrows(
                        CorruptRecordException.class, () -> readAll(Arrays.copyOf(file, 26 + 50)));
        assertEquals(
                "test.tfrecord: damaged at byte 26 (record 1): truncated record: 50 of 116 bytes"
                        + " (data length 100)",
                e.getMessage());
        CorruptRecordException header =
                assertThrows(CorruptRecordException.class, () -> readAll(Arrays.copyOf(file, 31)));
        assertEquals("truncated record header: 5 of 12 bytes", header.reason());
    }

    @Test
    void bitFlipInEachPartIsLocatedWithBothCrcs() throws IOException {
        List<byte[]> records =
                List.of(new byte[] {1, 2, 3}, new byte[] {4, 5, 6, 7, 8}, new byte[] {9});
        byte[] file = TfRecordTestData.write(records, Compression.NONE);
        int second = 3 + 16;
        int[] positions = {second, second + 8, second + 12 + 2, second + 12 + 5 + 1};
        Kind[] kinds = {
            Kind.LENGTH_CRC_MISMATCH,
            Kind.LENGTH_CRC_MISMATCH,
            Kind.DATA_CRC_MISMATCH,
            Kind.DATA_CRC_MISMATCH
        };
        MaskedCrc32c crc = new MaskedCrc32c();
        for (int i = 0; i < positions.length; i++) {
            byte[] damaged = file.clone();
            damaged[positions[i]] ^= 0x10;
            try (TfRecordReader r = reader(damaged, NONE)) {
                assertArrayEquals(records.get(0), r.readRecord());
                CorruptRecordException e = assertThrows(CorruptRecordException.class, r::next);
                assertEquals(kinds[i], e.kind(), "flip at " + positions[i]);
                assertEquals(second, e.offset());
                assertEquals(1, e.recordIndex());
                assertTrue(e.isCrcMismatch());
                int crcAt = kinds[i] == Kind.LENGTH_CRC_MISMATCH ? second + 8 : second + 12 + 5;
                int dataAt = kinds[i] == Kind.LENGTH_CRC_MISMATCH ? second : second + 12;
                int dataLen = kinds[i] == Kind.LENGTH_CRC_MISMATCH ? 8 : 5;
                int stored = TfRecordFraming.getInt(damaged, crcAt);
                int computed = crc.maskedCrc(damaged, dataAt, dataLen);
                assertEquals(stored, e.expectedCrc());
                assertEquals(computed, e.actualCrc());
                String what = kinds[i] == Kind.LENGTH_CRC_MISMATCH ? "length" : "data";
                assertEquals(
                        String.format(
                                "test.tfrecord: damaged at byte 19 (record 1): %s CRC mismatch:"
                                        + " expected masked CRC 0x%08x (stored), actual 0x%08x"
                                        + " (computed)",
                                what, stored, computed),
                        e.getMessage());
            }
        }
    }

    @Test
    void lengthAboveTheLimitIsRefusedBeforeReadingTheData() throws IOException {
        byte[] file = TfRecordTestData.write(List.of(new byte[1000]), Compression.NONE);
        // Only the header: if the reader tried to read the data first it would report truncation.
        byte[] header = Arrays.copyOf(file, 12);
        CorruptRecordException e =
                assertThrows(
                        CorruptRecordException.class,
                        () -> readAll(header, NONE.withMaxRecordLength(999)));
        assertEquals(Kind.LENGTH_LIMIT_EXCEEDED, e.kind());
        assertEquals("record length 1000 exceeds maxRecordLength (999)", e.reason());
        assertEquals(1, readAll(file, NONE.withMaxRecordLength(1000)));
    }

    @Test
    void hugeDeclaredLengthOfATruncatedStreamAllocatesOnlyWhatArrives() throws IOException {
        // A valid header declaring ~2 GB followed by 100 bytes: growing the buffer to the declared
        // size up front would exceed the test heap.
        int declared = TfRecordReadOptions.MAX_SUPPORTED_RECORD_LENGTH;
        byte[] file = new byte[12 + 100];
        TfRecordFraming.putHeader(file, 0, declared, new MaskedCrc32c());
        try (TfRecordReader r =
                reader(file, NONE.withMaxRecordLength(declared).withBufferSize(16))) {
            CorruptRecordException e = assertThrows(CorruptRecordException.class, r::next);
            assertEquals(Kind.TRUNCATED, e.kind());
            assertTrue(r.buffer().length <= 256, "buffer grew to " + r.buffer().length);
        }
    }

    @Test
    void lengthWithTheTopBitSetIsReportedUnsigned() throws IOException {
        byte[] file = new byte[12];
        TfRecordFraming.putHeader(file, 0, -1L, new MaskedCrc32c());
        CorruptRecordException e =
                assertThrows(CorruptRecordException.class, () -> readAll(file, NONE));
        assertEquals(
                "record length 18446744073709551615 exceeds maxRecordLength (67108864)",
                e.reason());
    }

    @Test
    void recordLargerThanTheBufferGrowsIt() throws IOException {
        List<byte[]> records = TfRecordTestData.records(5, 200_000, 4);
        byte[] file = TfRecordTestData.write(records, Compression.NONE);
        try (TfRecordReader r = reader(file, NONE.withBufferSize(12))) {
            List<byte[]> read = TfRecordTestData.readAll(r);
            for (int i = 0; i < records.size(); i++) {
                assertArrayEquals(records.get(i), read.get(i));
            }
        }
    }

    private static int readAll(byte[] file) throws IOException {
        return readAll(file, NONE);
    }

    private static int readAll(byte[] file, TfRecordReadOptions options) throws IOException {
        try (TfRecordReader r = reader(file, options)) {
            return TfRecordTestData.readAll(r).size();
        }
    }
}
