package io.tfstream.convert;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link Base64Bytes} against {@code java.util.Base64}'s basic decoder. */
class Base64BytesTest {
    private static byte[] decode(String text) {
        byte[] src = ("xx" + text).getBytes(StandardCharsets.ISO_8859_1);
        byte[] dst = new byte[3 + Base64Bytes.maxDecoded(text.length())];
        int n = Base64Bytes.decode(src, 2, text.length(), dst, 3);
        return Arrays.copyOfRange(dst, 3, 3 + n);
    }

    @Test
    void decodesWhatTheJdkEncodesWithAndWithoutPadding() {
        SplittableRandom rnd = new SplittableRandom(34);
        for (int len = 0; len < 200; len++) {
            byte[] b = new byte[len];
            for (int i = 0; i < len; i++) {
                b[i] = (byte) rnd.nextInt();
            }
            assertArrayEquals(b, decode(Base64.getEncoder().encodeToString(b)), "len " + len);
            assertArrayEquals(
                    b,
                    decode(Base64.getEncoder().withoutPadding().encodeToString(b)),
                    "len " + len);
        }
    }

    @Test
    void refusesWhatTheJdkRefuses() {
        for (String bad :
                new String[] {"A", "AAAAA", "A===", "AA=A", "!!", "AA-_", "AA==AA==", "AB C"}) {
            assertThrows(
                    IllegalArgumentException.class, () -> Base64.getDecoder().decode(bad), bad);
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> decode(bad), bad);
            assertTrue(e.getMessage().contains("at character"), e.getMessage());
        }
    }
}
