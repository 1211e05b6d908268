package io.tfstream.stats;

/**
 * FarmHash's {@code Fingerprint64} (the {@code farmhashna} 64-bit hash), which TFDV's KMV sketch
 * hashes values with: with the same hash, tfstream's distinct-value estimates are TFDV's. Reads
 * little-endian 64- and 32-bit words as the reference does.
 */
final class FarmHash {
    private static final long K0 = 0xc3a5c85c97cb3127L;
    private static final long K1 = 0xb492b66fbe98f273L;
    private static final long K2 = 0x9ae16a3b2f90404fL;

    private FarmHash() {}

    /** The fingerprint of {@code b[off, off+len)}. */
    static long fingerprint64(byte[] b, int off, int len) {
        if (len <= 32) {
            return len <= 16 ? len0to16(b, off, len) : len17to32(b, off, len);
        }
        return len <= 64 ? len33to64(b, off, len) : len65plus(b, off, len);
    }

    private static long load64(byte[] b, int i) {
        return (b[i] & 0xFFL)
                | (b[i + 1] & 0xFFL) << 8
                | (b[i + 2] & 0xFFL) << 16
                | (b[i + 3] & 0xFFL) << 24
                | (b[i + 4] & 0xFFL) << 32
                | (b[i + 5] & 0xFFL) << 40
                | (b[i + 6] & 0xFFL) << 48
                | (b[i + 7] & 0xFFL) << 56;
    }

    private static long load32(byte[] b, int i) {
        return (b[i] & 0xFFL)
                | (b[i + 1] & 0xFFL) << 8
                | (b[i + 2] & 0xFFL) << 16
                | (b[i + 3] & 0xFFL) << 24;
    }

    private static long shiftMix(long v) {
        return v ^ (v >>> 47);
    }

    private static long len16(long u, long v, long mul) {
        long a = (u ^ v) * mul;
        a ^= a >>> 47;
        long b = (v ^ a) * mul;
        b ^= b >>> 47;
        return b * mul;
    }

    private static long len0to16(byte[] b, int off, int len) {
        if (len >= 8) {
            long mul = K2 + len * 2L;
            long a = load64(b, off) + K2;
            long c = load64(b, off + len - 8);
            long x = Long.rotateRight(c, 37) * mul + a;
            long y = (Long.rotateRight(a, 25) + c) * mul;
            return len16(x, y, mul);
        }
        if (len >= 4) {
            long mul = K2 + len * 2L;
            long a = load32(b, off);
            return len16(len + (a << 3), load32(b, off + len - 4), mul);
        }
        if (len > 0) {
            int a = b[off] & 0xFF;
            int c = b[off + (len >> 1)] & 0xFF;
            int d = b[off + len - 1] & 0xFF;
            int y = a + (c << 8);
            int z = len + (d << 2);
            return shiftMix(y * K2 ^ z * K0) * K2;
        }
        return K2;
    }

    private static long len17to32(byte[] b, int off, int len) {
        long mul = K2 + len * 2L;
        long a = load64(b, off) * K1;
        long c = load64(b, off + 8);
        long d = load64(b, off + len - 8) * mul;
        long e = load64(b, off + len - 16) * K2;
        return len16(
                Long.rotateRight(a + c, 43) + Long.rotateRight(d, 30) + e,
                a + Long.rotateRight(c + K2, 18) + d,
                mul);
    }

    private static long len33to64(byte[] b, int off, int len) {
        long mul = K2 + len * 2L;
        long a = load64(b, off) * K2;
        long c = load64(b, off + 8);
        long d = load64(b, off + len - 8) * mul;
        long e = load64(b, off + len - 16) * K2;
        long y = Long.rotateRight(a + c, 43) + Long.rotateRight(d, 30) + e;
        long z = len16(y, a + Long.rotateRight(c + K2, 18) + d, mul);
        long f = load64(b, off + 16) * mul;
        long g = load64(b, off + 24);
        long h = (y + load64(b, off + len - 32)) * mul;
        long i = (z + load64(b, off + len - 24)) * mul;
        return len16(
                Long.rotateRight(f + g, 43) + Long.rotateRight(h, 30) + i,
                f + Long.rotateRight(g + a, 18) + h,
                mul);
    }

    private static long len65plus(byte[] b, int off, int len) {
        final long seed = 81;
        long x = seed;
        long y = seed * K1 + 113;
        long z = shiftMix(y * K2 + 113) * K2;
        long[] v = new long[2];
        long[] w = new long[2];
        x = x * K2 + load64(b, off);
        int end = off + ((len - 1) / 64) * 64;
        int last64 = end + ((len - 1) & 63) - 63;
        int p = off;
        do {
            x = Long.rotateRight(x + y + v[0] + load64(b, p + 8), 37) * K1;
            y = Long.rotateRight(y + v[1] + load64(b, p + 48), 42) * K1;
            x ^= w[1];
            y += v[0] + load64(b, p + 40);
            z = Long.rotateRight(z + w[0], 33) * K1;
            weak32(b, p, v[1] * K1, x + w[0], v);
            weak32(b, p + 32, z + w[1], y + load64(b, p + 16), w);
            long t = z;
            z = x;
            x = t;
            p += 64;
        } while (p != end);
        long mul = K1 + ((z & 0xFF) << 1);
        p = last64;
        w[0] += (len - 1) & 63;
        v[0] += w[0];
        w[0] += v[0];
        x = Long.rotateRight(x + y + v[0] + load64(b, p + 8), 37) * mul;
        y = Long.rotateRight(y + v[1] + load64(b, p + 48), 42) * mul;
        x ^= w[1] * 9;
        y += v[0] * 9 + load64(b, p + 40);
        z = Long.rotateRight(z + w[0], 33) * mul;
        weak32(b, p, v[1] * mul, x + w[0], v);
        weak32(b, p + 32, z + w[1], y + load64(b, p + 16), w);
        long t = z;
        z = x;
        x = t;
        return len16(
                len16(v[0], w[0], mul) + shiftMix(y) * K0 + z, len16(v[1], w[1], mul) + x, mul);
    }

    private static void weak32(byte[] b, int p, long a, long c, long[] out) {
        long w = load64(b, p);
        long x = load64(b, p + 8);
        long y = load64(b, p + 16);
        long z = load64(b, p + 24);
        a += w;
        c = Long.rotateRight(c + a + z, 21);
        long d = a;
        a += x;
        a += y;
        c += Long.rotateRight(a, 44);
        out[0] = a + z;
        out[1] = c + d;
    }
}
