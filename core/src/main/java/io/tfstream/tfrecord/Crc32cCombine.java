package io.tfstream.tfrecord;

/**
 * Combines two CRC32C (Castagnoli) values as zlib's {@code crc32_combine} does for CRC-32: given
 * the CRC of A and of B and B's length, the CRC of A‖B, in O(log len) without the bytes. The JDK's
 * {@link java.util.zip.CRC32C} cannot be seeded, so a checksum that spans restores is kept as
 * {@code (crc, length)} and extended with this.
 */
public final class Crc32cCombine {
    /** The Castagnoli polynomial 0x1EDC6F41, bit-reflected. */
    private static final int POLY = 0x82F63B78;

    /**
     * {@code X2N[k]} = x^(2^k) modulo the polynomial, as zlib's {@code x2n_table}, for every k a
     * length up to 2^63 bytes needs. Unlike zlib's (CRC-32) it cannot wrap at 32 entries: x^(2^32)
     * is not x modulo the Castagnoli polynomial.
     */
    private static final int[] X2N = new int[3 + 64];

    static {
        int p = 1 << 30; // x^1 in reflected order
        X2N[0] = p;
        for (int k = 1; k < X2N.length; k++) {
            p = multModP(p, p);
            X2N[k] = p;
        }
    }

    private Crc32cCombine() {}

    /**
     * The CRC32C of A‖B from {@code crc1} = CRC32C(A), {@code crc2} = CRC32C(B) and {@code len2} =
     * |B| (as {@code java.util.zip.CRC32C#getValue()} gives them, cast to int).
     */
    public static int combine(int crc1, int crc2, long len2) {
        if (len2 < 0) {
            throw new IllegalArgumentException("len2 must be >= 0, got " + len2);
        }
        return multModP(x8nModP(len2), crc1) ^ crc2;
    }

    /** a(x) * b(x) modulo the polynomial, both reflected (zlib's {@code multmodp}). */
    private static int multModP(int a, int b) {
        int m = 1 << 31;
        int p = 0;
        while (true) {
            if ((a & m) != 0) {
                p ^= b;
                if ((a & (m - 1)) == 0) {
                    return p;
                }
            }
            m >>>= 1;
            b = (b & 1) != 0 ? (b >>> 1) ^ POLY : b >>> 1;
        }
    }

    /** x^(8n) modulo the polynomial: the shift that appending n zero bytes applies. */
    private static int x8nModP(long n) {
        int p = 1 << 31; // x^0
        int k = 3;
        while (n != 0) {
            if ((n & 1) != 0) {
                p = multModP(X2N[k], p);
            }
            n >>>= 1;
            k++;
        }
        return p;
    }
}
