package io.tfstream.tfrecord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.Random;
import java.util.function.Supplier;
import java.util.zip.Adler32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link Crc32cCombine} and {@link Adler32Combine} against the JDK's checksum of the whole. */
class ChecksumCombineTest {
    /** A checksum the JDK computes and its combine function. */
    enum Kind {
        CRC32C(CRC32C::new, 0) {
            @Override
            int combine(int a, int b, long len2) {
                return Crc32cCombine.combine(a, b, len2);
            }
        },
        ADLER32(Adler32::new, 1) {
            @Override
            int combine(int a, int b, long len2) {
                return Adler32Combine.combine(a, b, len2);
            }
        };

        final Supplier<Checksum> jdk;
        final int ofNothing;

        Kind(Supplier<Checksum> jdk, int ofNothing) {
            this.jdk = jdk;
            this.ofNothing = ofNothing;
        }

        abstract int combine(int a, int b, long len2);

        int of(byte[] b, int off, int len) {
            Checksum c = jdk.get();
            c.update(b, off, len);
            return (int) c.getValue();
        }

        /** The checksum of {@code data} combined from a split at {@code split}. */
        int split(byte[] data, int split) {
            return combine(
                    of(data, 0, split), of(data, split, data.length - split), data.length - split);
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void combinesRandomSplitsAsTheJdkComputesTheWhole(Kind k) {
        Random random = new Random(28);
        for (int trial = 0; trial < 500; trial++) {
            int n = trial < 400 ? random.nextInt(300) : random.nextInt(3 << 20);
            byte[] data = new byte[n];
            random.nextBytes(data);
            int split = n == 0 ? 0 : random.nextInt(n + 1);
            assertEquals(k.of(data, 0, n), k.split(data, split), "length " + n + " at " + split);
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void anEmptyPartLeavesTheOther(Kind k) {
        byte[] data = new byte[1000];
        new Random(1).nextBytes(data);
        int whole = k.of(data, 0, 1000);
        assertEquals(whole, k.combine(whole, k.ofNothing, 0));
        assertEquals(whole, k.combine(k.ofNothing, whole, 1000));
        assertEquals(k.ofNothing, k.combine(k.ofNothing, k.ofNothing, 0));
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void combinesAtLengthsAroundAdlersModulus(Kind k) {
        for (int n : new int[] {65520, 65521, 65522, 2 * 65521, 5552, 5553}) {
            byte[] data = new byte[n + 100];
            Arrays.fill(data, (byte) 0xff); // largest sums, to exercise the reductions
            for (int split : new int[] {0, 1, 50, 100}) {
                assertEquals(k.of(data, 0, data.length), k.split(data, split), n + " at " + split);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void combinesAcrossMoreThan4GiB(Kind k) {
        // Second part: 2^32 + 7 zero bytes, so the length does not fit an int.
        long len2 = (1L << 32) + 7;
        byte[] zeros = new byte[1 << 20];
        Checksum second = k.jdk.get();
        Checksum whole = k.jdk.get();
        byte[] first = {42, 7, -1, 0, 19};
        whole.update(first, 0, first.length);
        for (long left = len2; left > 0; ) {
            int n = (int) Math.min(left, zeros.length);
            second.update(zeros, 0, n);
            whole.update(zeros, 0, n);
            left -= n;
        }
        assertEquals(
                (int) whole.getValue(),
                k.combine(k.of(first, 0, 5), (int) second.getValue(), len2));
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void refusesNegativeLengths(Kind k) {
        assertThrows(IllegalArgumentException.class, () -> k.combine(1, 2, -1));
    }
}
