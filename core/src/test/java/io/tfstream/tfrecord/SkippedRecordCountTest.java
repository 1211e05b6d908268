package io.tfstream.tfrecord;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tfstream.tfrecord.CorruptRecordException.Kind;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * {@link SkippedRegion#recordsLost()}: counted when the damaged region's headers lead from its
 * start to its end, unknown otherwise.
 */
class SkippedRecordCountTest {
    private final List<byte[]> records = new ArrayList<>();
    private final long[] offsets;
    private final List<SkippedRegion> skipped = new ArrayList<>();

    SkippedRecordCountTest() {
        for (int i = 0; i < 8; i++) {
            byte[] r = new byte[20 + i];
            Arrays.fill(r, (byte) (i + 1));
            records.add(r);
        }
        offsets = TfRecordTestData.offsets(records);
    }

    private List<byte[]> read(byte[] stream, TfRecordReadOptions options) throws IOException {
        try (TfRecordReader r =
                TfRecordReader.open(
                        new PickyInputStream(stream),
                        "damaged",
                        options.skipDamaged(skipped::add))) {
            return TfRecordTestData.readAll(r);
        }
    }

    private List<byte[]> read(byte[] file) throws IOException {
        return read(file, TfRecordReadOptions.defaults().withCompression(Compression.NONE));
    }

    private byte[] file() throws IOException {
        return TfRecordTestData.write(records, Compression.NONE);
    }

    private void assertOneRegion(long from, long to, OptionalLong lost) {
        assertEquals(1, skipped.size(), skipped.toString());
        assertEquals(from, skipped.get(0).offset());
        assertEquals(to - from, skipped.get(0).length());
        assertEquals(lost, skipped.get(0).recordsLost());
    }

    @Test
    void oneRecordWithBadDataIsOneRecordLost() throws IOException {
        byte[] file = file();
        file[(int) offsets[3] + 12 + 4] ^= 0x10;
        assertEquals(7, read(file).size());
        assertOneRegion(offsets[3], offsets[4], OptionalLong.of(1));
    }

    @Test
    void consecutiveRecordsWithBadDataAreCountedTogether() throws IOException {
        byte[] file = file();
        for (int i = 2; i <= 4; i++) {
            file[(int) offsets[i] + 12 + i] ^= 0x01;
        }
        assertEquals(5, read(file).size());
        assertOneRegion(offsets[2], offsets[5], OptionalLong.of(3));
    }

    @Test
    void aBadDataCrcInTheLastRecordIsCountedUpToTheEnd() throws IOException {
        byte[] file = file();
        file[file.length - 1] ^= 0x01;
        assertEquals(7, read(file).size());
        assertOneRegion(offsets[7], offsets[8], OptionalLong.of(1));
    }

    @Test
    void aRecordCutShortInItsDataOrHeaderIsOneRecordLost() throws IOException {
        byte[] inData = Arrays.copyOf(file(), (int) offsets[6] + 12 + 5);
        assertEquals(6, read(inData).size());
        assertOneRegion(offsets[6], offsets[6] + 17, OptionalLong.of(1));
        assertEquals(Kind.TRUNCATED, skipped.get(0).damage().kind());

        skipped.clear();
        byte[] inHeader = Arrays.copyOf(file(), (int) offsets[6] + 5);
        assertEquals(6, read(inHeader).size());
        assertOneRegion(offsets[6], offsets[6] + 5, OptionalLong.of(1));
    }

    @Test
    void aRecordOverTheLengthLimitIsOneRecordLost() throws IOException {
        records.set(2, new byte[500]);
        long[] at = TfRecordTestData.offsets(records);
        byte[] file = file();
        List<byte[]> read =
                read(
                        file,
                        TfRecordReadOptions.defaults()
                                .withCompression(Compression.NONE)
                                .withMaxRecordLength(100));
        assertEquals(7, read.size());
        assertOneRegion(at[2], at[3], OptionalLong.of(1));
        assertEquals(Kind.LENGTH_LIMIT_EXCEEDED, skipped.get(0).damage().kind());
    }

    @Test
    void aDamagedLengthLeavesTheCountUnknown() throws IOException {
        byte[] file = file();
        file[(int) offsets[3]] ^= 0x04;
        assertEquals(7, read(file).size());
        assertOneRegion(offsets[3], offsets[4], OptionalLong.empty());
        assertEquals(Kind.LENGTH_CRC_MISMATCH, skipped.get(0).damage().kind());
    }

    @Test
    void aHeaderThatOvershootsTheNextGoodRecordLeavesTheCountUnknown() throws IOException {
        // A valid header declaring 100 bytes, then only 40 of them, then the records.
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] header = new byte[TfRecordFraming.HEADER_SIZE];
        TfRecordFraming.putHeader(header, 0, 100, new MaskedCrc32c());
        out.write(header);
        out.write(new byte[40]);
        out.write(file());
        assertEquals(8, read(out.toByteArray()).size());
        assertOneRegion(0, 52, OptionalLong.empty());
    }

    @Test
    void damageInsideAGzipStreamIsCountedInTheDecompressedRecords() throws IOException {
        byte[] file = file();
        file[(int) offsets[5] + 12 + 1] ^= 0x08;
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(gz)) {
            z.write(file);
        }
        assertEquals(7, read(gz.toByteArray(), TfRecordReadOptions.defaults()).size());
        assertOneRegion(offsets[5], offsets[6], OptionalLong.of(1));
    }
}
