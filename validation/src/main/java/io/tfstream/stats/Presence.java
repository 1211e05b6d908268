package io.tfstream.stats;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.tensorflow.metadata.v0.CommonStatistics;
import org.tensorflow.metadata.v0.PresenceAndValencyStatistics;

/**
 * Presence and value counts at one level of a feature: how many lists were there (non-missing),
 * their lengths (min, max, total) and the quantiles of the lengths.
 */
final class Presence {
    long nonMissing;
    long min = Long.MAX_VALUE;
    long max;
    long total;
    Quantiles lengths;

    /**
     * @param eps the error of the lengths' quantile sketch (0: exact)
     */
    Presence(double eps) {
        lengths = new Quantiles(eps);
    }

    /** A list of {@code n} values was there. */
    void add(long n) {
        add(n, 1);
    }

    /** {@code times} lists of {@code n} values each were there. */
    void add(long n, long times) {
        if (times <= 0) {
            return;
        }
        nonMissing += times;
        min = Math.min(min, n);
        max = Math.max(max, n);
        total += n * times;
        lengths.add(n, times);
    }

    /**
     * The common statistics of these counts, {@code missing} lists missing; TFDV sets the value
     * counts and their histogram only when a list was there.
     */
    CommonStatistics.Builder common(long missing, int histogramBuckets) {
        CommonStatistics.Builder c =
                CommonStatistics.newBuilder().setNumNonMissing(nonMissing).setNumMissing(missing);
        if (nonMissing > 0) {
            c.setMinNumValues(min)
                    .setMaxNumValues(max)
                    .setAvgNumValues((float) ((double) total / nonMissing))
                    .setTotNumValues(total);
            double[][] b = lengths.boundaries(histogramBuckets);
            c.setNumValuesHistogram(Histograms.quantiles(b[0], b[1]));
        }
        return c;
    }

    /** These counts as one nesting level's presence and valency, {@code missing} lists missing. */
    PresenceAndValencyStatistics level(long missing) {
        PresenceAndValencyStatistics.Builder l =
                PresenceAndValencyStatistics.newBuilder()
                        .setNumNonMissing(nonMissing)
                        .setNumMissing(missing);
        if (nonMissing > 0) {
            l.setMinNumValues(min).setMaxNumValues(max).setTotNumValues(total);
        }
        return l.build();
    }

    void merge(Presence o) {
        nonMissing += o.nonMissing;
        min = Math.min(min, o.min);
        max = Math.max(max, o.max);
        total += o.total;
        lengths.merge(o.lengths);
    }

    void write(DataOutput out) throws IOException {
        out.writeLong(nonMissing);
        out.writeLong(min);
        out.writeLong(max);
        out.writeLong(total);
        lengths.write(out);
    }

    void read(DataInput in) throws IOException {
        nonMissing = in.readLong();
        min = in.readLong();
        max = in.readLong();
        total = in.readLong();
        lengths = Quantiles.read(in);
    }
}
