package io.tfstream.validation;

import io.tfstream.tensor.BytesBuffer;
import io.tfstream.tensor.Float32Buffer;
import io.tfstream.tensor.Int64Buffer;
import org.tensorflow.metadata.v0.AnomalyInfo.Type;

/**
 * Per-record {@code int_domain} and {@code float_domain} checks: TFDV's {@code
 * int_domain_util.cc::UpdateIntDomain} and {@code float_domain_util.cc::UpdateFloatDomain} over the
 * values of one record. The interval is taken over the actual values (difference 4 of
 * docs/validation.md#where-tfstream-differs-from-tfdv: an empty or NaN-only list has no interval
 * and is not range-checked). INT data under a float domain and FLOAT data under an int domain are
 * not checked, as in TFDV.
 */
final class NumericDomainChecks {
    private NumericDomainChecks() {}

    static void intDomain(FeatureRule r, RecordFeatures f, RecordResult out, long[] scratch) {
        int rule = r.index;
        boolean any = false;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        Int64Buffer ints = f.values.int64s();
        for (int k = f.fromI[rule]; k < f.toI[rule]; k++) {
            long v = ints.get(k);
            min = Math.min(min, v);
            max = Math.max(max, v);
            any = true;
        }
        BytesBuffer bytes = f.values.bytes();
        int[] offs = bytes.offsets();
        int bad = -1;
        for (int k = f.fromB[rule]; k < f.toB[rule]; k++) {
            if (WireText.parseLong(bytes.data(), offs[k], offs[k + 1], scratch)) {
                min = Math.min(min, scratch[0]);
                max = Math.max(max, scratch[0]);
                any = true;
            } else if (bad < 0 || StringDomainChecks.lessThan(bytes, k, bad)) {
                bad = k;
            }
        }
        if (bad >= 0) {
            int i = out.add(rule, Type.INT_TYPE_NOT_INT_STRING);
            out.sample(i, bytes.data(), offs[bad], offs[bad + 1] - offs[bad], 1, 1);
            return;
        }
        if (!any) {
            return;
        }
        if (r.hasIntMin && min < r.intMin) {
            out.set(out.add(rule, Type.INT_TYPE_SMALL_INT), 0, min, 0, 0, 0);
        }
        if (r.hasIntMax && max > r.intMax) {
            out.set(out.add(rule, Type.INT_TYPE_BIG_INT), 0, max, 0, 0, 0);
        }
    }

    static void floatDomain(FeatureRule r, RecordFeatures f, RecordResult out) {
        int rule = r.index;
        boolean nan = false;
        boolean any = false;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        Float32Buffer floats = f.values.floats();
        for (int k = f.fromF[rule]; k < f.toF[rule]; k++) {
            float v = floats.get(k);
            if (Float.isNaN(v)) {
                nan = true;
            } else {
                min = Math.min(min, v);
                max = Math.max(max, v);
                any = true;
            }
        }
        BytesBuffer bytes = f.values.bytes();
        int[] offs = bytes.offsets();
        int bad = -1;
        for (int k = f.fromB[rule]; k < f.toB[rule]; k++) {
            Double v = WireText.parseDouble(bytes.data(), offs[k], offs[k + 1]);
            if (v == null) {
                if (bad < 0 || StringDomainChecks.lessThan(bytes, k, bad)) {
                    bad = k;
                }
            } else if (v.isNaN()) {
                nan = true;
            } else {
                min = Math.min(min, v);
                max = Math.max(max, v);
                any = true;
            }
        }
        if (nan && r.disallowNan) {
            out.add(rule, Type.FLOAT_TYPE_HAS_NAN);
        }
        if (bad >= 0) {
            int i = out.add(rule, Type.FLOAT_TYPE_STRING_NOT_FLOAT);
            out.sample(i, bytes.data(), offs[bad], offs[bad + 1] - offs[bad], 1, 1);
            return;
        }
        if (!any) {
            return;
        }
        if (r.hasFloatMin && min < r.floatMin) {
            out.set(out.add(rule, Type.FLOAT_TYPE_SMALL_FLOAT), 0, 0, 0, min, r.floatMin);
        }
        if (r.hasFloatMax && max > r.floatMax) {
            out.set(out.add(rule, Type.FLOAT_TYPE_BIG_FLOAT), 0, 0, 0, max, r.floatMax);
        }
        if (r.disallowInf && (Double.isInfinite(min) || Double.isInfinite(max))) {
            out.add(rule, Type.FLOAT_TYPE_HAS_INF);
        }
    }
}
