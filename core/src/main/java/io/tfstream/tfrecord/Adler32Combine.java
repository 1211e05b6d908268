package io.tfstream.tfrecord;

/**
 * Combines two Adler-32 values as zlib's {@code adler32_combine} does: the Adler-32 of A‖B from
 * that of A, that of B and B's length. {@link java.util.zip.Adler32} cannot be seeded, so a zlib
 * stream continued after a restore keeps {@code (adler, length)} and extends it with this.
 */
public final class Adler32Combine {
    private static final long BASE = 65521;

    private Adler32Combine() {}

    /**
     * The Adler-32 of A‖B from {@code a1} = Adler-32(A), {@code a2} = Adler-32(B) and {@code len2}
     * = |B| (as {@code java.util.zip.Adler32#getValue()} gives them, cast to int).
     */
    public static int combine(int a1, int a2, long len2) {
        if (len2 < 0) {
            throw new IllegalArgumentException("len2 must be >= 0, got " + len2);
        }
        long rem = len2 % BASE;
        long sum1 = a1 & 0xffffL;
        long sum2 = (rem * sum1) % BASE;
        sum1 += (a2 & 0xffffL) + BASE - 1;
        sum2 += ((a1 >>> 16) & 0xffffL) + ((a2 >>> 16) & 0xffffL) + BASE - rem;
        if (sum1 >= BASE) {
            sum1 -= BASE;
        }
        if (sum1 >= BASE) {
            sum1 -= BASE;
        }
        if (sum2 >= BASE << 1) {
            sum2 -= BASE << 1;
        }
        if (sum2 >= BASE) {
            sum2 -= BASE;
        }
        return (int) (sum1 | (sum2 << 16));
    }
}
