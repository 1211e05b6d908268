package io.tfstream.tfrecord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class MaskedCrc32cTest {
    private final MaskedCrc32c crc = new MaskedCrc32c();

    @Test
    void matchesTensorFlowCrc32cVectors() {
        // tensorflow/core/lib/hash/crc32c_test.cc, StandardResults
        byte[] zeros = new byte[32];
        assertEquals(0x8a9136aa, crc.crc(zeros, 0, 32));
        byte[] ones = new byte[32];
        java.util.Arrays.fill(ones, (byte) 0xff);
        assertEquals(0x62a8ab43, crc.crc(ones, 0, 32));
        byte[] ascending = new byte[32];
        for (int i = 0; i < 32; i++) {
            ascending[i] = (byte) i;
        }
        assertEquals(0x46dd794e, crc.crc(ascending, 0, 32));
        byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
        assertEquals(0xe3069283, crc.crc(check, 0, check.length));
    }

    @Test
    void crcOfSliceIgnoresBytesAround() {
        byte[] padded = "xx123456789yy".getBytes(StandardCharsets.US_ASCII);
        assertEquals(0xe3069283, crc.crc(padded, 2, 9));
    }

    @Test
    void maskIsRotateRight15PlusDeltaAndUnmaskInvertsIt() {
        assertEquals(0xa282ead8, MaskedCrc32c.mask(0));
        int c = 0xe3069283;
        int rotated = (c >>> 15) | (c << 17);
        assertEquals(rotated + 0xa282ead8, MaskedCrc32c.mask(c));
        assertNotEquals(c, MaskedCrc32c.mask(c));
        for (int v : new int[] {0, 1, -1, 0x12345678, 0x80000000, c}) {
            assertEquals(v, MaskedCrc32c.unmask(MaskedCrc32c.mask(v)));
        }
    }

    @Test
    void cachedLengthCrcEqualsTheCrcOfTheLittleEndianLength() {
        byte[] le = new byte[8];
        // 5 and 261 share a cache slot; repeat to hit and to evict.
        for (long len : new long[] {0, 5, 261, 5, 261, 100, 100, 1L << 40, 255, 256, -1}) {
            for (int i = 0; i < 8; i++) {
                le[i] = (byte) (len >>> (8 * i));
            }
            assertEquals(crc.maskedCrc(le, 0, 8), crc.maskedLengthCrc(len), "length " + len);
        }
    }

    @Test
    void emptyRecordFramesAsTensorFlowWritesIt() {
        // Header: eight zero length bytes, masked CRC32C of them; footer: mask(crc("")) = mask(0).
        byte[] header = new byte[TfRecordFraming.HEADER_SIZE];
        TfRecordFraming.putHeader(header, 0, 0, crc);
        assertEquals(
                MaskedCrc32c.mask(crc.crc(new byte[8], 0, 8)), TfRecordFraming.getInt(header, 8));
        byte[] footer = new byte[4];
        TfRecordFraming.putFooter(footer, 0, new byte[0], 0, 0, crc);
        assertEquals(0xa282ead8, TfRecordFraming.getInt(footer, 0));
        assertEquals((byte) 0xd8, footer[0]);
        assertEquals((byte) 0xa2, footer[3]);
    }
}
