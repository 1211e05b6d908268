package io.tfstream.validation;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Number and string formatting exactly as TFDV's C++ validator writes its descriptions: {@code
 * absl::SixDigits} / {@code absl::StrCat(double)} (C {@code %g}, six significant digits), {@code
 * absl::StrFormat("%f")}, and {@code absl::Utf8SafeCEscape} for values quoted in descriptions.
 */
public final class TfdvFormat {
    private TfdvFormat() {}

    /**
     * C {@code %g} with six significant digits: {@code 3}, {@code 0.5}, {@code 1e+06}, {@code inf}.
     */
    public static String sixDigits(double v) {
        if (Double.isNaN(v)) {
            return "nan";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        if (v == 0) {
            return (Double.doubleToRawLongBits(v) < 0) ? "-0" : "0";
        }
        String e = String.format(Locale.ROOT, "%.5e", v);
        int at = e.indexOf('e');
        int exp = Integer.parseInt(e.substring(at + 1));
        if (exp < -4 || exp >= 6) {
            return stripZeros(e.substring(0, at)) + e.substring(at);
        }
        return stripZeros(String.format(Locale.ROOT, "%." + (5 - exp) + "f", v));
    }

    /** C {@code %f}: six decimals; {@code nan}, {@code inf} as C prints them. */
    public static String fixed6(double v) {
        if (Double.isNaN(v)) {
            return "nan";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        return String.format(Locale.ROOT, "%.6f", v);
    }

    private static String stripZeros(String s) {
        if (s.indexOf('.') < 0) {
            return s;
        }
        int end = s.length();
        while (s.charAt(end - 1) == '0') {
            end--;
        }
        if (s.charAt(end - 1) == '.') {
            end--;
        }
        return s.substring(0, end);
    }

    /**
     * {@code absl::Utf8SafeCEscape}: {@code \n \r \t \" \' \\} escaped, other control bytes and DEL
     * as three octal digits, bytes of 0x80 and above kept (so UTF-8 text stays readable).
     */
    public static String cEscape(byte[] b, int off, int len) {
        byte[] out = new byte[len * 4];
        int n = 0;
        for (int i = off; i < off + len; i++) {
            int c = b[i] & 0xff;
            String esc =
                    switch (c) {
                        case '\n' -> "\\n";
                        case '\r' -> "\\r";
                        case '\t' -> "\\t";
                        case '"' -> "\\\"";
                        case '\'' -> "\\'";
                        case '\\' -> "\\\\";
                        default -> null;
                    };
            if (esc != null) {
                for (int k = 0; k < esc.length(); k++) {
                    out[n++] = (byte) esc.charAt(k);
                }
            } else if (c < 0x20 || c == 0x7f) {
                out[n++] = '\\';
                out[n++] = (byte) ('0' + (c >> 6));
                out[n++] = (byte) ('0' + ((c >> 3) & 7));
                out[n++] = (byte) ('0' + (c & 7));
            } else {
                out[n++] = (byte) c;
            }
        }
        return new String(out, 0, n, StandardCharsets.UTF_8);
    }

    /** {@link #cEscape(byte[], int, int)} of a whole array. */
    public static String cEscape(byte[] b) {
        return cEscape(b, 0, b.length);
    }
}
