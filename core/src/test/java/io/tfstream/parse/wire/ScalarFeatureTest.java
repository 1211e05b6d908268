package io.tfstream.parse.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.parse.ParseLimits;
import io.tfstream.spec.DType;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The one-value shortcut agrees with the general list decoder: whenever it takes a feature, the
 * decoder reads exactly one value from it and that value is the same; on anything else it appends
 * nothing.
 */
class ScalarFeatureTest {
    private static final ParseLimits LIMITS = ParseLimits.defaults();

    @Test
    void agreesWithTheListDecoderOnNearCanonicalFeatures() {
        SplittableRandom rnd = new SplittableRandom(11);
        int[] taken = new int[3];
        for (int t = 0; t < 300_000; t++) {
            int d = rnd.nextInt(3);
            DType dtype = d == 0 ? DType.INT64 : d == 1 ? DType.FLOAT32 : DType.STRING;
            byte[] feature = nearCanonical(rnd, dtype);
            KeyColumn fast = column(dtype);
            KeyColumn general = column(dtype);
            boolean ok = ScalarFeature.tryAppend(fast, feature, 0, feature.length, LIMITS);
            if (!ok) {
                assertEquals(0, fast.size(), "nothing appended when the shortcut declines");
                continue;
            }
            taken[d]++;
            WireCursor c = new WireCursor();
            c.reset(feature, 1, feature.length);
            int n = FeatureListDecoder.decodeInto(c, general, FeatureListDecoder.NO_CAP, LIMITS);
            assertEquals(1, n, () -> "decoder count for " + hex(feature));
            assertEquals(1, fast.size());
            switch (dtype) {
                case INT64:
                    assertEquals(general.int64s.get(0), fast.int64s.get(0), () -> hex(feature));
                    break;
                case FLOAT32:
                    assertEquals(
                            Float.floatToRawIntBits(general.floats.get(0)),
                            Float.floatToRawIntBits(fast.floats.get(0)));
                    break;
                default:
                    assertArrayEquals(general.bytes.get(0), fast.bytes.get(0));
            }
        }
        for (int k : taken) {
            assertTrue(k > 10_000, "each dtype's shortcut was exercised: " + k);
        }
    }

    /**
     * Kind byte, list length, tag 0x0a, payload length, payload, with random damage: lengths off by
     * one, other tags, varints of 1 to 11 bytes (overlong, ten-byte with high bits in the last
     * byte, unterminated), payloads of 0 to 130 bytes.
     */
    private static byte[] nearCanonical(SplittableRandom rnd, DType dtype) {
        byte[] payload;
        if (dtype == DType.INT64) {
            int n = 1 + rnd.nextInt(11);
            payload = new byte[n];
            for (int i = 0; i < n; i++) {
                payload[i] = (byte) (i < n - 1 ? 0x80 | rnd.nextInt(128) : rnd.nextInt(128));
            }
            if (rnd.nextInt(8) == 0) {
                payload[rnd.nextInt(n)] ^= (byte) 0x80;
            }
        } else if (dtype == DType.FLOAT32) {
            payload = new byte[rnd.nextInt(8) == 0 ? rnd.nextInt(9) : 4];
            rnd.nextBytes(payload);
        } else {
            payload = new byte[rnd.nextInt(8) == 0 ? 128 + rnd.nextInt(3) : rnd.nextInt(40)];
            rnd.nextBytes(payload);
        }
        int kind = dtype == DType.INT64 ? 0x1a : dtype == DType.FLOAT32 ? 0x12 : 0x0a;
        byte[] f = new byte[payload.length + 4];
        f[0] = (byte) kind;
        f[1] = (byte) (payload.length + 2);
        f[2] = 0x0a;
        f[3] = (byte) payload.length;
        System.arraycopy(payload, 0, f, 4, payload.length);
        if (rnd.nextInt(6) == 0) {
            int i = 1 + rnd.nextInt(3);
            f[i] = (byte) (f[i] + rnd.nextInt(3) - 1);
        }
        if (rnd.nextInt(20) == 0) {
            f[2] = (byte) (dtype == DType.STRING ? 0x12 : 0x08);
        }
        return f;
    }

    private static KeyColumn column(DType dtype) {
        KeyColumn c =
                new KeyColumn(new RawKey("k", RawKey.Kind.SPARSE, dtype, List.of(), 1, null, null));
        c.start(1, false);
        return c;
    }

    private static String hex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) {
            s.append(String.format("%02x", x & 0xff));
        }
        return s.toString();
    }
}
