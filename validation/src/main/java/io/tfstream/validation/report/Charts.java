package io.tfstream.validation.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tensorflow.metadata.v0.Histogram;
import org.tensorflow.metadata.v0.RankHistogram;

/**
 * The report's charts as inline SVG: a numeric feature's {@code STANDARD} histogram (bar heights
 * are each dataset's share of its values) and its {@code QUANTILES} histogram (bar areas are equal
 * shares, so heights are densities), a categorical feature's most frequent values as horizontal
 * bars. With two datasets both are drawn over one another on the same axis, in two colours. Every
 * bar carries its bucket and count as a tooltip.
 */
final class Charts {
    static final int WIDTH = 220;
    static final int HEIGHT = 64;
    private static final int AXIS = 12;
    private static final int TOP_VALUES = 10;
    private static final int BAR = 9;

    private Charts() {}

    /** A numeric histogram of one or two datasets (a null side draws nothing). */
    static String numeric(String kind, Histogram lhs, Histogram rhs) {
        List<Histogram> sides = new ArrayList<>();
        sides.add(lhs);
        sides.add(rhs);
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (Histogram h : sides) {
            if (h == null) {
                continue;
            }
            for (Histogram.Bucket b : h.getBucketsList()) {
                if (Double.isFinite(b.getLowValue())) {
                    lo = Math.min(lo, b.getLowValue());
                }
                if (Double.isFinite(b.getHighValue())) {
                    hi = Math.max(hi, b.getHighValue());
                }
            }
        }
        StringBuilder svg = open(kind, HEIGHT + AXIS);
        if (lo > hi) {
            svg.append(empty());
            return svg.append("</svg>").toString();
        }
        boolean density = kind.equals("quantiles");
        double maxHeight = 0;
        for (Histogram h : sides) {
            if (h != null) {
                for (double v : heights(h, density, hi - lo)) {
                    maxHeight = Math.max(maxHeight, v);
                }
            }
        }
        for (int s = 0; s < sides.size(); s++) {
            Histogram h = sides.get(s);
            if (h == null) {
                continue;
            }
            double[] heights = heights(h, density, hi - lo);
            List<Histogram.Bucket> buckets = h.getBucketsList();
            for (int i = 0; i < buckets.size(); i++) {
                Histogram.Bucket b = buckets.get(i);
                double x0 = x(b.getLowValue(), lo, hi);
                double x1 = x(b.getHighValue(), lo, hi);
                double w = Math.max(1, x1 - x0);
                double hpx = maxHeight > 0 ? heights[i] / maxHeight * HEIGHT : 0;
                if (b.getSampleCount() > 0) {
                    hpx = Math.max(1, hpx);
                }
                svg.append("<rect class=\"bar s")
                        .append(s)
                        .append("\" x=\"")
                        .append(px(Math.min(x0, WIDTH - 1)))
                        .append("\" y=\"")
                        .append(px(HEIGHT - hpx))
                        .append("\" width=\"")
                        .append(px(w))
                        .append("\" height=\"")
                        .append(px(hpx))
                        .append("\"><title>[")
                        .append(ReportNumbers.format(b.getLowValue()))
                        .append(", ")
                        .append(ReportNumbers.format(b.getHighValue()))
                        .append("]: ")
                        .append(ReportNumbers.format(b.getSampleCount()))
                        .append("</title></rect>");
            }
        }
        svg.append("<text class=\"axis\" x=\"0\" y=\"")
                .append(HEIGHT + AXIS - 2)
                .append("\">")
                .append(Html.text(ReportNumbers.format(lo)))
                .append("</text><text class=\"axis\" x=\"")
                .append(WIDTH)
                .append("\" y=\"")
                .append(HEIGHT + AXIS - 2)
                .append("\" text-anchor=\"end\">")
                .append(Html.text(ReportNumbers.format(hi)))
                .append("</text></svg>");
        return svg.toString();
    }

    /** Each bucket's share of the values, per unit of width when {@code density}. */
    private static double[] heights(Histogram h, boolean density, double range) {
        double total = 0;
        for (Histogram.Bucket b : h.getBucketsList()) {
            total += b.getSampleCount();
        }
        double[] out = new double[h.getBucketsCount()];
        for (int i = 0; i < out.length; i++) {
            Histogram.Bucket b = h.getBuckets(i);
            double share = total > 0 ? b.getSampleCount() / total : 0;
            if (density) {
                double w = b.getHighValue() - b.getLowValue();
                // a point bucket (or an infinite one) counts as a hundredth of the axis
                double min = range > 0 ? range / 100 : 1;
                w = Double.isFinite(w) ? Math.max(w, min) : min;
                share /= w;
            }
            out[i] = share;
        }
        return out;
    }

    /**
     * The most frequent values of one or two datasets' rank histograms: the first dataset's top
     * values in its order, then those only the second has, each bar its dataset's share.
     */
    static String categorical(RankHistogram lhs, RankHistogram rhs) {
        Map<String, double[]> rows = new LinkedHashMap<>();
        double[] totals = new double[2];
        RankHistogram[] sides = {lhs, rhs};
        for (int s = 0; s < 2; s++) {
            if (sides[s] == null) {
                continue;
            }
            for (RankHistogram.Bucket b : sides[s].getBucketsList()) {
                totals[s] += b.getSampleCount();
            }
        }
        for (int s = 0; s < 2; s++) {
            if (sides[s] == null) {
                continue;
            }
            int taken = 0;
            for (RankHistogram.Bucket b : sides[s].getBucketsList()) {
                if (taken++ == TOP_VALUES) {
                    break;
                }
                rows.computeIfAbsent(b.getLabel(), k -> new double[] {Double.NaN, Double.NaN});
            }
        }
        for (int s = 0; s < 2; s++) {
            if (sides[s] == null) {
                continue;
            }
            for (RankHistogram.Bucket b : sides[s].getBucketsList()) {
                double[] r = rows.get(b.getLabel());
                if (r != null) {
                    r[s] = b.getSampleCount();
                }
            }
        }
        int n = Math.min(rows.size(), 2 * TOP_VALUES);
        StringBuilder svg = open("values", Math.max(HEIGHT, n * BAR + 2));
        if (rows.isEmpty()) {
            return svg.append(empty()).append("</svg>").toString();
        }
        double max = 0;
        for (double[] r : rows.values()) {
            for (int s = 0; s < 2; s++) {
                if (!Double.isNaN(r[s]) && totals[s] > 0) {
                    max = Math.max(max, r[s] / totals[s]);
                }
            }
        }
        int row = 0;
        for (Map.Entry<String, double[]> e : rows.entrySet()) {
            if (row == n) {
                break;
            }
            for (int s = 0; s < 2; s++) {
                double c = e.getValue()[s];
                if (Double.isNaN(c) || totals[s] <= 0) {
                    continue;
                }
                double w = max > 0 ? Math.max(1, c / totals[s] / max * WIDTH) : 1;
                int h = sides[1] == null ? BAR - 1 : (BAR - 1) / 2;
                svg.append("<rect class=\"bar s")
                        .append(s)
                        .append("\" x=\"0\" y=\"")
                        .append(row * BAR + s * h)
                        .append("\" width=\"")
                        .append(px(w))
                        .append("\" height=\"")
                        .append(h)
                        .append("\"><title>")
                        .append(Html.text(e.getKey()))
                        .append(": ")
                        .append(ReportNumbers.format(c))
                        .append("</title></rect>");
            }
            row++;
        }
        return svg.append("</svg>").toString();
    }

    private static StringBuilder open(String kind, int height) {
        return new StringBuilder(2048)
                .append("<svg class=\"chart ")
                .append(kind)
                .append("\" width=\"")
                .append(WIDTH)
                .append("\" height=\"")
                .append(height)
                .append("\" viewBox=\"0 0 ")
                .append(WIDTH)
                .append(' ')
                .append(height)
                .append("\" role=\"img\">");
    }

    private static String empty() {
        return "<text class=\"axis\" x=\"0\" y=\"12\">no values</text>";
    }

    private static double x(double v, double lo, double hi) {
        if (v == Double.NEGATIVE_INFINITY) {
            return 0;
        }
        if (v == Double.POSITIVE_INFINITY) {
            return WIDTH;
        }
        return hi > lo ? (v - lo) / (hi - lo) * WIDTH : 0;
    }

    private static String px(double v) {
        return String.format(java.util.Locale.ROOT, "%.1f", v);
    }
}
