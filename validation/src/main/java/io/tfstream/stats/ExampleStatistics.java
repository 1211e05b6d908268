package io.tfstream.stats;

import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.annotation.PublicEvolving;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.metadata.v0.DatasetFeatureStatistics;

/**
 * The statistics of a set of {@code tf.train.Example} records as TFDV computes them ({@code
 * tfdv.generate_statistics_from_tfrecord}, schema-less): per feature its common statistics
 * (presence, value counts and their quantiles histogram), numeric statistics for int64 and float
 * features (mean, population standard deviation, zeros, min, median, max, the STANDARD and
 * QUANTILES histograms) and string statistics for bytes features (unique values, top values and
 * rank histogram by occurrence, average length in bytes, values that are not UTF-8).
 *
 * <p>Exact: quantiles come from every distinct value (TFDV's sketch is exact up to about 5 700
 * distinct values and within its epsilon of 0.01 above), and unique values and their counts are
 * counted as TFDV's Beam pipeline does. Memory grows with the distinct values of each feature.
 * Features are ordered by name.
 */
@PublicEvolving
public final class ExampleStatistics {
    private final StatsOptions options;
    private final Map<String, FeatureAccumulator> features = new TreeMap<>();
    private long numExamples;

    public ExampleStatistics(StatsOptions options) {
        this.options = options;
    }

    /**
     * Adds one record.
     *
     * @throws IllegalArgumentException when a feature holds values of another kind than before
     */
    public void add(Example example) {
        numExamples++;
        for (Map.Entry<String, Feature> e : example.getFeatures().getFeatureMap().entrySet()) {
            features.computeIfAbsent(e.getKey(), FeatureAccumulator::new).add(e.getValue());
        }
    }

    /** Records added. */
    public long numExamples() {
        return numExamples;
    }

    /** The statistics of the records added, as the dataset {@code name} ("" for none). */
    public DatasetFeatureStatistics build(String name) {
        DatasetFeatureStatistics.Builder d =
                DatasetFeatureStatistics.newBuilder().setName(name).setNumExamples(numExamples);
        for (FeatureAccumulator f : features.values()) {
            d.addFeatures(f.build(numExamples, options));
        }
        return d.build();
    }
}
