package io.tfstream.tfrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tfstream.tfrecord.CorruptRecordException.Kind;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class TfRecordResyncTest {
    private final List<byte[]> records = TfRecordTestData.records(6, 80, 11);
    private final long[] offsets = TfRecordTestData.offsets(records);
    private final List<SkippedRegion> skipped = new ArrayList<>();
    private final TfRecordReadOptions skipping =
            TfRecordReadOptions.defaults()
                    .withCompression(Compression.NONE)
                    .skipDamaged(skipped::add);

    private List<byte[]> read(byte[] file, TfRecordReadOptions options) throws IOException {
        try (TfRecordReader r =
                TfRecordReader.open(new PickyInputStream(file), "damaged", options)) {
            List<byte[]> out = TfRecordTestData.readAll(r);
            assertEquals(skipped.stream().mapToLong(SkippedRegion::length).sum(), r.skippedBytes());
            assertEquals(skipped.size(), r.skippedRegions());
            return out;
        }
    }

    @Test
    void skipsARecordWithBadDataAndReportsItsExtent() throws IOException {
        byte[] file = TfRecordTestData.write(records, Compression.NONE);
        file[(int) offsets[2] + 13] ^= 1;
        List<byte[]> read = read(file, skipping);
        assertEquals(records.size() - 1, read.size());
        assertArrayEquals(records.get(1), read.get(1));
        assertArrayEquals(records.get(3), read.get(2));
        assertEquals(1, skipped.size());
        SkippedRegion region = skipped.get(0);
        assertEquals(offsets[2], region.offset());
        assertEquals(offsets[3] - offsets[2], region.length());
        assertEquals(2, region.recordIndex());
        assertEquals(Kind.DATA_CRC_MISMATCH, region.damage().kind());
        assertEquals(OptionalLong.of(1), region.recordsLost());
    }

    @Test
    void skipsGarbageBetweenRecords() throws IOException {
        byte[] clean = TfRecordTestData.write(records, Compression.NONE);
        int at = (int) offsets[4];
        byte[] garbage = new byte[37];
        Arrays.fill(garbage, (byte) 0x5a);
        byte[] file = new byte[clean.length + garbage.length];
        System.arraycopy(clean, 0, file, 0, at);
        System.arraycopy(garbage, 0, file, at, garbage.length);
        System.arraycopy(clean, at, file, at + garbage.length, clean.length - at);
        List<byte[]> read = read(file, skipping);
        assertEquals(records.size(), read.size());
        for (int i = 0; i < records.size(); i++) {
            assertArrayEquals(records.get(i), read.get(i));
        }
        assertEquals(List.of(new SkippedRegion(at, 37, 4, skipped.get(0).damage())), skipped);
        assertEquals(Kind.LENGTH_CRC_MISMATCH, skipped.get(0).damage().kind());
    }

    @Test
    void skipsADamagedLengthAndATruncatedTail() throws IOException {
        byte[] file = TfRecordTestData.write(records, Compression.NONE);
        file[(int) offsets[1]] ^= (byte) 0x80;
        byte[] cut = Arrays.copyOf(file, (int) offsets[5] + 7);
        List<byte[]> read = read(cut, skipping);
        assertEquals(4, read.size());
        assertArrayEquals(records.get(0), read.get(0));
        assertArrayEquals(records.get(2), read.get(1));
        assertArrayEquals(records.get(4), read.get(3));
        assertEquals(2, skipped.size());
        assertEquals(offsets[1], skipped.get(0).offset());
        assertEquals(offsets[2] - offsets[1], skipped.get(0).length());
        assertEquals(offsets[5], skipped.get(1).offset());
        assertEquals(7, skipped.get(1).length());
        assertEquals(Kind.TRUNCATED, skipped.get(1).damage().kind());
        assertEquals(4, skipped.get(1).recordIndex());
        assertEquals(OptionalLong.empty(), skipped.get(0).recordsLost());
        assertEquals(OptionalLong.of(1), skipped.get(1).recordsLost());
    }

    @Test
    void withoutSkippingTheSameDamageThrows() throws IOException {
        byte[] file = TfRecordTestData.write(records, Compression.NONE);
        file[(int) offsets[2] + 13] ^= 1;
        CorruptRecordException e =
                assertThrows(
                        CorruptRecordException.class,
                        () -> read(file, TfRecordReadOptions.defaults()));
        assertEquals(offsets[2], e.offset());
        assertEquals(2, e.recordIndex());
    }
}
