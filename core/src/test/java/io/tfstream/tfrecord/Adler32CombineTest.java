package io.tfstream.tfrecord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import java.util.zip.Adler32;
import org.junit.jupiter.api.Test;

class Adler32CombineTest {
    private static int adler(byte[] b, int off, int len) {
        Adler32 c = new Adler32();
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
                    Adler32Combine.combine(
                            adler(data, 0, split), adler(data, split, n - split), n - split);
            assertEquals(adler(data, 0, n), combined, "length " + n + " split at " + split);
        }
    }

    @Test
    void emptySecondPartLeavesTheFirstAdler() {
        byte[] data = {1, 2, 3};
        assertEquals(adler(data, 0, 3), Adler32Combine.combine(adler(data, 0, 3), 1, 0));
        assertEquals(1, Adler32Combine.combine(1, 1, 0));
    }

    @Test
    void emptyFirstPartGivesTheSecondAdler() {
        byte[] data = new byte[1000];
        new Random(1).nextBytes(data);
        assertEquals(adler(data, 0, 1000), Adler32Combine.combine(1, adler(data, 0, 1000), 1000));
    }

    @Test
    void combinesAtLengthsAroundTheModulus() {
        for (int n : new int[] {65520, 65521, 65522, 2 * 65521, 5552, 5553}) {
            byte[] data = new byte[n + 100];
            java.util.Arrays.fill(data, (byte) 0xff); // largest sums, to exercise the reductions
            for (int split : new int[] {0, 1, 50, 100}) {
                assertEquals(
                        adler(data, 0, data.length),
                        Adler32Combine.combine(
                                adler(data, 0, split),
                                adler(data, split, data.length - split),
                                data.length - split),
                        "length " + data.length + " split at " + split);
            }
        }
    }

    @Test
    void combinesAcrossMoreThan4GiB() {
        // Second part: 2^32 + 7 zero bytes, so the length does not fit an int.
        long len2 = (1L << 32) + 7;
        byte[] zeros = new byte[1 << 20];
        Adler32 second = new Adler32();
        Adler32 whole = new Adler32();
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
                Adler32Combine.combine(adler(first, 0, 5), (int) second.getValue(), len2));
    }

    @Test
    void refusesNegativeLengths() {
        assertThrows(IllegalArgumentException.class, () -> Adler32Combine.combine(1, 2, -1));
    }
}
