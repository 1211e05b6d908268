package io.tfstream.validation;

import io.tfstream.tensor.BytesBuffer;
import io.tfstream.tensor.Float32Buffer;
import io.tfstream.tensor.Int64Buffer;
import java.util.Arrays;
import org.tensorflow.metadata.v0.AnomalyInfo.Type;

/**
 * Per-record string-domain and {@code bool_domain} checks: TFDV's {@code
 * string_domain_util.cc::UpdateStringDomain} (invalid UTF-8 first, then values outside the domain,
 * here over every value, difference 3 of docs/validation.md#where-tfstream-differs-from-tfdv) and
 * {@code bool_domain_util.cc::UpdateBoolDomain}, with ints and floats checked directly against {0,
 * 1} (difference 4).
 */
final class StringDomainChecks {
    private StringDomainChecks() {}

    /** Whether value {@code a} sorts before value {@code b} (unsigned bytes, as std::string). */
    static boolean lessThan(BytesBuffer bytes, int a, int b) {
        int[] o = bytes.offsets();
        return Arrays.compareUnsigned(bytes.data(), o[a], o[a + 1], bytes.data(), o[b], o[b + 1])
                < 0;
    }

    /**
     * Checks string data against the domain. Values outside it are reported per record only when
     * {@code min_domain_mass} is unset or 1; otherwise the window decides.
     */
    static void stringDomain(FeatureRule r, RecordFeatures f, RecordResult out, int maxSamples) {
        int rule = r.index;
        BytesBuffer bytes = f.values.bytes();
        int[] offs = bytes.offsets();
        byte[] data = bytes.data();
        int from = f.fromB[rule];
        int to = f.toB[rule];
        for (int k = from; k < to; k++) {
            if (!WireText.validUtf8(data, offs[k], offs[k + 1])) {
                out.add(rule, Type.ENUM_TYPE_INVALID_UTF8);
                return;
            }
        }
        if (r.maxOffDomain > 0) {
            return;
        }
        int anomaly = -1;
        for (int k = from; k < to; k++) {
            int len = offs[k + 1] - offs[k];
            if (r.stringDomain.find(data, offs[k], len) < 0) {
                if (anomaly < 0) {
                    anomaly = out.add(rule, Type.ENUM_TYPE_UNEXPECTED_STRING_VALUES);
                    out.set(anomaly, 0, to - from, 0, 0, 0);
                }
                out.sample(anomaly, data, offs[k], len, 1, maxSamples);
            }
        }
    }

    static void boolDomain(FeatureRule r, RecordFeatures f, RecordResult out) {
        int rule = r.index;
        BytesBuffer bytes = f.values.bytes();
        int[] offs = bytes.offsets();
        int bad = -1;
        for (int k = f.fromB[rule]; k < f.toB[rule]; k++) {
            if (!matches(r.trueValue, bytes, k)
                    && !matches(r.falseValue, bytes, k)
                    && (bad < 0 || lessThan(bytes, k, bad))) {
                bad = k;
            }
        }
        if (bad >= 0) {
            int i = out.add(rule, Type.BOOL_TYPE_UNEXPECTED_STRING);
            out.sample(i, bytes.data(), offs[bad], offs[bad + 1] - offs[bad], 1, 1);
        }
        Int64Buffer ints = f.values.int64s();
        if (f.toI[rule] > f.fromI[rule]) {
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            for (int k = f.fromI[rule]; k < f.toI[rule]; k++) {
                min = Math.min(min, ints.get(k));
                max = Math.max(max, ints.get(k));
            }
            if (min < 0) {
                out.set(out.add(rule, Type.BOOL_TYPE_SMALL_INT), 0, 0, 0, min, 0);
            } else if (max > 1) {
                out.set(out.add(rule, Type.BOOL_TYPE_BIG_INT), 0, 0, 0, max, 0);
            }
        }
        boolFloats(r, f, out);
    }

    private static void boolFloats(FeatureRule r, RecordFeatures f, RecordResult out) {
        int rule = r.index;
        Float32Buffer floats = f.values.floats();
        boolean nan = false;
        boolean between = false;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (int k = f.fromF[rule]; k < f.toF[rule]; k++) {
            float v = floats.get(k);
            if (Float.isNaN(v)) {
                nan = true;
                continue;
            }
            min = Math.min(min, v);
            max = Math.max(max, v);
            between |= v > 0 && v < 1;
        }
        int variant;
        double value = 0;
        if (nan) {
            variant = 1;
        } else if (min != Double.POSITIVE_INFINITY && min != 0 && min != 1) {
            variant = 0;
            value = min;
        } else if (max != Double.NEGATIVE_INFINITY && max != 0 && max != 1) {
            variant = 0;
            value = max;
        } else if (between) {
            variant = 2;
        } else {
            return;
        }
        out.set(out.add(rule, Type.BOOL_TYPE_UNEXPECTED_FLOAT), variant, 0, 0, value, 0);
    }

    private static boolean matches(byte[] want, BytesBuffer bytes, int k) {
        int[] o = bytes.offsets();
        return want != null && Arrays.equals(want, 0, want.length, bytes.data(), o[k], o[k + 1]);
    }
}
