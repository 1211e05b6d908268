package io.tfstream.tfrecord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class Crc32cCombineTest {
    private static int crc(byte[] b, int off, int len) {
        CRC32C c = new CRC32C();
        c.update(b, off, len);
        return (int) c.getValue();
    }

    @Test
    void combinesRandomSplitsAsTheJdkComputesTheWhole() {
        Random random = new Random(28);
        for (int trial = 0; trial < 500; trial++) {
            int n = trial < 400 ? random.nextInt(300) : random.nextInt(3 << 20);
            byte[] data = new byte[n];
            random.nextBytes(data);
            int split = n == 0 ? 0 : random.nextInt(n + 1);
            int combined =
                    Crc32cCombine.combine(
                            crc(data, 0, split), crc(data, split, n - split), n - split);
            assertEquals(crc(data, 0, n), combined, "length " + n + " split at " + split);
        }
    }

    @Test
    void emptySecondPartLeavesTheFirstCrc() {
        byte[] data = {1, 2, 3};
        assertEquals(crc(data, 0, 3), Crc32cCombine.combine(crc(data, 0, 3), 0, 0));
        assertEquals(0, Crc32cCombine.combine(0, 0, 0));
    }

    @Test
    void emptyFirstPartGivesTheSecondCrc() {
        byte[] data = new byte[1000];
        new Random(1).nextBytes(data);
        assertEquals(crc(data, 0, 1000), Crc32cCombine.combine(0, crc(data, 0, 1000), 1000));
    }

    @Test
    void combinesAcrossMoreThan4GiB() {
        // Second part: 2^32 + 7 zero bytes, so the length does not fit an int.
        long len2 = (1L << 32) + 7;
        byte[] zeros = new byte[1 << 20];
        CRC32C second = new CRC32C();
        CRC32C whole = new CRC32C();
        byte[] first = {42, 7, -1, 0, 19};
        whole.update(first);
        for (long left = len2; left > 0; ) {
            int n = (int) Math.min(left, zeros.length);
            second.update(zeros, 0, n);
            whole.update(zeros, 0, n);
            left -= n;
        }
        assertEquals(
                (int) whole.getValue(),
                Crc32cCombine.combine(crc(first, 0, 5), (int) second.getValue(), len2));
    }

    @Test
    void refusesNegativeLengths() {
        assertThrows(IllegalArgumentException.class, () -> Crc32cCombine.combine(1, 2, -1));
    }
}
