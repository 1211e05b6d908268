package io.tfstream.validation;

import org.tensorflow.metadata.v0.AnomalyInfo.Type;

/**
 * Per-record sparse and weighted feature checks: TFDV's {@code Schema::UpdateSparseFeature} and
 * {@code UpdateWeightedFeature} over the custom statistics that {@code
 * sparse_feature_stats_generator} / {@code weighted_feature_stats_generator} compute for a
 * one-record batch (only when some component is present; an absent component has length 0).
 */
final class CompositeChecks {
    private CompositeChecks() {}

    static void check(SparseRule s, RecordFeatures f, RecordResult out) {
        if (s.skipped()) {
            return;
        }
        boolean valuePresent = s.valueRule() >= 0 && f.present(s.valueRule());
        boolean any = valuePresent;
        for (int idx : s.indices()) {
            any |= idx >= 0 && f.present(idx);
        }
        if (!any) {
            return;
        }
        long valueLength = valuePresent ? f.count(s.valueRule()) : 0;
        int id = s.pathId();
        if (s.weighted()) {
            int w = s.indices()[0];
            boolean weightPresent = w >= 0 && f.present(w);
            if (!valuePresent) {
                out.set(out.add(id, Type.WEIGHTED_FEATURE_MISSING_VALUE), 0, 1, 0, 0, 0);
            }
            if (!weightPresent) {
                out.set(out.add(id, Type.WEIGHTED_FEATURE_MISSING_WEIGHT), 0, 1, 0, 0, 0);
            }
            long diff = (weightPresent ? f.count(w) : 0) - valueLength;
            if (diff != 0) {
                out.set(out.add(id, Type.WEIGHTED_FEATURE_LENGTH_MISMATCH), 0, diff, diff, 0, 0);
            }
            return;
        }
        if (!valuePresent) {
            out.set(out.add(id, Type.SPARSE_FEATURE_MISSING_VALUE), 0, 1, 0, 0, 0);
        }
        int[] idx = s.indices();
        for (int k = 0; k < idx.length; k++) {
            if (idx[k] < 0 || !f.present(idx[k])) {
                out.set(out.add(id, Type.SPARSE_FEATURE_MISSING_INDEX), k, 1, 0, 0, 0);
            }
        }
        for (int minPass = 0; minPass < 2; minPass++) {
            for (int k = 0; k < idx.length; k++) {
                long diff = (idx[k] >= 0 && f.present(idx[k]) ? f.count(idx[k]) : 0) - valueLength;
                if (diff != 0) {
                    out.set(
                            out.add(id, Type.SPARSE_FEATURE_LENGTH_MISMATCH),
                            k,
                            diff,
                            minPass,
                            0,
                            0);
                }
            }
        }
    }
}
