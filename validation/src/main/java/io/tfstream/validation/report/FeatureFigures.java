package io.tfstream.validation.report;

import java.util.ArrayList;
import java.util.List;
import org.tensorflow.metadata.v0.CommonStatistics;
import org.tensorflow.metadata.v0.FeatureNameStatistics;
import org.tensorflow.metadata.v0.Histogram;
import org.tensorflow.metadata.v0.RankHistogram;
import org.tensorflow.metadata.v0.StringStatistics;

/**
 * What the report shows of one feature in one dataset, read from its statistics proto: the
 * unweighted figures (TFDV's {@code common_stats}, {@code num_stats}, {@code string_stats} or
 * {@code bytes_stats}) and the histograms the charts draw.
 */
record FeatureFigures(
        Kind kind,
        String type,
        Presence presence,
        double mean,
        double stdDev,
        double zeros,
        double min,
        double median,
        double max,
        double unique,
        double avgLength,
        List<StringStatistics.FreqAndValue> topValues,
        Histogram standard,
        Histogram quantiles,
        RankHistogram ranks) {

    /**
     * Examples with the feature (count), the share without it (missing), and values per example.
     */
    record Presence(
            double count, double missing, double avgValues, double minValues, double maxValues) {
        static Presence of(CommonStatistics c) {
            double all = (double) c.getNumNonMissing() + c.getNumMissing();
            return new Presence(
                    c.getNumNonMissing(),
                    all == 0 ? 0 : c.getNumMissing() / all,
                    c.getAvgNumValues(),
                    c.getMinNumValues(),
                    c.getMaxNumValues());
        }
    }

    /** Which table a feature goes in. */
    enum Kind {
        NUMERIC,
        CATEGORICAL
    }

    /** The figures of {@code f}. */
    static FeatureFigures of(FeatureNameStatistics f) {
        String type = f.getType().name();
        if (f.hasNumStats()) {
            var n = f.getNumStats();
            CommonStatistics c = n.getCommonStats();
            Histogram standard = null;
            Histogram quantiles = null;
            for (Histogram h : n.getHistogramsList()) {
                if (h.getType() == Histogram.HistogramType.STANDARD && standard == null) {
                    standard = h;
                } else if (h.getType() == Histogram.HistogramType.QUANTILES && quantiles == null) {
                    quantiles = h;
                }
            }
            double values = c.getTotNumValues();
            return new FeatureFigures(
                    Kind.NUMERIC,
                    type,
                    Presence.of(c),
                    n.getMean(),
                    n.getStdDev(),
                    values > 0 ? n.getNumZeros() / values : 0,
                    n.getMin(),
                    n.getMedian(),
                    n.getMax(),
                    Double.NaN,
                    Double.NaN,
                    List.of(),
                    standard,
                    quantiles,
                    null);
        }
        if (f.hasStringStats()) {
            var s = f.getStringStats();
            return categorical(
                    type,
                    s.getCommonStats(),
                    Double.NaN,
                    Double.NaN,
                    s.getUnique(),
                    s.getAvgLength(),
                    s.getTopValuesList(),
                    s.getRankHistogram());
        }
        if (f.hasBytesStats()) {
            var b = f.getBytesStats();
            return categorical(
                    type,
                    b.getCommonStats(),
                    b.getMinNumBytes(),
                    b.getMaxNumBytes(),
                    b.getUnique(),
                    b.getAvgNumBytes(),
                    List.of(),
                    null);
        }
        return categorical(
                type,
                f.getStructStats().getCommonStats(),
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                List.of(),
                null);
    }

    /** A feature of the categorical table: string, bytes (sizes as min and max) or struct. */
    private static FeatureFigures categorical(
            String type,
            CommonStatistics c,
            double min,
            double max,
            double unique,
            double avgLength,
            List<StringStatistics.FreqAndValue> topValues,
            RankHistogram ranks) {
        return new FeatureFigures(
                Kind.CATEGORICAL,
                type,
                Presence.of(c),
                Double.NaN,
                Double.NaN,
                Double.NaN,
                min,
                Double.NaN,
                max,
                unique,
                avgLength,
                topValues,
                null,
                null,
                ranks);
    }

    /**
     * How far the feature's distribution is from uniform, 0 (every bucket alike) to 1 (all in one
     * bucket): one minus the entropy of the bucket shares over its maximum, {@code log k}, read
     * from the {@code STANDARD} histogram of a numeric feature or the rank histogram of a
     * categorical one; NaN without either.
     */
    double nonUniformity() {
        List<Double> counts = new ArrayList<>();
        if (standard != null) {
            standard.getBucketsList().forEach(b -> counts.add(b.getSampleCount()));
        } else if (ranks != null) {
            ranks.getBucketsList().forEach(b -> counts.add(b.getSampleCount()));
        } else {
            return Double.NaN;
        }
        double total = 0;
        for (double c : counts) {
            total += c;
        }
        if (total <= 0) {
            return Double.NaN;
        }
        if (counts.size() == 1) {
            return 1;
        }
        double h = 0;
        for (double c : counts) {
            if (c > 0) {
                double p = c / total;
                h -= p * Math.log(p);
            }
        }
        return Math.max(0, 1 - h / Math.log(counts.size()));
    }
}
