package io.tfstream.stats;

import com.google.protobuf.ByteString;
import io.tfstream.parse.wire.FeatureValues;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.apache.flink.annotation.Internal;
import org.tensorflow.example.Feature;
import org.tensorflow.example.FeatureList;
import org.tensorflow.metadata.v0.BytesStatistics;
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
 * The statistics of one feature as TFDV's basic and top-k generators compute them, mergeable and
 * serializable so that partial statistics (of a batch, a window's subtask) add up to those of the
 * whole: a feature present with a kind (even with no values) is non-missing; int64 and float values
 * get numeric statistics (NaN counted apart, ±inf in min and max and in infinite buckets of their
 * own, mean and deviation from TFDV's stable accumulators, quantiles from {@link Quantiles}); bytes
 * values get string statistics ({@link TopValues}, exact or sketched per {@link StatsOptions}).
 *
 * <p>Fed record by record: {@link #present} (a feature with its kind and value count) or {@link
 * #list} and {@link #step} (a feature list), then its values with {@link #number} or {@link
 * #string}. A strict accumulator (the records' own statistics) refuses a feature whose kind changes
 * between records as TFDV does; a lenient one (the job's, where the schema fixes the kind and a
 * mismatch is an anomaly reported apart) keeps the first kind and leaves other values out.
 */
@Internal
public final class FeatureAccumulator implements SerializedExample.Values {
    /** TFDV's label for a value that is not UTF-8 ({@code NON_UTF8_PLACEHOLDER}). */
    static final String NON_UTF8 = "__BYTES_VALUE__";

    /** TFDV's label for a value over {@link #LARGE_STRING} bytes in sketched top values. */
    static final String LARGE_BYTES = "__LARGE_BYTES__";

    /** TFDV's {@code _LARGE_STRING_THRESHOLD} of sketched top values. */
    static final int LARGE_STRING = 1024;

    private static final byte[] NON_UTF8_KEY = NON_UTF8.getBytes(StandardCharsets.UTF_8);
    private static final byte[] LARGE_KEY = LARGE_BYTES.getBytes(StandardCharsets.UTF_8);

    /** Kinds of values, as the parser's {@link FeatureValues} numbers them. */
    public static final int NONE = FeatureValues.KIND_NONE;

    public static final int INT = FeatureValues.KIND_INT64;
    public static final int FLOAT = FeatureValues.KIND_FLOAT;
    public static final int BYTES = FeatureValues.KIND_BYTES;

    private final String name;
    private final boolean inSequence;
    private final boolean strict;
    private final StatsRole role;
    private final StatsOptions options;
    private int kind = NONE;

    /** Per record: the values of a flat feature, all values of a feature list. */
    private final Presence top;

    /** Feature lists only: their steps per record, and the values per step. */
    private final Presence steps;

    private final Presence stepValues;

    private Quantiles values;

    /** With weights: the values weighted by their record's weight (created on first weight). */
    private Quantiles weightedValues;

    private final MeanVar meanVar = new MeanVar();
    private MeanVar weightedMeanVar;

    private double weightedPosInf;

    /** With weights: the weight of the records holding the feature, and of its values. */
    private double weightedNonMissing;

    private double weightedTotal;

    /** The weight of the record being added (1 without a weight feature). */
    private double weight = 1;

    private final boolean weighted;
    private long numNan;
    private long numZeros;
    private long posInf;
    private double min = Double.POSITIVE_INFINITY;
    private double max = Double.NEGATIVE_INFINITY;
    private double finiteMin = Double.POSITIVE_INFINITY;
    private double finiteMax = Double.NEGATIVE_INFINITY;

    /** Per distinct value: its count, and its weighted count (with weights). */
    private TopValues counts;

    private TopValues weightedCounts;

    /** Sketched top values only: the unique values. */
    private DistinctCount distinct;

    private long totalBytes;
    private long invalidUtf8;

    /**
     * Weighted feature lists: the weight of their steps (nest level 1's total) and of the steps
     * with a kind (nest level 2's present ones).
     */
    private double weightedSteps;

    private double weightedStepsPresent;

    /** The shortest and longest bytes value (bytes statistics of {@link StatsRole#BYTES}). */
    private long minBytes = Long.MAX_VALUE;

    private long maxBytes = Long.MIN_VALUE;

    /**
     * A strict accumulator of a feature of the records (TFDV's behaviour).
     *
     * @param name the feature's name
     * @param inSequence whether it is a SequenceExample's feature list (under {@code ##SEQUENCE##})
     */
    public FeatureAccumulator(String name, boolean inSequence, StatsOptions options) {
        this(name, inSequence, options, false, true, StatsRole.PLAIN);
    }

    /**
     * @param weighted whether records have weights (TFDV's {@code weight_feature}): weighted
     *     statistics are kept too
     * @param strict refuse a kind that differs from the first seen (else leave its values out)
     * @param role what the schema makes of the feature's statistics (TFDV's statistics with a
     *     schema)
     */
    public FeatureAccumulator(
            String name,
            boolean inSequence,
            StatsOptions options,
            boolean weighted,
            boolean strict,
            StatsRole role) {
        this.name = name;
        this.weighted = weighted;
        this.inSequence = inSequence;
        this.options = options;
        this.strict = strict;
        this.role = role;
        double eps = options.epsilon();
        top = new Presence(eps);
        steps = inSequence ? new Presence(eps) : null;
        stepValues = inSequence ? new Presence(eps) : null;
        values = new Quantiles(eps);
        if (options.sketchTopValues()) {
            counts = new TopValues(options.topValueBuckets());
            distinct = new DistinctCount(options.kmvBuckets());
        } else {
            counts = TopValues.exact();
            distinct = null;
        }
        if (weighted) {
            weightedValues = new Quantiles(eps);
            weightedMeanVar = new MeanVar();
            weightedCounts =
                    options.sketchTopValues()
                            ? new TopValues(options.topValueBuckets())
                            : TopValues.exact();
        }
    }

    public String name() {
        return name;
    }

    /**
     * A flat feature is in the record, with values of {@code kind} ({@link #NONE}: no kind, then it
     * is missing and nothing else follows) and {@code n} of them, in a record of weight {@code w};
     * returns whether its values are to be added.
     */
    public boolean present(int kind, long n, double w) {
        return present(kind, n, 1, w);
    }

    /**
     * {@code rows} unweighted records hold the feature with values of {@code kind}, {@code n} each
     * (the job's fixed-length columns); returns whether their values are to be added.
     */
    public boolean presentRows(int kind, long n, long rows) {
        return present(kind, n, rows, 1);
    }

    private boolean present(int kind, long n, long rows, double w) {
        if (kind == NONE || rows <= 0) {
            return false;
        }
        weight = w;
        boolean accepted = kind(kind);
        top.add(n, rows);
        weightedNonMissing += rows * w;
        weightedTotal += n * rows * w;
        return accepted;
    }

    /**
     * A feature list of a record of weight {@code w} follows: its steps ({@link #step}), then
     * {@link #list}.
     */
    public void beginList(double w) {
        weight = w;
    }

    /**
     * The feature list begun ({@link #beginList}) is in the record: {@code steps} features, {@code
     * all} values in them.
     */
    public void list(long steps, long all) {
        this.steps.add(steps);
        top.add(all);
        weightedNonMissing += weight;
        weightedSteps += weight * steps;
        weightedTotal += weight * all;
    }

    /**
     * A step of a feature list: of {@code kind} ({@link #NONE}: missing at that level) with {@code
     * n} values; returns whether its values are to be added (weighted by the list's record).
     */
    public boolean step(int kind, long n) {
        if (kind == NONE) {
            return false;
        }
        stepValues.add(n);
        weightedStepsPresent += weight;
        return kind(kind);
    }

    /** Whether values of {@code k} are taken: the feature's kind is the first seen. */
    private boolean kind(int k) {
        if (kind == NONE) {
            kind = k;
            return true;
        }
        if (kind == k) {
            return true;
        }
        if (strict) {
            throw new IllegalArgumentException(
                    "feature '"
                            + name
                            + "' holds "
                            + kindName(kind)
                            + " values in one record and "
                            + kindName(k)
                            + " values in another");
        }
        return false;
    }

    /** Whether no record held the feature (TFDV reports only features that records hold). */
    public boolean isEmpty() {
        return top.nonMissing == 0 && (steps == null || steps.nonMissing == 0);
    }

    /** The feature's kind so far ({@link #NONE} before any value). */
    public int kind() {
        return kind;
    }

    /** Adds an int64 value. */
    @Override
    public void number(long v) {
        if (role.numbersAsText(kind)) {
            byte[] text = Long.toString(v).getBytes(StandardCharsets.US_ASCII);
            text(text, text.length);
            return;
        }
        number((double) v);
    }

    /** Adds a float value (widened to double, as TFDV does first), or an int64 one as a double. */
    @Override
    public void number(double v) {
        if (role.numbersAsText(kind)) {
            if (kind == INT) {
                number((long) v);
                return;
            }
            // counted under C's %a as tfx-bsl's sketches do; Python's repr for the length
            byte[] key = NumberText.hex(v).getBytes(StandardCharsets.US_ASCII);
            text(key, NumberText.pythonRepr(v).length());
            return;
        }
        if (Double.isNaN(v)) {
            numNan++;
            return;
        }
        values.add(v, 1);
        meanVar.add(v, 1);
        if (weighted) {
            weightedValues.add(v, weight);
            weightedMeanVar.add(v, weight);
        }
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

    /**
     * A categorical number as text: counted under {@code key}, {@code length} characters long in
     * the average length.
     */
    private void text(byte[] key, int length) {
        totalBytes += length;
        if (distinct == null) {
            counts.add(key, 0, key.length, 1);
        } else {
            distinct.add(key, 0, key.length);
            counts.add(key, 0, key.length, 1);
        }
        if (weighted) {
            weightedCounts.add(key, 0, key.length, weight);
        }
    }

    /** Whether top values and unique values are counted for bytes values. */
    private boolean countsStrings() {
        return role != StatsRole.BYTES
                && !(distinct != null && role == StatsRole.STRING_NOT_CATEGORICAL);
    }

    /** Adds a bytes value {@code b[off, off+len)}. */
    @Override
    public void string(byte[] b, int off, int len) {
        boolean utf8 = Utf8.valid(b, off, off + len);
        totalBytes += len;
        minBytes = Math.min(minBytes, len);
        maxBytes = Math.max(maxBytes, len);
        if (!utf8) {
            invalidUtf8++;
        }
        if (!countsStrings()) {
            return; // TFDV's top-k generators skip these features
        }
        if (distinct == null) {
            counts.add(b, off, len, 1);
        } else {
            distinct.add(b, off, len);
            // TFDV's sketch counts invalid and (non-categorical) long strings under placeholders
            if (!utf8) {
                counts.add(NON_UTF8_KEY, 0, NON_UTF8_KEY.length, 1);
            } else if (len > LARGE_STRING && role != StatsRole.STRING_CATEGORICAL) {
                counts.add(LARGE_KEY, 0, LARGE_KEY.length, 1);
            } else {
                counts.add(b, off, len, 1);
            }
        }
        if (weighted) {
            weightedCounts.add(b, off, len, weight);
        }
    }

    /**
     * Adds the feature of one record of weight {@code w}; a feature without a kind is missing
     * there.
     */
    void add(Feature f, double w) {
        int k = kindOf(f);
        if (present(k, count(f), w)) {
            values(f);
        }
    }

    /**
     * Adds the feature list of one record: its steps, each step's values (a step without a kind is
     * missing at that level), and all of them for the record.
     */
    void add(FeatureList list, double w) {
        beginList(w);
        long all = 0;
        for (Feature step : list.getFeatureList()) {
            int k = kindOf(step);
            if (k != NONE) {
                long n = count(step);
                all += n;
                if (step(k, n)) {
                    values(step);
                }
            }
        }
        list(list.getFeatureCount(), all);
    }

    private static int kindOf(Feature f) {
        return switch (f.getKindCase()) {
            case INT64_LIST -> INT;
            case FLOAT_LIST -> FLOAT;
            case BYTES_LIST -> BYTES;
            default -> NONE;
        };
    }

    private static long count(Feature f) {
        return switch (f.getKindCase()) {
            case INT64_LIST -> f.getInt64List().getValueCount();
            case FLOAT_LIST -> f.getFloatList().getValueCount();
            case BYTES_LIST -> f.getBytesList().getValueCount();
            default -> 0;
        };
    }

    private void values(Feature f) {
        switch (f.getKindCase()) {
            case INT64_LIST -> {
                for (long v : f.getInt64List().getValueList()) {
                    number(v);
                }
            }
            case FLOAT_LIST -> {
                for (float v : f.getFloatList().getValueList()) {
                    number(v);
                }
            }
            default -> {
                for (ByteString v : f.getBytesList().getValueList()) {
                    byte[] b = v.toByteArray();
                    string(b, 0, b.length);
                }
            }
        }
    }

    /**
     * Adds everything {@code other} (of the same feature and options) counted.
     *
     * @throws IllegalArgumentException (strict) when the two hold values of different kinds
     */
    public void merge(FeatureAccumulator other) {
        if (other.weighted != weighted || other.inSequence != inSequence) {
            throw new IllegalArgumentException(
                    "cannot merge statistics of '" + name + "' kept differently");
        }
        boolean takeValues = other.kind == NONE || kind(other.kind);
        top.merge(other.top);
        if (inSequence) {
            steps.merge(other.steps);
            stepValues.merge(other.stepValues);
        }
        weightedNonMissing += other.weightedNonMissing;
        weightedTotal += other.weightedTotal;
        weightedSteps += other.weightedSteps;
        weightedStepsPresent += other.weightedStepsPresent;
        if (!takeValues) {
            return;
        }
        values.merge(other.values);
        meanVar.merge(other.meanVar);
        if (weighted) {
            weightedValues.merge(other.weightedValues);
            weightedMeanVar.merge(other.weightedMeanVar);
            weightedCounts.merge(other.weightedCounts);
        }
        weightedPosInf += other.weightedPosInf;
        numNan += other.numNan;
        numZeros += other.numZeros;
        posInf += other.posInf;
        min = Math.min(min, other.min);
        max = Math.max(max, other.max);
        finiteMin = Math.min(finiteMin, other.finiteMin);
        finiteMax = Math.max(finiteMax, other.finiteMax);
        counts.merge(other.counts);
        if (distinct != null) {
            distinct.merge(other.distinct);
        }
        totalBytes += other.totalBytes;
        invalidUtf8 += other.invalidUtf8;
        minBytes = Math.min(minBytes, other.minBytes);
        maxBytes = Math.max(maxBytes, other.maxBytes);
    }

    /** Writes the state (not the name or options, which the reader supplies). */
    public void write(DataOutput out) throws IOException {
        out.writeByte(kind);
        top.write(out);
        if (inSequence) {
            steps.write(out);
            stepValues.write(out);
        }
        values.write(out);
        meanVar.write(out);
        counts.write(out);
        out.writeBoolean(distinct != null);
        if (distinct != null) {
            distinct.write(out);
        }
        if (weighted) {
            weightedValues.write(out);
            weightedMeanVar.write(out);
            weightedCounts.write(out);
        }
        out.writeDouble(weightedPosInf);
        out.writeDouble(weightedNonMissing);
        out.writeDouble(weightedTotal);
        out.writeLong(numNan);
        out.writeLong(numZeros);
        out.writeLong(posInf);
        out.writeDouble(min);
        out.writeDouble(max);
        out.writeDouble(finiteMin);
        out.writeDouble(finiteMax);
        out.writeLong(totalBytes);
        out.writeLong(invalidUtf8);
        out.writeLong(minBytes);
        out.writeLong(maxBytes);
        out.writeDouble(weightedSteps);
        out.writeDouble(weightedStepsPresent);
    }

    /** Reads into this (empty) accumulator what {@link #write} wrote with the same options. */
    public void read(DataInput in) throws IOException {
        read(in, true);
    }

    /**
     * Reads what {@link #write} wrote, or with {@code byteLengths} false what earlier builds wrote,
     * without the shortest and longest bytes value (then known only from values added after).
     */
    public void read(DataInput in, boolean byteLengths) throws IOException {
        kind = in.readByte();
        top.read(in);
        if (inSequence) {
            steps.read(in);
            stepValues.read(in);
        }
        values = Quantiles.read(in);
        meanVar.read(in);
        counts = TopValues.read(in);
        if (in.readBoolean()) {
            if (distinct == null) {
                throw new IOException("statistics of '" + name + "' were written with sketches");
            }
            distinct = DistinctCount.read(in);
        }
        if (weighted) {
            weightedValues = Quantiles.read(in);
            weightedMeanVar.read(in);
            weightedCounts = TopValues.read(in);
        }
        weightedPosInf = in.readDouble();
        weightedNonMissing = in.readDouble();
        weightedTotal = in.readDouble();
        numNan = in.readLong();
        numZeros = in.readLong();
        posInf = in.readLong();
        min = in.readDouble();
        max = in.readDouble();
        finiteMin = in.readDouble();
        finiteMax = in.readDouble();
        totalBytes = in.readLong();
        invalidUtf8 = in.readLong();
        if (byteLengths) {
            minBytes = in.readLong();
            maxBytes = in.readLong();
            weightedSteps = in.readDouble();
            weightedStepsPresent = in.readDouble();
        }
    }

    /**
     * The statistics of the feature among {@code records} records (for a feature list: the records
     * that hold the {@code ##SEQUENCE##} struct) of total weight {@code totalWeight} (used only
     * when weighted).
     */
    public FeatureNameStatistics build(long records, double totalWeight) {
        StatsOptions o = options;
        Path.Builder path = Path.newBuilder();
        if (inSequence) {
            path.addStep(ExampleStatistics.SEQUENCE);
        }
        FeatureNameStatistics.Builder f =
                FeatureNameStatistics.newBuilder().setPath(path.addStep(name));
        CommonStatistics.Builder common =
                top.common(records - top.nonMissing, o.numValuesHistogramBuckets());
        if (weighted) {
            WeightedCommonStatistics.Builder w =
                    WeightedCommonStatistics.newBuilder()
                            .setNumNonMissing(weightedNonMissing)
                            .setNumMissing(totalWeight - weightedNonMissing)
                            .setTotNumValues(weightedTotal);
            if (weightedNonMissing > 0) {
                w.setAvgNumValues(weightedTotal / weightedNonMissing);
            }
            common.setWeightedCommonStats(w);
            if (inSequence) {
                // TFDV's per nest level: the lists, then their steps
                common.addWeightedPresenceAndValencyStats(
                                weightedLevel(
                                        weightedNonMissing,
                                        totalWeight - weightedNonMissing,
                                        weightedSteps))
                        .addWeightedPresenceAndValencyStats(
                                weightedLevel(
                                        weightedStepsPresent,
                                        weightedSteps - weightedStepsPresent,
                                        weightedTotal));
            }
        }
        if (inSequence) {
            common.addPresenceAndValencyStats(steps.level(records - steps.nonMissing))
                    .addPresenceAndValencyStats(
                            stepValues.level(steps.total - stepValues.nonMissing));
            if (stepValues.nonMissing > 0) {
                levelHistograms(f, o.numValuesHistogramBuckets());
            }
        }
        if (role == StatsRole.BYTES && (kind == BYTES || kind == NONE)) {
            f.setType(FeatureNameStatistics.Type.BYTES);
            f.setBytesStats(bytes(common.build()));
            return f.build();
        }
        switch (kind) {
            case INT, FLOAT -> {
                f.setType(
                        kind == INT
                                ? FeatureNameStatistics.Type.INT
                                : FeatureNameStatistics.Type.FLOAT);
                if (role.numbersAsText(kind)) {
                    f.setStringStats(strings(common.build(), o));
                } else {
                    f.setNumStats(numeric(common.build(), o));
                }
            }
            default -> {
                // bytes, or never a kind: TFDV reports both as STRING
                f.setType(FeatureNameStatistics.Type.STRING);
                f.setStringStats(strings(common.build(), o));
            }
        }
        return f.build();
    }

    private static WeightedCommonStatistics weightedLevel(
            double nonMissing, double missing, double total) {
        WeightedCommonStatistics.Builder w =
                WeightedCommonStatistics.newBuilder()
                        .setNumNonMissing(nonMissing)
                        .setNumMissing(missing)
                        .setTotNumValues(total);
        if (nonMissing > 0) {
            w.setAvgNumValues(total / nonMissing);
        }
        return w.build();
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
        WeightedNumericStatistics plain = distribution(values, meanVar, posInf, o);
        s.setMean(plain.getMean())
                .setStdDev(plain.getStdDev())
                .setNumZeros(numZeros)
                .setMin(min)
                .setMax(max)
                .setMedian(plain.getMedian())
                .addAllHistograms(plain.getHistogramsList());
        if (weighted && !weightedValues.isEmpty()) {
            s.setWeightedNumericStats(
                    distribution(weightedValues, weightedMeanVar, weightedPosInf, o));
        }
        return s.build();
    }

    /**
     * Mean, population standard deviation, median and the STANDARD and QUANTILES histograms of
     * {@code q} (values, or values weighted by their records), as TFDV derives them from one query
     * of {@code 100 × buckets} quantiles; {@code numPosInf}: the (weighted) count of +inf.
     */
    private WeightedNumericStatistics distribution(
            Quantiles q, MeanVar mv, double numPosInf, StatsOptions o) {
        double[][] qc = q.boundaries(100 * o.numQuantilesHistogramBuckets());
        double[][] coarse = Histograms.rebin(qc[0], qc[1], 100);
        return WeightedNumericStatistics.newBuilder()
                .setMean(mv.mean)
                // Python's max(0, nan) is 0: infinite values leave no deviation
                .setStdDev(mv.stdDev())
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

    /** TFDV's bytes statistics (of {@code image_domain} features): lengths, no top values. */
    private BytesStatistics bytes(CommonStatistics common) {
        BytesStatistics.Builder b = BytesStatistics.newBuilder().setCommonStats(common);
        long leaves = inSequence ? stepValues.total : top.total;
        if (leaves > 0) {
            b.setAvgNumBytes((float) ((double) totalBytes / leaves))
                    .setMinNumBytes(minBytes)
                    .setMaxNumBytes(maxBytes)
                    .setMaxNumBytesInt(maxBytes);
        }
        return b.build();
    }

    private StringStatistics strings(CommonStatistics common, StatsOptions o) {
        StringStatistics.Builder s =
                StringStatistics.newBuilder()
                        .setCommonStats(common)
                        .setInvalidUtf8Count(invalidUtf8);
        long leaves = inSequence ? stepValues.total : top.total;
        if (leaves > 0 && totalBytes > 0) {
            s.setAvgLength((float) ((double) totalBytes / leaves));
        }
        if (kind == BYTES && !countsStrings()) {
            return s.build(); // no top-k output at all, as in TFDV
        }
        s.setUnique(distinct != null ? distinct.estimate() : counts.size());
        RankHistogram rank = ranked(counts, o, s::addTopValues);
        if (rank.getBucketsCount() > 0) {
            s.setRankHistogram(rank);
        }
        if (weighted) {
            WeightedStringStatistics.Builder w = WeightedStringStatistics.newBuilder();
            RankHistogram weightedRank = ranked(weightedCounts, o, w::addTopValues);
            if (weightedRank.getBucketsCount() > 0) {
                w.setRankHistogram(weightedRank);
            }
            s.setWeightedStringStats(w);
        }
        return s.build();
    }

    /** A value as ranked (its label's bytes, or the value itself) and its (reported) count. */
    private record Counted(byte[] value, double count) {}

    /**
     * The values of {@code table} ranked by count, then by value, both descending as TFDV breaks
     * ties (by unsigned bytes of the label; by number for categorical ints counted exactly, as
     * TFDV's exact top-k sorts Python ints); those below TFDV's threshold of 1 left out. The top
     * values go to {@code top}; returns the rank histogram.
     */
    private RankHistogram ranked(
            TopValues table, StatsOptions o, Consumer<StringStatistics.FreqAndValue> top) {
        table.compress();
        boolean floatText = kind == FLOAT && role.numbersAsText(kind);
        boolean intsByNumber = kind == INT && role.numbersAsText(kind) && distinct == null;
        List<Counted> ranked = new ArrayList<>();
        table.forEach(
                (b, off, len, count) -> {
                    if (count >= 1) {
                        byte[] v = Arrays.copyOfRange(b, off, off + len);
                        if (floatText) {
                            // tfx-bsl reports a float counted under %a as abseil prints it
                            v =
                                    NumberText.sixDigits(
                                                    NumberText.fromHex(
                                                            new String(
                                                                    v, StandardCharsets.US_ASCII)))
                                            .getBytes(StandardCharsets.US_ASCII);
                        }
                        ranked.add(new Counted(v, count));
                    }
                });
        ranked.sort(
                (a, b) -> {
                    int byCount = Double.compare(b.count(), a.count());
                    if (byCount != 0) {
                        return byCount;
                    }
                    return intsByNumber
                            ? Long.compare(number(b.value()), number(a.value()))
                            : Arrays.compareUnsigned(b.value(), a.value());
                });
        RankHistogram.Builder rank = RankHistogram.newBuilder();
        for (int i = 0; i < ranked.size(); i++) {
            if (i >= o.numTopValues() && i >= o.numRankHistogramBuckets()) {
                break;
            }
            String label = label(ranked.get(i).value());
            double count = ranked.get(i).count();
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

    private static long number(byte[] decimal) {
        return Long.parseLong(new String(decimal, StandardCharsets.US_ASCII));
    }

    private static String label(byte[] v) {
        return Utf8.valid(v, 0, v.length) ? new String(v, StandardCharsets.UTF_8) : NON_UTF8;
    }

    private static String kindName(int k) {
        return switch (k) {
            case INT -> "int64";
            case FLOAT -> "float";
            default -> "bytes";
        };
    }
}
