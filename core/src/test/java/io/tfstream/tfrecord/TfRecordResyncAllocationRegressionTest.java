package io.tfstream.tfrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.tfrecord.CorruptRecordException.Kind;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Found by {@code TfRecordReaderFuzzTest}: while skipping a damaged region the reader built a
 * {@link CorruptRecordException} (a formatted message and a stack trace) for every byte it stepped
 * over, about 2.5 KB and several microseconds per skipped byte. Positions whose length CRC fails
 * are now rejected without one.
 */
class TfRecordResyncAllocationRegressionTest {
    /**
     * The fuzzer's input after its configuration byte 0x77 (detected compression, skipping, 1 KiB
     * limit, 12-byte buffer, one byte per read): a gzip stream of 1348 bytes of garbage with a
     * damaged trailer. It allocated 5 to 10 MB for 276 bytes.
     */
    private static final byte[] CRASH_1A3D940C =
            HexFormat.of()
                    .parseHex(
                            "1f8b08000000000000030b67808067bba6f4708572097271a4a526969416a5"
                                    + "1a08b14a30733132220919428498b8c4e14c1118424642220919428498b8c4e1"
                                    + "42414642dc5c9c5cecc91999c9d9a9795c22700963210e21362e968b1f72ec6e"
                                    + "a9f24c0aa7ad3513c5b8f75fcce9584f636bb0b0b0b0b0b0b0b0b0b0b0b0b0b0"
                                    + "b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0"
                                    + "b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0"
                                    + "b0b0b0b0b0b0b0b0b0b0a668ecb2332fcfba05b58541937906ffffffffffffff"
                                    + "ffffffffffffffffffffffffffffffa7ffffffffffffffffffffffffffffffff"
                                    + "ffffffffffffffffffffffffffffff433745010000");

    private final List<SkippedRegion> skipped = new ArrayList<>();

    @Test
    void fuzzerInputThrowsForTheDamagedGzipStreamWithoutAnAllocationPerSkippedByte()
            throws IOException {
        TfRecordReadOptions options =
                TfRecordReadOptions.defaults()
                        .withAutoCompression()
                        .withMaxRecordLength(1024)
                        .withBufferSize(12)
                        .skipDamaged(skipped::add);
        long allocated = 0;
        for (int run = 0; run < 2; run++) { // the first run pays for class loading
            long before = allocatedBytes();
            try (TfRecordReader r =
                    TfRecordReader.open(new PickyInputStream(CRASH_1A3D940C), "fuzz", options)) {
                CorruptRecordException e = assertThrows(CorruptRecordException.class, r::next);
                assertEquals(Kind.COMPRESSED_STREAM, e.kind());
            }
            allocated = allocatedBytes() - before;
        }
        assertTrue(allocated < 256 << 10, "allocated " + allocated + " bytes");
    }

    @Test
    void skippingALongDamagedRegionAllocatesLittle() throws IOException {
        byte[] record = {1, 2, 3};
        byte[] good = TfRecordTestData.write(List.of(record), Compression.NONE);
        byte[] file = new byte[(64 << 10) + good.length];
        System.arraycopy(good, 0, file, 64 << 10, good.length);
        TfRecordReadOptions options =
                TfRecordReadOptions.defaults()
                        .withCompression(Compression.NONE)
                        .skipDamaged(skipped::add);
        long allocated = 0;
        for (int run = 0; run < 2; run++) {
            skipped.clear();
            long before = allocatedBytes();
            try (TfRecordReader r =
                    TfRecordReader.open(new ByteArrayInputStream(file), "zeros", options)) {
                assertTrue(r.next());
                assertArrayEquals(record, r.copy());
                assertEquals(List.of(0L, (long) (64 << 10)), regionOf(skipped));
            }
            allocated = allocatedBytes() - before;
        }
        // Was about 240 MB: one exception per skipped byte.
        assertTrue(allocated < 1 << 20, "allocated " + allocated + " bytes");
    }

    private static List<Long> regionOf(List<SkippedRegion> regions) {
        assertEquals(1, regions.size());
        return List.of(regions.get(0).offset(), regions.get(0).length());
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
                .getCurrentThreadAllocatedBytes();
    }
}
