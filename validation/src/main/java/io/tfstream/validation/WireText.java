package io.tfstream.validation;

import java.nio.charset.StandardCharsets;

/**
 * Reading numbers and UTF-8 from raw bytes values as TFDV does: {@code absl::SimpleAtoi} (optional
 * surrounding ASCII whitespace, optional sign, decimal digits, int64 range), {@code
 * absl::SimpleAtof} and {@code string_stats.invalid_utf8_count}.
 */
final class WireText {
    private WireText() {}

    private static boolean space(byte b) {
        return b == ' ' || (b >= '\t' && b <= '\r');
    }

    /**
     * {@code SimpleAtoi} to int64 into {@code out[0]}; false when the value is not a decimal
     * integer in range. Allocates nothing.
     */
    static boolean parseLong(byte[] b, int from, int to, long[] out) {
        while (from < to && space(b[from])) {
            from++;
        }
        while (to > from && space(b[to - 1])) {
            to--;
        }
        if (from == to) {
            return false;
        }
        boolean neg = false;
        if (b[from] == '-' || b[from] == '+') {
            neg = b[from] == '-';
            from++;
        }
        if (from == to) {
            return false;
        }
        long v = 0;
        for (int i = from; i < to; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                return false;
            }
            // accumulate negatively to reach Long.MIN_VALUE
            if (v < (Long.MIN_VALUE + d) / 10) {
                return false;
            }
            v = v * 10 - d;
        }
        if (!neg) {
            if (v == Long.MIN_VALUE) {
                return false;
            }
            v = -v;
        }
        out[0] = v;
        return true;
    }

    /**
     * {@code SimpleAtof}: the double value, or null when the bytes are not a float. Allocates a
     * String (float_domain on bytes data only).
     */
    static Double parseDouble(byte[] b, int from, int to) {
        String s = new String(b, from, to - from, StandardCharsets.ISO_8859_1).strip();
        String l = s.toLowerCase(java.util.Locale.ROOT);
        String body = l.startsWith("-") || l.startsWith("+") ? l.substring(1) : l;
        if (body.equals("nan")) {
            return Double.NaN;
        }
        if (body.equals("inf") || body.equals("infinity")) {
            return l.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        if (body.isEmpty() || !body.matches("[0-9.eE+-]+|0x[0-9a-f.p+-]+")) {
            return null;
        }
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            return null; // not a float: reported as FLOAT_TYPE_STRING_NOT_FLOAT by the caller
        }
    }

    /** Whether {@code b[from, to)} is well-formed UTF-8. */
    static boolean validUtf8(byte[] b, int from, int to) {
        return io.tfstream.stats.Utf8.valid(b, from, to);
    }
}
