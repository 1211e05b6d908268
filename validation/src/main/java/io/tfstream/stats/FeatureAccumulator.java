package io.tfstream.stats;

import com.google.protobuf.ByteString;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
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
import org.tensorflow.metadata.v0.WeightedCommonStatistics;
import org.tensorflow.metadata.v0.WeightedNumericStatistics;
import org.tensorflow.metadata.v0.WeightedStringStatistics;

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

    /** With a weight feature: the values weighted by their record's weight. */
    private final Quantiles weightedValues = new Quantiles();

    private double weightedPosInf;

    /** With a weight feature: the weight of the records holding the feature, and of its values. */
    private double weightedNonMissing;

    private double weightedTotal;

    /** The weight of the record being added (1 without a weight feature). */
    private double weight = 1;

    private long numNan;
    private long numZeros;
    private long posInf;
    private double min = Double.POSITIVE_INFINITY;
    private double max = Double.NEGATIVE_INFINITY;
    private double finiteMin = Double.POSITIVE_INFINITY;
    private double finiteMax = Double.NEGATIVE_INFINITY;

    /** Per distinct value: its count and its weighted count. */
    private final Map<ByteString, double[]> strings = new HashMap<>();

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

    /**
     * Adds the feature of one record of weight {@code w}; a feature without a kind is missing
     * there.
     */
    void add(Feature f, double w) {
        if (f.getKindCase() != Feature.KindCase.KIND_NOT_SET) {
            weight = w;
            int n = values(f);
            top.add(n);
            weightedNonMissing += w;
            weightedTotal += n * w;
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
        weightedValues.add(v, weight);
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
            weightedPosInf += weight;
        }
    }

    private void string(ByteString v) {
        double[] c = strings.computeIfAbsent(v, x -> new double[2]);
        c[0]++;
        c[1] += weight;
        totalBytes += v.size();
        if (!v.isValidUtf8()) {
            invalidUtf8++;
        }
    }

    /**
     * The statistics of the feature among {@code records} records (for a feature list: the records
     * that hold the {@code ##SEQUENCE##} struct) of total weight {@code weighted} (NaN: no weight
     * feature).
     */
    FeatureNameStatistics build(long records, double weighted, StatsOptions o) {
        Path.Builder path = Path.newBuilder();
        if (inSequence) {
            path.addStep(ExampleStatistics.SEQUENCE);
        }
        FeatureNameStatistics.Builder f =
                FeatureNameStatistics.newBuilder().setPath(path.addStep(name));
        CommonStatistics.Builder common =
                top.common(records - top.nonMissing, o.numValuesHistogramBuckets());
        boolean weights = !Double.isNaN(weighted);
        if (weights) {
            WeightedCommonStatistics.Builder w =
                    WeightedCommonStatistics.newBuilder()
                            .setNumNonMissing(weightedNonMissing)
                            .setNumMissing(weighted - weightedNonMissing)
                            .setTotNumValues(weightedTotal);
            if (weightedNonMissing > 0) {
                w.setAvgNumValues(weightedTotal / weightedNonMissing);
            }
            common.setWeightedCommonStats(w);
        }
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
                f.setNumStats(numeric(common.build(), weights, o));
            }
            default -> {
                // bytes, or never a kind: TFDV reports both as STRING
                f.setType(FeatureNameStatistics.Type.STRING);
                f.setStringStats(strings(common.build(), weights, o));
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

    private NumericStatistics numeric(CommonStatistics common, boolean weights, StatsOptions o) {
        NumericStatistics.Builder s = NumericStatistics.newBuilder().setCommonStats(common);
        if (values.isEmpty()) {
            if (numNan > 0) {
                s.addHistograms(nanOnly(Histogram.HistogramType.STANDARD));
                s.addHistograms(nanOnly(Histogram.HistogramType.QUANTILES));
            }
            return s.build();
        }
        WeightedNumericStatistics plain = distribution(values, posInf, o);
        s.setMean(plain.getMean())
                .setStdDev(plain.getStdDev())
                .setNumZeros(numZeros)
                .setMin(min)
                .setMax(max)
                .setMedian(plain.getMedian())
                .addAllHistograms(plain.getHistogramsList());
        if (weights && !weightedValues.isEmpty()) {
            s.setWeightedNumericStats(distribution(weightedValues, weightedPosInf, o));
        }
        return s.build();
    }

    /**
     * Mean, population standard deviation, median and the STANDARD and QUANTILES histograms of
     * {@code q} (values, or values weighted by their records), as TFDV derives them from one query
     * of {@code 100 × buckets} quantiles; {@code numPosInf}: the (weighted) count of +inf.
     */
    private WeightedNumericStatistics distribution(Quantiles q, double numPosInf, StatsOptions o) {
        double w = q.totalWeight();
        double mean = q.weightedSum() / w;
        double variance = q.weightedSquares(mean) / w;
        double[][] qc = q.boundaries(100 * o.numQuantilesHistogramBuckets());
        double[][] coarse = Histograms.rebin(qc[0], qc[1], 100);
        return WeightedNumericStatistics.newBuilder()
                .setMean(mean)
                // Python's max(0, nan) is 0: infinite values leave no deviation
                .setStdDev(variance > 0 ? Math.sqrt(variance) : 0)
                .setMedian(Histograms.median(qc[0]))
                .addHistograms(
                        Histograms.equiWidth(
                                        qc[0],
                                        qc[1],
                                        finiteMin,
                                        finiteMax,
                                        o.numHistogramBuckets(),
                                        numPosInf)
                                .toBuilder()
                                .setNumNan(numNan))
                .addHistograms(
                        Histograms.quantiles(coarse[0], coarse[1]).toBuilder().setNumNan(numNan))
                .build();
    }

    /** A histogram of a feature whose values are all NaN: the count, no buckets. */
    private Histogram nanOnly(Histogram.HistogramType type) {
        return Histogram.newBuilder().setType(type).setNumNan(numNan).build();
    }

    private StringStatistics strings(CommonStatistics common, boolean weights, StatsOptions o) {
        StringStatistics.Builder s =
                StringStatistics.newBuilder()
                        .setCommonStats(common)
                        .setUnique(strings.size())
                        .setInvalidUtf8Count(invalidUtf8);
        long leaves = inSequence ? stepValues.total : top.total;
        if (leaves > 0 && totalBytes > 0) {
            s.setAvgLength((float) ((double) totalBytes / leaves));
        }
        RankHistogram rank = ranked(0, o, s::addTopValues);
        if (rank.getBucketsCount() > 0) {
            s.setRankHistogram(rank);
        }
        if (weights) {
            WeightedStringStatistics.Builder w = WeightedStringStatistics.newBuilder();
            RankHistogram weightedRank = ranked(1, o, w::addTopValues);
            if (weightedRank.getBucketsCount() > 0) {
                w.setRankHistogram(weightedRank);
            }
            s.setWeightedStringStats(w);
        }
        return s.build();
    }

    /**
     * The values ranked by count ({@code which} 0) or weight (1), then by value (unsigned bytes),
     * both descending as TFDV breaks ties; those below TFDV's threshold of 1 left out. The top
     * values go to {@code top}; returns the rank histogram.
     */
    private RankHistogram ranked(
            int which, StatsOptions o, Consumer<StringStatistics.FreqAndValue> top) {
        List<Map.Entry<ByteString, double[]>> ranked = new ArrayList<>();
        for (Map.Entry<ByteString, double[]> e : strings.entrySet()) {
            if (e.getValue()[which] >= 1) {
                ranked.add(e);
            }
        }
        ranked.sort(
                (a, b) -> {
                    int byCount = Double.compare(b.getValue()[which], a.getValue()[which]);
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
            double count = ranked.get(i).getValue()[which];
            if (i < o.numTopValues()) {
                top.accept(
                        StringStatistics.FreqAndValue.newBuilder()
                                .setValue(label)
                                .setFrequency(count)
                                .build());
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
        return rank.build();
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
