package io.tfstream.validation;

import io.tfstream.stats.ByteKeyTable;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.tensorflow.metadata.v0.FeatureNameStatistics;
import org.tensorflow.metadata.v0.Histogram;
import org.tensorflow.metadata.v0.RankHistogram;

/**
 * The distance between two datasets' statistics of one feature, as TFDV's {@code
 * validate_statistics} computes drift and skew from statistics protos and as the drift alerts
 * compute it ({@link Divergences}): the L-infinity distance over the rank histograms of a
 * categorical (string) feature, the Jensen-Shannon divergence of the {@code STANDARD} histograms of
 * a numeric one. The report of {@code tfstream report --compare} shows these figures, so the page
 * and the alerts agree.
 */
public final class StatisticsDrift {
    /** The most distinct values a rank histogram is read with (TFDV writes at most 1 000). */
    private static final int MAX_LABELS = 1 << 16;

    private StatisticsDrift() {}

    /** What was measured: TFDV's {@code DriftSkewInfo.Measurement.Type} names. */
    public enum Measure {
        L_INFTY,
        JENSEN_SHANNON_DIVERGENCE
    }

    /**
     * @param measure which distance
     * @param value the distance, 0 to 1 (NaN when a side has nothing to compare)
     * @param atValue for L-infinity, the value attaining it (escaped as TFDV prints it), else null
     */
    public record Drift(Measure measure, double value, String atValue) {}

    /**
     * The drift of {@code current} from {@code previous}: L-infinity when both have string
     * statistics, Jensen-Shannon when both have numeric statistics with a {@code STANDARD}
     * histogram, else empty (the kinds differ, or a side lacks what the measure reads).
     */
    public static Optional<Drift> of(
            FeatureNameStatistics current, FeatureNameStatistics previous) {
        if (current.hasStringStats() && previous.hasStringStats()) {
            Object[] l =
                    Divergences.lInfinity(
                            table(current.getStringStats().getRankHistogram()),
                            table(previous.getStringStats().getRankHistogram()));
            return Optional.of(new Drift(Measure.L_INFTY, (double) l[0], (String) l[1]));
        }
        if (current.hasNumStats() && previous.hasNumStats()) {
            Histogram a = standard(current);
            Histogram b = standard(previous);
            if (a == null || b == null) {
                return Optional.empty();
            }
            double[][] aligned = Divergences.align(of(a), of(b));
            return Optional.of(
                    new Drift(
                            Measure.JENSEN_SHANNON_DIVERGENCE,
                            Divergences.jensenShannon(aligned[0], aligned[1]),
                            null));
        }
        return Optional.empty();
    }

    /** The feature's {@code STANDARD} histogram, or null. */
    static Histogram standard(FeatureNameStatistics f) {
        for (Histogram h : f.getNumStats().getHistogramsList()) {
            if (h.getType() == Histogram.HistogramType.STANDARD) {
                return h;
            }
        }
        return null;
    }

    private static StandardHistogram of(Histogram h) {
        StandardHistogram out = StandardHistogram.withNan(h.getNumNan());
        for (Histogram.Bucket b : h.getBucketsList()) {
            out.add(b.getLowValue(), b.getHighValue(), b.getSampleCount());
        }
        return out;
    }

    /** A rank histogram as value → count (labels as UTF-8, TFDV's std::map order). */
    private static ByteKeyTable table(RankHistogram h) {
        ByteKeyTable t = new ByteKeyTable(Math.min(MAX_LABELS, Math.max(1, h.getBucketsCount())));
        for (RankHistogram.Bucket b : h.getBucketsList()) {
            byte[] k = b.getLabel().getBytes(StandardCharsets.UTF_8);
            t.add(k, 0, k.length, Math.round(b.getSampleCount()));
        }
        return t;
    }
}
