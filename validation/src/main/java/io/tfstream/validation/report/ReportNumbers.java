package io.tfstream.validation.report;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * How the report writes a figure: whole numbers as they are, others to four significant digits
 * (scientific notation outside [0.001, 10^7)), shares as percentages with one decimal. Each
 * figure's cell also carries the exact value ({@code data-value}, Java's shortest round-trip text),
 * so that nothing is lost to the rounding shown.
 */
public final class ReportNumbers {
    private static final MathContext FOUR = new MathContext(4);

    private ReportNumbers() {}

    /** {@code v} as the report shows it. */
    public static String format(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        double a = Math.abs(v);
        if (a >= 1e-3 && a < 1e7) {
            return new BigDecimal(v).round(FOUR).stripTrailingZeros().toPlainString();
        }
        return String.format(java.util.Locale.ROOT, "%.3e", v);
    }

    /** Share {@code f} (0 to 1) as a percentage: "0%", "<0.1%", "12.3%", "100%". */
    public static String percent(double f) {
        if (Double.isNaN(f)) {
            return "NaN";
        }
        if (f == 0) {
            return "0%";
        }
        if (f < 0.001) {
            return "<0.1%";
        }
        if (f == 1) {
            return "100%";
        }
        return String.format(java.util.Locale.ROOT, "%.1f%%", f * 100);
    }

    /** The exact value carried in {@code data-value}. */
    public static String exact(double v) {
        return Double.toString(v);
    }
}
