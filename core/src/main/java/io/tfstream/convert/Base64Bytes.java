package io.tfstream.convert;

import java.util.Arrays;

/**
 * Standard base64 (RFC 4648 §4, the alphabet of {@link java.util.Base64#getDecoder()}) decoded from
 * a byte range straight into a caller's array: no {@code ByteBuffer} and no array per value, which
 * {@code Base64.Decoder} needs. As that decoder, the final padding is optional; characters outside
 * the alphabet, a lone last character and padding elsewhere than at the end are refused.
 */
final class Base64Bytes {
    private static final byte[] VALUES = new byte[256];

    static {
        Arrays.fill(VALUES, (byte) -1);
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (int i = 0; i < alphabet.length(); i++) {
            VALUES[alphabet.charAt(i)] = (byte) i;
        }
    }

    private Base64Bytes() {}

    /** The most bytes {@code len} base64 characters decode to. */
    static int maxDecoded(int len) {
        return len / 4 * 3 + 2;
    }

    /**
     * Decodes {@code src[off, off + len)} into {@code dst} from {@code dstOff}, which has room for
     * {@link #maxDecoded}; returns the decoded length.
     *
     * @throws IllegalArgumentException naming what is wrong and where
     */
    static int decode(byte[] src, int off, int len, byte[] dst, int dstOff) {
        int end = off + len;
        int padding = 0;
        if (len > 0 && src[end - 1] == '=') {
            padding = len > 1 && src[end - 2] == '=' ? 2 : 1;
            if (len % 4 != 0) {
                throw new IllegalArgumentException("padding '=' at character " + (len - padding));
            }
            end -= padding;
        }
        int d = dstOff;
        int p = off;
        for (int full = end - (end - off) % 4; p < full; p += 4) {
            int v = value(src, p, off) << 18 | value(src, p + 1, off) << 12;
            v |= value(src, p + 2, off) << 6 | value(src, p + 3, off);
            dst[d] = (byte) (v >> 16);
            dst[d + 1] = (byte) (v >> 8);
            dst[d + 2] = (byte) v;
            d += 3;
        }
        switch (end - p) {
            case 0 -> {}
            case 1 ->
                    throw new IllegalArgumentException(
                            "a last unit of one character at character " + (p - off));
            case 2 ->
                    dst[d++] =
                            (byte)
                                    ((value(src, p, off) << 18 | value(src, p + 1, off) << 12)
                                            >> 16);
            default -> {
                int v = value(src, p, off) << 18 | value(src, p + 1, off) << 12;
                v |= value(src, p + 2, off) << 6;
                dst[d++] = (byte) (v >> 16);
                dst[d++] = (byte) (v >> 8);
            }
        }
        return d - dstOff;
    }

    private static int value(byte[] src, int p, int off) {
        int v = VALUES[src[p] & 0xFF];
        if (v < 0) {
            throw new IllegalArgumentException(
                    "illegal base64 character "
                            + (src[p] == '=' ? "'='" : "0x" + Integer.toHexString(src[p] & 0xFF))
                            + " at character "
                            + (p - off));
        }
        return v;
    }
}
