package io.tfstream.stats;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Numbers as the text TFDV makes of categorical numeric values: Python's {@code repr} of a float
 * (whose length is the value's length in {@code avg_length}), C's {@code %a} (the key tfx-bsl's
 * sketches count and hash a float under) and {@code %.6g} (the label a counted float is reported
 * with, abseil's {@code StrCat} of a double).
 */
final class NumberText {
    private NumberText() {}

    /** Python's {@code repr(float(v))}: the shortest text that reads back as {@code v}. */
    static String pythonRepr(double v) {
        return io.tfstream.spec.schema.PyRepr.ofDouble(v);
    }

    /** {@code digits} (no sign) with its first digit at decimal {@code exponent}, positional. */
    private static String positional(String digits, int exponent) {
        StringBuilder s = new StringBuilder();
        if (exponent < 0) {
            s.append("0.");
            s.append("0".repeat(-exponent - 1));
            s.append(digits);
        } else if (digits.length() <= exponent + 1) {
            s.append(digits);
            s.append("0".repeat(exponent + 1 - digits.length()));
        } else {
            s.append(digits, 0, exponent + 1).append('.').append(digits.substring(exponent + 1));
        }
        return s.toString();
    }

    private static String exponentText(int exponent) {
        String e = Integer.toString(Math.abs(exponent));
        return (exponent < 0 ? "e-" : "e+") + (e.length() < 2 ? "0" + e : e);
    }

    /**
     * C's {@code %a}: {@code 0x1.8p+3}, {@code -0x1p+0}, {@code 0x0p+0}, {@code inf}, {@code nan}.
     */
    static String hex(double v) {
        if (Double.isNaN(v)) {
            return "nan";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        String java = Double.toHexString(v); // 0x1.8p3, 0x1.0p0, 0x0.0p0, 0x0.0000000000001p-1022
        int p = java.indexOf('p');
        String mantissa = java.substring(0, p);
        if (mantissa.endsWith(".0")) {
            mantissa = mantissa.substring(0, mantissa.length() - 2);
        }
        String exp = java.substring(p + 1);
        return mantissa + "p" + (exp.startsWith("-") ? exp : "+" + exp);
    }

    /** The double {@link #hex} wrote. */
    static double fromHex(String s) {
        return switch (s) {
            case "nan" -> Double.NaN;
            case "inf" -> Double.POSITIVE_INFINITY;
            case "-inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(s);
        };
    }

    /**
     * C's {@code %.6g}: six significant digits, trailing zeros dropped, scientific below 1e-4 and
     * from 1e6 on ({@code 12}, {@code 0.1}, {@code 1.23457e+06}, {@code 1e-05}, {@code -0}).
     */
    static String sixDigits(double v) {
        if (Double.isNaN(v)) {
            return "nan";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        if (v == 0) {
            return (1 / v < 0) ? "-0" : "0";
        }
        BigDecimal r = new BigDecimal(v).round(new MathContext(6, RoundingMode.HALF_EVEN));
        String digits = r.unscaledValue().abs().toString();
        int exponent = digits.length() - 1 - r.scale();
        int end = digits.length();
        while (end > 1 && digits.charAt(end - 1) == '0') {
            end--;
        }
        digits = digits.substring(0, end);
        String sign = v < 0 ? "-" : "";
        if (exponent >= -4 && exponent < 6) {
            return sign + positional(digits, exponent);
        }
        String mantissa =
                digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        return sign + mantissa + exponentText(exponent);
    }
}
