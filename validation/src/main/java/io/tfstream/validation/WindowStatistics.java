package io.tfstream.validation;

import io.tfstream.stats.ExampleStatistics;
import io.tfstream.stats.StatsOptions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.tensorflow.metadata.v0.DatasetFeatureStatistics;
import org.tensorflow.metadata.v0.FeatureNameStatistics;

/**
 * TFDV's statistics of a window, from the {@link WindowAccumulator}s of its feature-path splits:
 * each split gives the features it keeps ({@link #part}), and the parts of all splits together are
 * the window's {@code DatasetFeatureStatistics} ({@link #assemble}): features ordered as {@code
 * tfstream stats} orders them, a sequence schema's feature lists under the {@code ##SEQUENCE##}
 * struct after the context features. The records counted are those that could be read.
 */
public final class WindowStatistics {
    private WindowStatistics() {}

    /** Whether {@code a} keeps TFDV's statistics (its schema's options ask for them). */
    public static boolean kept(WindowAccumulator a) {
        return a.schema.options().statistics() != null;
    }

    /**
     * The statistics of the features split {@code split} of {@code splits} keeps and some record
     * held, one dataset per data split ({@link ValidationOptions#statisticsSplits()}, named after
     * it; one dataset named "" without data splits), each holding only them (and the window's, or
     * the data split's, example count).
     */
    public static List<DatasetFeatureStatistics> parts(WindowAccumulator a, int split, int splits) {
        List<String> names = a.schema.options().statisticsSplits();
        List<DatasetFeatureStatistics> parts = new ArrayList<>();
        for (int d = 0; d < a.schema.options().statisticsDatasets(); d++) {
            parts.add(part(a, split, splits, d, names.isEmpty() ? "" : names.get(d)));
        }
        return parts;
    }

    /**
     * The statistics of the features split {@code split} of {@code splits} keeps and some record
     * held, as a dataset named {@code name} holding only them (and the window's example count).
     */
    public static DatasetFeatureStatistics part(
            WindowAccumulator a, int split, int splits, String name) {
        return part(a, split, splits, 0, name);
    }

    private static DatasetFeatureStatistics part(
            WindowAccumulator a, int split, int splits, int dataset, String name) {
        long examples = a.examplesOf(dataset);
        double weight = a.weightOf(dataset);
        DatasetFeatureStatistics.Builder d =
                DatasetFeatureStatistics.newBuilder().setName(name).setNumExamples(examples);
        if (!Double.isNaN(weight)) {
            d.setWeightedNumExamples(weight);
        }
        for (FeatureRule r : a.schema.rules()) {
            FeatureStats s = a.stats[r.index];
            if (s.tfdv != null
                    && !s.tfdv[dataset].isEmpty()
                    && WindowSplits.splitOf(r.path, splits) == split) {
                d.addFeatures(s.tfdv[dataset].build(examples, weight));
            }
        }
        return d.build();
    }

    /**
     * The window's statistics from the parts of its splits (each holding the window's example
     * count), as a dataset named {@code name}.
     */
    public static DatasetFeatureStatistics assemble(
            List<DatasetFeatureStatistics> parts, String name, StatsOptions options) {
        long examples = 0;
        double weight = 0; // proto3: 0 is unset, as without weights
        List<FeatureNameStatistics> features = new ArrayList<>();
        for (DatasetFeatureStatistics p : parts) {
            examples = Math.max(examples, p.getNumExamples());
            weight = Math.max(weight, p.getWeightedNumExamples()); // each part holds the dataset's
            features.addAll(p.getFeaturesList());
        }
        features.sort(
                Comparator.comparing((FeatureNameStatistics f) -> f.getPath().getStepCount())
                        .thenComparing(f -> String.join(".", f.getPath().getStepList())));
        DatasetFeatureStatistics.Builder d =
                DatasetFeatureStatistics.newBuilder().setName(name).setNumExamples(examples);
        d.setWeightedNumExamples(weight);
        boolean struct = false;
        for (FeatureNameStatistics f : features) {
            if (f.getPath().getStepCount() > 1 && !struct) {
                d.addFeatures(
                        ExampleStatistics.sequenceStruct(
                                examples, weight > 0 ? weight : Double.NaN, options));
                struct = true;
            }
            d.addFeatures(f);
        }
        return d.build();
    }
}
