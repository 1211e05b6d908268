package io.tfstream.parse.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The word-at-a-time varint decoder agrees with the byte-by-byte definition on any bytes. */
class WireCursorVarintTest {

    @Test
    void matchesBytewiseDecodingOnRandomBytes() {
        SplittableRandom rnd = new SplittableRandom(7);
        WireCursor c = new WireCursor();
        for (int t = 0; t < 200_000; t++) {
            byte[] b = new byte[1 + rnd.nextInt(16)];
            int len = rnd.nextInt(12);
            for (int i = 0; i < b.length; i++) {
                // mostly continuation bytes so that every length up to and past ten occurs
                b[i] = (byte) (i < len ? 0x80 | rnd.nextInt(128) : rnd.nextInt(256));
            }
            int limit = rnd.nextInt(b.length + 1);
            c.reset(b, 0, limit);
            boolean ok = c.readVarint64();
            long[] expected = reference(b, limit);
            assertEquals(expected != null, ok);
            if (ok) {
                assertEquals(expected[0], c.value);
                assertEquals(expected[1], c.pos);
            } else {
                assertEquals(0, c.pos);
            }
        }
    }

    @Test
    void countsVarintEnds() {
        SplittableRandom rnd = new SplittableRandom(9);
        WireCursor c = new WireCursor();
        for (int t = 0; t < 10_000; t++) {
            byte[] b = new byte[rnd.nextInt(40)];
            rnd.nextBytes(b);
            int from = b.length == 0 ? 0 : rnd.nextInt(b.length);
            c.reset(b, 0, b.length);
            int n = 0;
            for (int i = from; i < b.length; i++) {
                n += b[i] >= 0 ? 1 : 0;
            }
            assertEquals(n, c.countVarintEnds(from, b.length));
        }
    }

    /** {value, end} of protobuf's ReadVarint64 over {@code b[0, limit)}, or null on failure. */
    private static long[] reference(byte[] b, int limit) {
        long result = 0;
        for (int i = 0; i < 10; i++) {
            if (i >= limit) {
                return null;
            }
            result |= (long) (b[i] & 0x7f) << (7 * i); // the tenth byte keeps its lowest bit
            if (b[i] >= 0) {
                return new long[] {result, i + 1};
            }
        }
        return null;
    }
}
