package io.tfstream.convert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The scanner's numbers against Java's own parsing: floats correctly rounded, int64 exact. */
class JsonScannerTest {
    private static JsonScanner number(String s) throws ConversionException {
        JsonScanner sc = new JsonScanner();
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        sc.wrap(b, 0, b.length);
        sc.readNumber();
        return sc;
    }

    @Test
    void floatsAreCorrectlyRoundedLikeFloatParseFloat() throws Exception {
        SplittableRandom rnd = new SplittableRandom(34);
        for (int k = 0; k < 300_000; k++) {
            String s;
            switch (rnd.nextInt(4)) {
                case 0 -> s = Float.toString(Float.intBitsToFloat(rnd.nextInt()));
                case 1 ->
                        s = Double.toString(rnd.nextDouble() * Math.pow(10, rnd.nextInt(-30, 30)));
                case 2 -> {
                    // a float midpoint written exactly: the double-rounding trap
                    float f = Math.abs(Float.intBitsToFloat(rnd.nextInt(0x00800000, 0x7F000000)));
                    double mid = ((double) f + Math.nextUp(f)) / 2;
                    s = new java.math.BigDecimal(mid).toPlainString();
                }
                default -> {
                    StringBuilder b = new StringBuilder();
                    if (rnd.nextBoolean()) {
                        b.append('-');
                    }
                    b.append(rnd.nextInt(1, 10));
                    for (int d = rnd.nextInt(20); d > 0; d--) {
                        b.append(rnd.nextInt(10));
                    }
                    if (rnd.nextBoolean()) {
                        b.append('.').append(rnd.nextInt(0, 1_000_000));
                    }
                    if (rnd.nextBoolean()) {
                        b.append('e').append(rnd.nextInt(-40, 40));
                    }
                    s = b.toString();
                }
            }
            if (s.contains("Infinity") || s.contains("NaN")) {
                continue;
            }
            s = s.replace("E", "e");
            float expected = Float.parseFloat(s);
            assertEquals(
                    Float.floatToIntBits(expected),
                    Float.floatToIntBits(number(s).floatValue()),
                    s);
        }
    }

    @Test
    void int64IsExactAndOverflowIsRefused() throws Exception {
        long[] out = new long[1];
        for (long v : new long[] {0, -1, 7, Long.MAX_VALUE, Long.MIN_VALUE, 1L << 53}) {
            JsonScanner sc = number(Long.toString(v));
            assertTrue(sc.integral());
            assertTrue(sc.longValue(out));
            assertEquals(v, out[0]);
        }
        assertFalse(number("9223372036854775808").longValue(out));
        assertFalse(number("-9223372036854775809").longValue(out));
        assertFalse(number("99999999999999999999999").longValue(out));
        assertFalse(number("1.0").integral());
        assertFalse(number("1e3").integral());
    }
}
