package io.tfstream.spec.schema;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Python's {@code str()} of the values upstream error messages interpolate (and of the numbers
 * TFDV's statistics measure as text).
 */
@org.apache.flink.annotation.Internal
public final class PyRepr {
    private PyRepr() {}

    /** {@code repr(float)}: shortest round-trip digits, {@code 1e-05}, {@code 0.5}, {@code nan}. */
    public static String ofDouble(double d) {
        if (Double.isNaN(d)) {
            return "nan";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        if (d == 0) {
            return (Double.doubleToRawLongBits(d) < 0) ? "-0.0" : "0.0";
        }
        BigDecimal bd = shortest(Math.abs(d));
        String digits = bd.unscaledValue().toString();
        int exponent = digits.length() - 1 - bd.scale();
        if (exponent < -4 || exponent >= 16) {
            return ofScientific(d < 0, digits, exponent);
        }
        String plain = bd.toPlainString();
        return (d < 0 ? "-" : "") + plain + (bd.scale() <= 0 ? ".0" : "");
    }

    /** The fewest significant digits that parse back to {@code d}, correctly rounded. */
    private static BigDecimal shortest(double d) {
        BigDecimal exact = new BigDecimal(d);
        for (int digits = 1; digits < 17; digits++) {
            BigDecimal r = exact.round(new MathContext(digits, RoundingMode.HALF_EVEN));
            if (r.doubleValue() == d) {
                return r.stripTrailingZeros();
            }
        }
        return exact.round(new MathContext(17, RoundingMode.HALF_EVEN)).stripTrailingZeros();
    }

    private static String ofScientific(boolean negative, String digits, int exponent) {
        StringBuilder sb = new StringBuilder(negative ? "-" : "");
        sb.append(digits.charAt(0));
        if (digits.length() > 1) {
            sb.append('.').append(digits, 1, digits.length());
        }
        sb.append('e').append(exponent < 0 ? '-' : '+');
        int abs = Math.abs(exponent);
        if (abs < 10) {
            sb.append('0');
        }
        return sb.append(abs).toString();
    }

    /** {@code repr(bytes)}: {@code b'abc'}, {@code b'\xd0'}, {@code b"it's"}. */
    static String ofBytes(byte[] bytes) {
        boolean hasSingle = false;
        boolean hasDouble = false;
        for (byte b : bytes) {
            hasSingle |= b == '\'';
            hasDouble |= b == '"';
        }
        char quote = hasSingle && !hasDouble ? '"' : '\'';
        StringBuilder sb = new StringBuilder("b").append(quote);
        for (byte b : bytes) {
            int c = b & 0xff;
            if (c == quote || c == '\\') {
                sb.append('\\').append((char) c);
            } else if (c == '\t') {
                sb.append("\\t");
            } else if (c == '\n') {
                sb.append("\\n");
            } else if (c == '\r') {
                sb.append("\\r");
            } else if (c < 0x20 || c >= 0x7f) {
                sb.append(String.format("\\x%02x", c));
            } else {
                sb.append((char) c);
            }
        }
        return sb.append(quote).toString();
    }
}
