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

    @Test
    void numbersReadEightDigitsAtATimeAsOneByOne() throws Exception {
        // A number followed by more bytes takes the eight-digits path; alone in its buffer, the
        // digit loop: both must give the same int64, float and text, and stop at the same byte.
        SplittableRandom rnd = new SplittableRandom(55);
        String[] after = {",", "]", "}", " ", "\u00e9", "x", "-1", "\"", "\n"};
        long[] out = new long[1];
        long[] outAlone = new long[1];
        for (int k = 0; k < 200_000; k++) {
            StringBuilder b = new StringBuilder();
            if (rnd.nextBoolean()) {
                b.append('-');
            }
            int intDigits = rnd.nextInt(4) == 0 ? 1 : rnd.nextInt(1, 22);
            b.append(intDigits == 1 && rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(1, 10));
            for (int d = 1; d < intDigits; d++) {
                b.append(rnd.nextInt(10));
            }
            if (rnd.nextInt(3) == 0) {
                b.append('.');
                int zeros = rnd.nextInt(4) == 0 ? rnd.nextInt(12) : 0;
                b.append("0".repeat(zeros));
                for (int d = rnd.nextInt(1, 20); d > 0; d--) {
                    b.append(rnd.nextInt(10));
                }
            }
            String num = b.toString();
            if (num.matches("-?0[0-9].*")) {
                continue; // not a JSON number
            }
            String text = num + after[rnd.nextInt(after.length)] + "0123456789";
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            for (int want : new int[] {JsonScanner.INT_VALUE, JsonScanner.FLOAT_VALUE}) {
                JsonScanner sc = new JsonScanner();
                sc.wrap(bytes, 0, bytes.length);
                sc.readNumber(want);
                assertEquals(num, sc.numberText(), text);
                JsonScanner alone = number(num);
                if (want == JsonScanner.INT_VALUE) {
                    boolean fits = sc.longValue(out);
                    assertEquals(alone.longValue(outAlone), fits, num);
                    assertEquals(sc.integral(), alone.integral(), num);
                    if (fits && sc.integral()) {
                        assertEquals(Long.parseLong(num), out[0], num);
                    }
                } else {
                    assertEquals(
                            Float.floatToIntBits(Float.parseFloat(num)),
                            Float.floatToIntBits(sc.floatValue()),
                            num);
                }
            }
        }
        // The limit ends the number even when digits follow it in the array.
        byte[] digits = "12345678901234567890".getBytes(StandardCharsets.US_ASCII);
        JsonScanner sc = new JsonScanner();
        sc.wrap(digits, 0, 9);
        sc.readNumber(JsonScanner.INT_VALUE);
        assertTrue(sc.longValue(out));
        assertEquals(123456789L, out[0]);
    }

    @Test
    void digitRunsAndEightDigitValues() {
        SplittableRandom rnd = new SplittableRandom(3);
        for (int k = 0; k < 100_000; k++) {
            byte[] b = new byte[8];
            int run = rnd.nextInt(9);
            for (int i = 0; i < 8; i++) {
                b[i] = i < run ? (byte) rnd.nextInt('0', '9' + 1) : (byte) rnd.nextInt(256);
            }
            if (run < 8 && b[run] >= '0' && b[run] <= '9') {
                b[run] = '/';
            }
            long x = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong();
            assertEquals(run, JsonScanner.digitRun(x));
            if (run > 0) {
                String d = new String(b, 0, run, StandardCharsets.US_ASCII);
                assertEquals(Long.parseLong(d), JsonScanner.eightDigits(x, run), d);
            }
        }
    }

    @Test
    void stringsReadEightBytesAtATimeAsJacksonReadsThem() throws Exception {
        // Quotes, backslash escapes, control bytes and UTF-8 (valid or not) at every position of
        // the word the scanner looks at; valid strings must give Jackson's text, invalid ones fail.
        SplittableRandom rnd = new SplittableRandom(77);
        String[] pieces = {
            "a",
            "Z",
            "0",
            " ",
            "\\n",
            "\\\"",
            "\\u00e9",
            "\u00e9",
            "\u20ac",
            "\ud83d\ude00",
            "\t",
            "\u0001",
            "/",
            "\\\\"
        };
        com.fasterxml.jackson.core.JsonFactory jackson =
                new com.fasterxml.jackson.core.JsonFactory();
        for (int k = 0; k < 50_000; k++) {
            StringBuilder b = new StringBuilder("\"");
            for (int n = rnd.nextInt(30); n > 0; n--) {
                b.append(rnd.nextInt(3) == 0 ? pieces[rnd.nextInt(pieces.length)] : "x");
            }
            b.append("\"");
            byte[] bytes = (b + ",\"next\": 1}").getBytes(StandardCharsets.UTF_8);
            int end = b.toString().getBytes(StandardCharsets.UTF_8).length - 1; // closing quote
            if (end > 1 && rnd.nextInt(10) == 0) {
                bytes[1 + rnd.nextInt(end - 1)] = (byte) rnd.nextInt(0x80, 0x100);
            }
            String expected;
            if (!validUtf8(bytes, 1, end)) {
                expected = null; // Jackson lets some of these through; the scanner must not
            } else {
                try (com.fasterxml.jackson.core.JsonParser jp = jackson.createParser(bytes)) {
                    jp.nextToken();
                    expected = jp.getText();
                } catch (java.io.IOException e) {
                    expected = null;
                }
            }
            JsonScanner sc = new JsonScanner();
            sc.wrap(bytes, 0, bytes.length);
            String got;
            try {
                sc.readString();
                got = sc.string();
            } catch (ConversionException e) {
                got = null;
            }
            assertEquals(expected, got, new String(bytes, StandardCharsets.ISO_8859_1));
        }
    }

    private static boolean validUtf8(byte[] b, int from, int to) {
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(b, from, to - from));
            return true;
        } catch (java.nio.charset.CharacterCodingException e) {
            return false;
        }
    }
}
