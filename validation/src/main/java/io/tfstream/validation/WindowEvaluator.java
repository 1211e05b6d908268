package io.tfstream.validation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tensorflow.metadata.v0.AnomalyInfo.Type;
import org.tensorflow.metadata.v0.DatasetConstraints;

/**
 * Tier W: the reasons TFDV's {@code validate_statistics} gives for a window's statistics that one
 * record cannot decide, plus a roll-up of every per-record reason. Presence ({@code
 * feature_util.cc::UpdatePresence}), absent required features ({@code SCHEMA_MISSING_COLUMN}: the
 * decoder has no schema, so a feature nobody had has no statistics), shape presence, {@code
 * min_domain_mass}, unique counts ({@code UpdateUniqueConstraints}, unset bounds unbounded) and
 * {@code dataset_constraints} ({@code UpdateDatasetConstraints}; max checked without min, and an
 * empty window reports its 0 examples: differences 5 and 6 of
 * docs/validation.md#where-tfstream-differs-from-tfdv).
 */
public final class WindowEvaluator {
    private WindowEvaluator() {}

    /** The findings of a closed window, window-level reasons first per feature, then roll-ups. */
    public static List<WindowFinding> evaluate(WindowAccumulator a) {
        ValidationSchema schema = a.schema;
        List<WindowFinding> out = new ArrayList<>();
        long n = a.numExamples;
        if (n > 0) {
            for (FeatureRule r : schema.rules()) {
                if (!r.skipped && r != schema.sequenceStruct()) {
                    feature(r, a.stats[r.index], n, out);
                }
            }
        }
        WindowRollUps.findings(a, out);
        dataset(schema, n, out);
        return onePerPathAndType(out);
    }

    /**
     * The findings without those whose (path, type) came before: a feature absent from a whole
     * window is both the window's {@code SCHEMA_MISSING_COLUMN} and the roll-up of the per-record
     * one, but an alert (and its id) is one per window, path and type. The window-level finding
     * comes first and is kept.
     */
    static List<WindowFinding> onePerPathAndType(List<WindowFinding> findings) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        List<WindowFinding> out = new ArrayList<>(findings.size());
        for (WindowFinding w : findings) {
            Finding f = w.finding();
            String key = (f.path() == null ? "" : f.path().serialized()) + '\0' + f.type();
            if (seen.add(key)) {
                out.add(w);
            }
        }
        return out;
    }

    private static void feature(FeatureRule r, FeatureStats s, long n, List<WindowFinding> out) {
        if (s.present == 0) {
            if (r.existenceRequired) {
                add(
                        out,
                        r,
                        Type.SCHEMA_MISSING_COLUMN,
                        "Column is completely missing",
                        n,
                        n,
                        Map.of("num_present", 0L),
                        expected(r));
            }
            return;
        }
        long missing = n - s.present;
        boolean lowFraction = false;
        if (r.hasMinCount && s.present < r.minCount) {
            add(
                    out,
                    r,
                    Type.FEATURE_TYPE_LOW_NUMBER_PRESENT,
                    "The feature was present in fewer examples than expected: minimum count = "
                            + r.minCount
                            + ", actual = "
                            + s.present,
                    missing,
                    n,
                    Map.of("num_present", s.present),
                    Map.of("presence.min_count", r.minCount));
        }
        double fraction = missing == 0 ? 1.0 : (double) s.present / n;
        if (r.hasMinFraction && fraction < r.minFraction) {
            lowFraction = true;
            add(
                    out,
                    r,
                    Type.FEATURE_TYPE_LOW_FRACTION_PRESENT,
                    "The feature was present in fewer examples than expected: minimum fraction = "
                            + TfdvFormat.fixed6(r.minFraction)
                            + ", actual = "
                            + TfdvFormat.fixed6(fraction),
                    missing,
                    n,
                    Map.of("fraction_present", fraction),
                    Map.of("presence.min_fraction", r.minFraction));
        }
        if (!lowFraction && r.hasMinFraction && r.minFraction >= 1.0 && missing != 0) {
            add(
                    out,
                    r,
                    Type.FEATURE_TYPE_LOW_FRACTION_PRESENT,
                    "The feature was expected everywhere, but was missing in "
                            + missing
                            + " examples.",
                    missing,
                    n,
                    Map.of("num_missing", missing),
                    Map.of("presence.min_fraction", r.minFraction));
        }
        if (r.proto.hasShape() && missing != 0) {
            add(
                    out,
                    r,
                    Type.INVALID_FEATURE_SHAPE,
                    AnomalyText.SHAPE_NOT_ALWAYS_PRESENT,
                    missing,
                    n,
                    Map.of("num_missing", missing),
                    Map.of());
        }
        if (r.stringDomain != null && r.maxOffDomain > 0 && s.inDomain + s.outDomain > 0) {
            double off = (double) s.outDomain / (s.inDomain + s.outDomain);
            if (off > r.maxOffDomain) {
                out.add(WindowRollUps.offDomain(r, s, off, n));
            }
        }
        if (r.hasUniqueConstraints() && s.values != null) {
            uniques(r, s, n, out);
        }
    }

    private static void uniques(FeatureRule r, FeatureStats s, long n, List<WindowFinding> out) {
        long unique = s.values.size();
        var u = r.proto.getUniqueConstraints();
        Map<String, Object> observed =
                Map.of("unique", unique, "unique_exact", s.values.overflow() == 0);
        if (u.hasMin() && unique < u.getMin() && s.values.overflow() == 0) {
            add(
                    out,
                    r,
                    Type.FEATURE_TYPE_LOW_UNIQUE,
                    "Expected at least "
                            + u.getMin()
                            + " unique values but found only "
                            + unique
                            + ".",
                    n,
                    n,
                    observed,
                    Map.of("unique_constraints.min", u.getMin()));
        }
        if (u.hasMax() && unique > u.getMax()) {
            add(
                    out,
                    r,
                    Type.FEATURE_TYPE_HIGH_UNIQUE,
                    "Expected no more than "
                            + u.getMax()
                            + " unique values but found "
                            + unique
                            + ".",
                    n,
                    n,
                    observed,
                    Map.of("unique_constraints.max", u.getMax()));
        }
    }

    private static void dataset(ValidationSchema schema, long n, List<WindowFinding> out) {
        if (!schema.schema().hasDatasetConstraints()) {
            return;
        }
        DatasetConstraints d = schema.schema().getDatasetConstraints();
        if (d.hasMinExamplesCount() && n < d.getMinExamplesCount()) {
            out.add(
                    dataset(
                            Type.DATASET_LOW_NUM_EXAMPLES,
                            "The dataset has " + n + " examples, which is fewer than expected.",
                            n,
                            "min_examples_count",
                            d.getMinExamplesCount()));
        }
        if (d.hasMaxExamplesCount() && n > d.getMaxExamplesCount()) {
            out.add(
                    dataset(
                            Type.DATASET_HIGH_NUM_EXAMPLES,
                            "The dataset has " + n + " examples, which is more than expected.",
                            n,
                            "max_examples_count",
                            d.getMaxExamplesCount()));
        }
    }

    private static WindowFinding dataset(Type t, String text, long n, String setting, long limit) {
        Finding f = new Finding(null, t, AnomalyText.shortDescription(t), text, List.of());
        return new WindowFinding(
                f,
                AlertScope.DATASET,
                n,
                Long.MAX_VALUE,
                Long.MIN_VALUE,
                List.of(),
                Map.of("num_examples", n),
                Map.of("dataset_constraints." + setting, limit),
                null);
    }

    private static Map<String, Object> expected(FeatureRule r) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (r.hasMinCount) {
            m.put("presence.min_count", r.minCount);
        }
        if (r.hasMinFraction) {
            m.put("presence.min_fraction", r.minFraction);
        }
        return m;
    }

    private static void add(
            List<WindowFinding> out,
            FeatureRule r,
            Type t,
            String text,
            long affected,
            long n,
            Map<String, Object> observed,
            Map<String, Object> expected) {
        Finding f = new Finding(r.path, t, AnomalyText.shortDescription(t), text, List.of());
        out.add(
                new WindowFinding(
                        f,
                        AlertScope.WINDOW,
                        affected,
                        Long.MAX_VALUE,
                        Long.MIN_VALUE,
                        List.of(),
                        observed,
                        expected,
                        null));
    }
}
