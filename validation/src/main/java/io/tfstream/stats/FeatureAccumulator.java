package io.tfstream.stats;

import com.google.protobuf.ByteString;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tensorflow.example.Feature;
import org.tensorflow.example.FeatureList;
import org.tensorflow.metadata.v0.CommonStatistics;
import org.tensorflow.metadata.v0.CustomStatistic;
import org.tensorflow.metadata.v0.FeatureNameStatistics;
import org.tensorflow.metadata.v0.Histogram;
import org.tensorflow.metadata.v0.NumericStatistics;
import org.tensorflow.metadata.v0.Path;
import org.tensorflow.metadata.v0.RankHistogram;
import org.tensorflow.metadata.v0.StringStatistics;

/**
 * The statistics of one Example feature as TFDV's basic and top-k generators compute them: a
 * feature present with a kind (even with no values) is non-missing; int64 and float values get
 * numeric statistics (NaN counted apart, ±inf in min and max and in infinite buckets of their own);
 * bytes values get string statistics (every value counted, exactly).
 */
final class FeatureAccumulator {
    /** TFDV's label for a value that is not UTF-8 ({@code NON_UTF8_PLACEHOLDER}). */
    static final String NON_UTF8 = "__BYTES_VALUE__";

    private final String name;
    private final boolean inSequence;
    private Feature.KindCase kind = Feature.KindCase.KIND_NOT_SET;

    /** Per record: the values of a flat feature, all values of a feature list. */
    private final Presence top = new Presence();

    /** Feature lists only: their steps per record, and the values per step. */
    private final Presence steps = new Presence();

    private final Presence stepValues = new Presence();

    private final Quantiles values = new Quantiles();
    private long numNan;
    private long numZeros;
    private long posInf;
    private double min = Double.POSITIVE_INFINITY;
    private double max = Double.NEGATIVE_INFINITY;
    private double finiteMin = Double.POSITIVE_INFINITY;
    private double finiteMax = Double.NEGATIVE_INFINITY;

    private final Map<ByteString, long[]> strings = new HashMap<>();
    private long totalBytes;
    private long invalidUtf8;

    /**
     * @param name the feature's name
     * @param inSequence whether it is a SequenceExample's feature list (under {@code ##SEQUENCE##})
     */
    FeatureAccumulator(String name, boolean inSequence) {
        this.name = name;
        this.inSequence = inSequence;
    }

    /** Adds the feature of one record; a feature without a kind is missing there. */
    void add(Feature f) {
        if (f.getKindCase() != Feature.KindCase.KIND_NOT_SET) {
            top.add(values(f));
        }
    }

    /**
     * Adds the feature list of one record: its steps, each step's values (a step without a kind is
     * missing at that level), and all of them for the record.
     */
    void add(FeatureList list) {
        long all = 0;
        for (Feature step : list.getFeatureList()) {
            if (step.getKindCase() != Feature.KindCase.KIND_NOT_SET) {
                long n = values(step);
                stepValues.add(n);
                all += n;
            }
        }
        steps.add(list.getFeatureCount());
        top.add(all);
    }

    /** Adds the values of {@code f} (which has a kind); returns how many. */
    private int values(Feature f) {
        Feature.KindCase k = f.getKindCase();
        if (kind == Feature.KindCase.KIND_NOT_SET) {
            kind = k;
        } else if (kind != k) {
            throw new IllegalArgumentException(
                    "feature '"
                            + name
                            + "' holds "
                            + kindName(kind)
                            + " values in one record and "
                            + kindName(k)
                            + " values in another");
        }
        int n;
        switch (k) {
            case INT64_LIST -> {
                n = f.getInt64List().getValueCount();
                for (long v : f.getInt64List().getValueList()) {
                    number(v);
                }
            }
            case FLOAT_LIST -> {
                n = f.getFloatList().getValueCount();
                for (float v : f.getFloatList().getValueList()) {
                    number(v); // widened to double, as TFDV does before any arithmetic
                }
            }
            default -> {
                n = f.getBytesList().getValueCount();
                for (ByteString v : f.getBytesList().getValueList()) {
                    string(v);
                }
            }
        }
        return n;
    }

    private void number(double v) {
        if (Double.isNaN(v)) {
            numNan++;
            return;
        }
        values.add(v, 1);
        if (v == 0) {
            numZeros++;
        }
        min = Math.min(min, v);
        max = Math.max(max, v);
        if (Double.isFinite(v)) {
            finiteMin = Math.min(finiteMin, v);
            finiteMax = Math.max(finiteMax, v);
        } else if (v > 0) {
            posInf++;
        }
    }

    private void string(ByteString v) {
        strings.computeIfAbsent(v, x -> new long[1])[0]++;
        totalBytes += v.size();
        if (!v.isValidUtf8()) {
            invalidUtf8++;
        }
    }

    /**
     * The statistics of the feature among {@code records} records (for a feature list: the records
     * that hold the {@code ##SEQUENCE##} struct).
     */
    FeatureNameStatistics build(long records, StatsOptions o) {
        Path.Builder path = Path.newBuilder();
        if (inSequence) {
            path.addStep(ExampleStatistics.SEQUENCE);
        }
        FeatureNameStatistics.Builder f =
                FeatureNameStatistics.newBuilder().setPath(path.addStep(name));
        CommonStatistics.Builder common =
                top.common(records - top.nonMissing, o.numValuesHistogramBuckets());
        if (inSequence) {
            common.addPresenceAndValencyStats(steps.level(records - steps.nonMissing))
                    .addPresenceAndValencyStats(
                            stepValues.level(steps.total - stepValues.nonMissing));
            if (stepValues.nonMissing > 0) {
                levelHistograms(f, o.numValuesHistogramBuckets());
            }
        }
        switch (kind) {
            case INT64_LIST, FLOAT_LIST -> {
                f.setType(
                        kind == Feature.KindCase.INT64_LIST
                                ? FeatureNameStatistics.Type.INT
                                : FeatureNameStatistics.Type.FLOAT);
                f.setNumStats(numeric(common.build(), o));
            }
            default -> {
                // bytes, or never a kind: TFDV reports both as STRING
                f.setType(FeatureNameStatistics.Type.STRING);
                f.setStringStats(strings(common.build(), o));
            }
        }
        return f.build();
    }

    /**
     * TFDV's custom statistics of the second nesting level: the quantiles and the equal-width
     * histogram of the values per step, both with {@code buckets} buckets.
     */
    private void levelHistograms(FeatureNameStatistics.Builder f, int buckets) {
        double[][] qc = stepValues.lengths.boundaries(buckets);
        f.addCustomStats(
                        CustomStatistic.newBuilder()
                                .setName("level_2_value_list_length_quantiles")
                                .setHistogram(Histograms.quantiles(qc[0], qc[1])))
                .addCustomStats(
                        CustomStatistic.newBuilder()
                                .setName("level_2_value_list_length_standard")
                                .setHistogram(
                                        Histograms.equiWidth(
                                                qc[0],
                                                qc[1],
                                                stepValues.min,
                                                stepValues.max,
                                                buckets,
                                                0)));
    }

    private NumericStatistics numeric(CommonStatistics common, StatsOptions o) {
        NumericStatistics.Builder s = NumericStatistics.newBuilder().setCommonStats(common);
        if (values.isEmpty()) {
            if (numNan > 0) {
                s.addHistograms(nanOnly(Histogram.HistogramType.STANDARD));
                s.addHistograms(nanOnly(Histogram.HistogramType.QUANTILES));
            }
            return s.build();
        }
        double w = values.totalWeight();
        double mean = values.weightedSum() / w;
        double variance = values.weightedSquares(mean) / w;
        s.setMean(mean)
                // Python's max(0, nan) is 0: infinite values leave no deviation
                .setStdDev(variance > 0 ? Math.sqrt(variance) : 0)
                .setNumZeros(numZeros)
                .setMin(min)
                .setMax(max);
        int fine = 100 * o.numQuantilesHistogramBuckets();
        double[][] qc = values.boundaries(fine);
        s.setMedian(Histograms.median(qc[0]));
        s.addHistograms(
                Histograms.equiWidth(
                                qc[0], qc[1], finiteMin, finiteMax, o.numHistogramBuckets(), posInf)
                        .toBuilder()
                        .setNumNan(numNan));
        double[][] coarse = Histograms.rebin(qc[0], qc[1], 100);
        s.addHistograms(Histograms.quantiles(coarse[0], coarse[1]).toBuilder().setNumNan(numNan));
        return s.build();
    }

    /** A histogram of a feature whose values are all NaN: the count, no buckets. */
    private Histogram nanOnly(Histogram.HistogramType type) {
        return Histogram.newBuilder().setType(type).setNumNan(numNan).build();
    }

    private StringStatistics strings(CommonStatistics common, StatsOptions o) {
        StringStatistics.Builder s =
                StringStatistics.newBuilder()
                        .setCommonStats(common)
                        .setUnique(strings.size())
                        .setInvalidUtf8Count(invalidUtf8);
        long leaves = inSequence ? stepValues.total : top.total;
        if (leaves > 0 && totalBytes > 0) {
            s.setAvgLength((float) ((double) totalBytes / leaves));
        }
        List<Map.Entry<ByteString, long[]>> ranked = new ArrayList<>(strings.entrySet());
        // by count, then by value (unsigned bytes), both descending: TFDV's tie-break
        ranked.sort(
                (a, b) -> {
                    int byCount = Long.compare(b.getValue()[0], a.getValue()[0]);
                    return byCount != 0
                            ? byCount
                            : ByteString.unsignedLexicographicalComparator()
                                    .compare(b.getKey(), a.getKey());
                });
        RankHistogram.Builder rank = RankHistogram.newBuilder();
        for (int i = 0; i < ranked.size(); i++) {
            if (i >= o.numTopValues() && i >= o.numRankHistogramBuckets()) {
                break;
            }
            String label = label(ranked.get(i).getKey());
            double count = ranked.get(i).getValue()[0];
            if (i < o.numTopValues()) {
                s.addTopValues(
                        StringStatistics.FreqAndValue.newBuilder()
                                .setValue(label)
                                .setFrequency(count));
            }
            if (i < o.numRankHistogramBuckets()) {
                rank.addBuckets(
                        RankHistogram.Bucket.newBuilder()
                                .setLowRank(i)
                                .setHighRank(i)
                                .setLabel(label)
                                .setSampleCount(count));
            }
        }
        if (rank.getBucketsCount() > 0) {
            s.setRankHistogram(rank);
        }
        return s.build();
    }

    private static String label(ByteString v) {
        return v.isValidUtf8() ? v.toStringUtf8() : NON_UTF8;
    }

    private static String kindName(Feature.KindCase k) {
        return switch (k) {
            case INT64_LIST -> "int64";
            case FLOAT_LIST -> "float";
            default -> "bytes";
        };
    }
}
