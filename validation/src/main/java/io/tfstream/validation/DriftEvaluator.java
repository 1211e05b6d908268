package io.tfstream.validation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.tensorflow.metadata.v0.AnomalyInfo.Type;
import org.tensorflow.metadata.v0.DriftSkewInfo;

/**
 * Tier C: each feature's {@code drift_comparator} between the current window and a control window
 * (the previous non-empty one; difference 7 of
 * docs/validation.md#where-tfstream-differs-from-tfdv), as TFDV's {@code
 * UpdateFeatureComparatorDirect} (treatment {@code current}, control {@code previous}): L-infinity,
 * then Jensen-Shannon; an anomaly when the measurement is strictly above the threshold; every
 * measurement reported. A comparator is skipped when either side has fewer than {@code
 * minDriftExamples} examples with the feature (JSD and L-infinity of small samples are large by
 * chance).
 */
public final class DriftEvaluator {
    private DriftEvaluator() {}

    /** The outcome: findings (anomalies and measurements) and TFDV's {@code drift_skew_info}. */
    public record Result(
            List<WindowFinding> findings,
            List<DriftSkewInfo> driftSkewInfo,
            List<FeaturePath> skipped) {}

    public static Result compare(WindowAccumulator current, WindowAccumulator previous) {
        ValidationSchema schema = current.schema;
        long min = schema.options().minDriftExamples();
        List<WindowFinding> findings = new ArrayList<>();
        List<DriftSkewInfo> infos = new ArrayList<>();
        List<FeaturePath> skipped = new ArrayList<>();
        for (FeatureRule r : schema.rules()) {
            if (r.skipped || (Double.isNaN(r.lInfThreshold) && Double.isNaN(r.jsdThreshold))) {
                continue;
            }
            FeatureStats cur = current.stats[r.index];
            FeatureStats prev = previous.stats[r.index];
            if (cur.present < Math.max(1, min) || prev.present < Math.max(1, min)) {
                skipped.add(r.path);
                continue;
            }
            DriftSkewInfo.Builder info = DriftSkewInfo.newBuilder().setPath(r.path.toProto());
            if (!Double.isNaN(r.lInfThreshold)) {
                double d = 0;
                String value = "";
                if (cur.values != null) {
                    Object[] l = Divergences.lInfinity(cur.values, prev.values);
                    d = (Double) l[0];
                    value = (String) l[1];
                }
                measure(
                        r,
                        info,
                        findings,
                        DriftSkewInfo.Measurement.Type.L_INFTY,
                        d,
                        r.lInfThreshold,
                        Type.COMPARATOR_L_INFTY_HIGH,
                        "The Linfty distance between current and previous is "
                                + TfdvFormat.sixDigits(d)
                                + " (up to six significant digits), above the threshold "
                                + TfdvFormat.sixDigits(r.lInfThreshold)
                                + ". The feature value with maximum difference is: "
                                + value);
            }
            if (!Double.isNaN(r.jsdThreshold)) {
                double d =
                        cur.values != null
                                ? Divergences.jensenShannon(cur.values, prev.values)
                                : cur.histogram != null
                                        ? Divergences.jensenShannon(cur.histogram, prev.histogram)
                                        : Double.NaN;
                if (!Double.isNaN(d)) {
                    measure(
                            r,
                            info,
                            findings,
                            DriftSkewInfo.Measurement.Type.JENSEN_SHANNON_DIVERGENCE,
                            d,
                            r.jsdThreshold,
                            Type.COMPARATOR_JENSEN_SHANNON_DIVERGENCE_HIGH,
                            "The approximate Jensen-Shannon divergence between current and previous is "
                                    + TfdvFormat.sixDigits(d)
                                    + " (up to six significant digits), above the threshold "
                                    + TfdvFormat.sixDigits(r.jsdThreshold)
                                    + ".");
                }
            }
            if (info.getDriftMeasurementsCount() > 0) {
                infos.add(info.build());
            }
        }
        return new Result(findings, infos, skipped);
    }

    private static void measure(
            FeatureRule r,
            DriftSkewInfo.Builder info,
            List<WindowFinding> findings,
            DriftSkewInfo.Measurement.Type mt,
            double value,
            double threshold,
            Type anomaly,
            String text) {
        DriftSkewInfo.Measurement m =
                DriftSkewInfo.Measurement.newBuilder()
                        .setType(mt)
                        .setValue(value)
                        .setThreshold(threshold)
                        .build();
        info.addDriftMeasurements(m);
        if (value > threshold) {
            Finding f =
                    new Finding(
                            r.path,
                            anomaly,
                            AnomalyText.shortDescription(anomaly),
                            text,
                            List.of());
            findings.add(
                    new WindowFinding(
                            f,
                            AlertScope.DRIFT,
                            0,
                            Long.MAX_VALUE,
                            Long.MIN_VALUE,
                            List.of(),
                            Map.of(mt.name().toLowerCase(java.util.Locale.ROOT), value),
                            Map.of("threshold", threshold),
                            m));
        }
    }
}
