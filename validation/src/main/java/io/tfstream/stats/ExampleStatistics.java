package io.tfstream.stats;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.annotation.PublicEvolving;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.FeatureList;
import org.tensorflow.example.Features;
import org.tensorflow.example.SequenceExample;
import org.tensorflow.metadata.v0.DatasetFeatureStatistics;
import org.tensorflow.metadata.v0.FeatureNameStatistics;
import org.tensorflow.metadata.v0.Path;
import org.tensorflow.metadata.v0.Schema;
import org.tensorflow.metadata.v0.StructStatistics;

/**
 * The statistics of a set of {@code tf.train.Example} records as TFDV computes them ({@code
 * tfdv.generate_statistics_from_tfrecord}, schema-less): per feature its common statistics
 * (presence, value counts and their quantiles histogram), numeric statistics for int64 and float
 * features (mean, population standard deviation, zeros, min, median, max, the STANDARD and
 * QUANTILES histograms) and string statistics for bytes features (unique values, top values and
 * rank histogram by occurrence, average length in bytes, values that are not UTF-8).
 *
 * <p>Quantiles come from TFDV's own sketch with its epsilon ({@link StatsOptions#epsilon()}, exact
 * up to its first buffer of 11 402 values, within epsilon × the total weight of the rank above;
 * exact at any size with epsilon 0); unique values and their counts are counted exactly as TFDV's
 * Beam pipeline does, or, with {@link StatsOptions#sketchTopValues()}, from TFDV's Misra-Gries and
 * KMV sketches, which bound memory. Features are ordered by name, a SequenceExample's feature lists
 * last, under the {@value #SEQUENCE} struct as TFDV puts them.
 */
@PublicEvolving
public final class ExampleStatistics {
    /** The struct TFDV puts a SequenceExample's feature lists under. */
    public static final String SEQUENCE = "##SEQUENCE##";

    private final StatsOptions options;
    private final String weightFeature;
    private final Map<String, StatsRole> roles;
    private final boolean strict;
    private double weightedNumExamples;

    /** By name; sorted where order matters (build, write). */
    private final Map<String, FeatureAccumulator> features = new java.util.HashMap<>();

    private final Map<String, FeatureAccumulator> featureLists = new TreeMap<>();
    private long numExamples;
    private boolean sequences;
    private SerializedExample wire;

    /** The accumulators of {@link #wire}'s name ids (cleared when accumulators are replaced). */
    private FeatureAccumulator[] byId = new FeatureAccumulator[0];

    private long[] counts = new long[16];

    public ExampleStatistics(StatsOptions options) {
        this(options, null);
    }

    /**
     * Statistics weighted by {@code weightFeature} as well (TFDV's {@code weight_feature}: each
     * record holds it with exactly one numeric value); null for none.
     */
    public ExampleStatistics(StatsOptions options, String weightFeature) {
        this(options, weightFeature, Map.of());
    }

    /**
     * Statistics as TFDV computes them with a schema: {@code roles} ({@link StatsRole#of(Schema)})
     * by feature name, a feature list's under {@code ##SEQUENCE##.<name>}.
     *
     * @throws IllegalArgumentException for a categorical float feature without sketched top values
     *     (TFDV refuses that schema then too)
     */
    public ExampleStatistics(
            StatsOptions options, String weightFeature, Map<String, StatsRole> roles) {
        this(options, weightFeature, roles, true);
    }

    private ExampleStatistics(
            StatsOptions options,
            String weightFeature,
            Map<String, StatsRole> roles,
            boolean strict) {
        this.options = options;
        this.weightFeature = weightFeature;
        this.roles = Map.copyOf(roles);
        this.strict = strict;
        if (!options.sketchTopValues() && roles.containsValue(StatsRole.CATEGORICAL_FLOAT)) {
            throw new IllegalArgumentException(
                    "categorical float features in the schema need sketched top values"
                            + " (TFDV: use_sketch_based_topk_uniques)");
        }
    }

    /**
     * Statistics of records a running job has already accepted, which must never stop it: a record
     * without exactly one value of {@code weightFeature} weighs 0, and a feature's values of
     * another kind than its first are left out (TFDV would stop at both).
     */
    public static ExampleStatistics lenient(
            StatsOptions options, String weightFeature, Map<String, StatsRole> roles) {
        return new ExampleStatistics(options, weightFeature, roles, false);
    }

    /**
     * Adds one record.
     *
     * @throws IllegalArgumentException when a feature holds values of another kind than before
     */
    public void add(Example example) {
        double w = weightOf(example.getFeatures());
        numExamples++;
        weightedNumExamples += w;
        add(example.getFeatures(), w);
    }

    /**
     * Adds one serialized Example, its features read straight from the bytes where they are
     * unambiguous ({@link SerializedExample}), else parsed by protobuf: the same statistics either
     * way, without building the message for most records.
     *
     * @throws InvalidProtocolBufferException when protobuf cannot parse it
     * @throws IllegalArgumentException as {@link #add(Example)}
     */
    public void addSerialized(byte[] record) throws InvalidProtocolBufferException {
        if (wire == null) {
            wire = new SerializedExample();
        }
        SerializedExample r = wire;
        if (!r.scan(record) || !countAll(r)) {
            add(Example.parseFrom(record));
            return;
        }
        double w = 1;
        if (weightFeature != null) {
            w = Double.NaN;
            for (int i = 0; i < r.count; i++) {
                if (r.names[i].equals(weightFeature)) {
                    w = r.single(i);
                }
            }
            if (Double.isNaN(w)) {
                w = noWeight();
            }
        }
        numExamples++;
        weightedNumExamples += w;
        if (byId.length < r.names()) {
            byId = java.util.Arrays.copyOf(byId, Math.max(r.names(), byId.length * 2));
        }
        for (int i = 0; i < r.count; i++) {
            FeatureAccumulator a = byId[r.ids[i]];
            if (a == null) {
                a = features.computeIfAbsent(r.names[i], this::newFeature);
                byId[r.ids[i]] = a;
            }
            if (a.present(r.kinds[i], counts[i], w)) {
                r.feed(i, a);
            }
        }
    }

    /** Counts every feature's values of {@code r}; false when one is not a plain list. */
    private boolean countAll(SerializedExample r) {
        if (counts.length < r.count) {
            counts = new long[r.names.length];
        }
        for (int i = 0; i < r.count; i++) {
            counts[i] = r.kinds[i] == FeatureAccumulator.NONE ? 0 : r.values(i);
            if (counts[i] < 0) {
                return false;
            }
        }
        return true;
    }

    /** The weight of a record without one value of the weight feature: 0, or (strict) none. */
    private double noWeight() {
        if (!strict) {
            return 0;
        }
        throw new IllegalArgumentException(
                "record "
                        + numExamples
                        + ": the weight feature '"
                        + weightFeature
                        + "' must hold exactly one int64 or float value");
    }

    private FeatureAccumulator newFeature(String name) {
        return new FeatureAccumulator(
                name,
                false,
                options,
                weightFeature != null,
                strict,
                roles.getOrDefault(name, StatsRole.PLAIN));
    }

    /** The record's weight: its weight feature's one value (1 without a weight feature). */
    private double weightOf(Features f) {
        if (weightFeature == null) {
            return 1;
        }
        Feature w = f.getFeatureOrDefault(weightFeature, Feature.getDefaultInstance());
        double value;
        if (w.getInt64List().getValueCount() == 1) {
            value = w.getInt64List().getValue(0);
        } else if (w.getFloatList().getValueCount() == 1) {
            value = w.getFloatList().getValue(0);
        } else {
            value = noWeight();
        }
        return value;
    }

    /**
     * Adds one SequenceExample: its context features as an Example's, its feature lists as the
     * children of the {@value #SEQUENCE} struct (two nesting levels: steps, values per step).
     *
     * @throws IllegalArgumentException when a feature holds values of another kind than before
     */
    public void add(SequenceExample example) {
        double w = weightOf(example.getContext());
        numExamples++;
        weightedNumExamples += w;
        add(example.getContext(), w);
        if (example.hasFeatureLists()) {
            sequences = true;
        }
        for (Map.Entry<String, FeatureList> e :
                example.getFeatureLists().getFeatureListMap().entrySet()) {
            featureLists
                    .computeIfAbsent(
                            e.getKey(),
                            k ->
                                    new FeatureAccumulator(
                                            k,
                                            true,
                                            options,
                                            weightFeature != null,
                                            strict,
                                            roles.getOrDefault(
                                                    SEQUENCE + "." + k, StatsRole.PLAIN)))
                    .add(e.getValue(), w);
        }
    }

    private void add(Features f, double w) {
        for (Map.Entry<String, Feature> e : f.getFeatureMap().entrySet()) {
            features.computeIfAbsent(e.getKey(), this::newFeature).add(e.getValue(), w);
        }
    }

    /** Records added. */
    public long numExamples() {
        return numExamples;
    }

    /**
     * Adds everything {@code other} (with the same options and weight feature) counted, as if its
     * records had been added after these.
     */
    public void merge(ExampleStatistics other) {
        numExamples += other.numExamples;
        weightedNumExamples += other.weightedNumExamples;
        sequences |= other.sequences;
        byId = new FeatureAccumulator[0];
        mergeInto(features, other.features);
        mergeInto(featureLists, other.featureLists);
    }

    private static void mergeInto(
            Map<String, FeatureAccumulator> to, Map<String, FeatureAccumulator> from) {
        for (Map.Entry<String, FeatureAccumulator> e : from.entrySet()) {
            FeatureAccumulator mine = to.get(e.getKey());
            if (mine == null) {
                to.put(e.getKey(), e.getValue());
            } else {
                mine.merge(e.getValue());
            }
        }
    }

    /**
     * Writes what was added (not the options, weight feature or roles, which the reader supplies):
     * counts, then each feature's name and accumulator, context features before feature lists.
     */
    public void write(DataOutput out) throws IOException {
        out.writeLong(numExamples);
        out.writeDouble(weightedNumExamples);
        out.writeBoolean(sequences);
        writeAll(out, features);
        writeAll(out, featureLists);
    }

    private static void writeAll(DataOutput out, Map<String, FeatureAccumulator> all)
            throws IOException {
        out.writeInt(all.size());
        for (Map.Entry<String, FeatureAccumulator> e : new TreeMap<>(all).entrySet()) {
            out.writeUTF(e.getKey());
            e.getValue().write(out);
        }
    }

    /**
     * Reads what {@link #write} wrote into these empty statistics, which must have been built as
     * the writer's were.
     *
     * @throws IOException for a negative count or more features than {@code maxFeatures}
     */
    public void read(DataInput in, int maxFeatures) throws IOException {
        if (numExamples != 0 || !features.isEmpty() || !featureLists.isEmpty()) {
            throw new IllegalStateException("read into statistics that are not empty");
        }
        numExamples = in.readLong();
        weightedNumExamples = in.readDouble();
        sequences = in.readBoolean();
        readAll(in, maxFeatures, features, false);
        readAll(in, maxFeatures, featureLists, true);
    }

    private void readAll(
            DataInput in, int max, Map<String, FeatureAccumulator> into, boolean inSequence)
            throws IOException {
        int n = in.readInt();
        if (n < 0 || n > max) {
            throw new IOException("bad feature count " + n + " in statistics bytes");
        }
        for (int i = 0; i < n; i++) {
            String name = in.readUTF();
            FeatureAccumulator a =
                    new FeatureAccumulator(
                            name,
                            inSequence,
                            options,
                            weightFeature != null,
                            strict,
                            roles.getOrDefault(
                                    inSequence ? SEQUENCE + "." + name : name, StatsRole.PLAIN));
            a.read(in);
            into.put(name, a);
        }
    }

    /** The statistics of the records added, as the dataset {@code name} ("" for none). */
    public DatasetFeatureStatistics build(String name) {
        return dataset(
                name,
                numExamples,
                weightFeature == null ? Double.NaN : weightedNumExamples,
                new TreeMap<>(features).values(),
                sequences ? featureLists.values() : null,
                options);
    }

    /**
     * A dataset's statistics from its features' accumulators: {@code features} in order, then, when
     * {@code featureLists} is not null, the {@value #SEQUENCE} struct and the feature lists under
     * it.
     *
     * @param weightedNumExamples the records' total weight, NaN without weights
     */
    public static DatasetFeatureStatistics dataset(
            String name,
            long numExamples,
            double weightedNumExamples,
            Collection<FeatureAccumulator> features,
            Collection<FeatureAccumulator> featureLists,
            StatsOptions options) {
        DatasetFeatureStatistics.Builder d =
                DatasetFeatureStatistics.newBuilder().setName(name).setNumExamples(numExamples);
        if (!Double.isNaN(weightedNumExamples)) {
            d.setWeightedNumExamples(weightedNumExamples);
        }
        for (FeatureAccumulator f : features) {
            d.addFeatures(f.build(numExamples, weightedNumExamples));
        }
        if (featureLists != null) {
            d.addFeatures(sequenceStruct(numExamples, weightedNumExamples, options));
            for (FeatureAccumulator f : featureLists) {
                // the struct is in every record: its weight is the records' (TFDV's parent total)
                d.addFeatures(f.build(numExamples, weightedNumExamples));
            }
        }
        return d.build();
    }

    /**
     * The statistics of the {@value #SEQUENCE} struct among {@code numExamples} SequenceExamples:
     * in every record (never null), a list of one.
     */
    public static FeatureNameStatistics sequenceStruct(long numExamples, StatsOptions options) {
        return sequenceStruct(numExamples, Double.NaN, options);
    }

    /**
     * The same of SequenceExamples of total weight {@code weight} (NaN: unweighted): weighted, a
     * list of one in every record.
     */
    public static FeatureNameStatistics sequenceStruct(
            long numExamples, double weight, StatsOptions options) {
        Presence struct = new Presence(0);
        struct.add(1, numExamples);
        var common = struct.common(0, options.numValuesHistogramBuckets());
        if (!Double.isNaN(weight)) {
            var w =
                    org.tensorflow.metadata.v0.WeightedCommonStatistics.newBuilder()
                            .setNumNonMissing(weight)
                            .setTotNumValues(weight);
            if (weight > 0) {
                w.setAvgNumValues(1);
            }
            common.setWeightedCommonStats(w);
        }
        return FeatureNameStatistics.newBuilder()
                .setPath(Path.newBuilder().addStep(SEQUENCE))
                .setType(FeatureNameStatistics.Type.STRUCT)
                .setStructStats(StructStatistics.newBuilder().setCommonStats(common))
                .build();
    }
}
