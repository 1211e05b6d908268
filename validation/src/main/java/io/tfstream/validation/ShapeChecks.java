package io.tfstream.validation;

import io.tfstream.parse.wire.FeatureValues;
import org.tensorflow.metadata.v0.AnomalyInfo.Type;
import org.tensorflow.metadata.v0.Feature;
import org.tensorflow.metadata.v0.FeatureType;
import org.tensorflow.metadata.v0.ValueCount;

/**
 * Per-record valency, shape and type checks of one present feature: TFDV's {@code
 * UpdateFeatureValueCounts} ({@code feature_util.cc}), {@code UpdateFeatureShape} and the type
 * comparison of {@code Schema::UpdateFeatureInternal}, over a one-record batch.
 */
final class ShapeChecks {
    private ShapeChecks() {}

    /** Stats type codes of {@link AnomalyText#STATS_TYPE}. */
    static int statsType(int kind, boolean imageDomain) {
        switch (kind) {
            case FeatureValues.KIND_INT64:
                return 0;
            case FeatureValues.KIND_FLOAT:
                return 1;
            default:
                return imageDomain ? 3 : 2;
        }
    }

    static int expectedKind(FeatureType t) {
        switch (t) {
            case INT:
                return FeatureValues.KIND_INT64;
            case FLOAT:
                return FeatureValues.KIND_FLOAT;
            case BYTES:
                return FeatureValues.KIND_BYTES;
            default:
                return -1;
        }
    }

    static void valueCounts(FeatureRule r, RecordFeatures f, RecordResult out) {
        Feature p = r.proto;
        int rule = r.index;
        if (r.nestLevel == 1) {
            long n = f.count[rule];
            if (p.hasValueCount()) {
                level(p.getValueCount(), n, n, -1, rule, out);
            } else if (p.hasValueCounts()) {
                if (p.getValueCounts().getValueCountCount() != 1) {
                    out.set(out.add(rule, Type.VALUE_NESTEDNESS_MISMATCH), 1, 0, 0, 0, 0);
                } else {
                    level(p.getValueCounts().getValueCount(0), n, n, 0, rule, out);
                }
            }
            return;
        }
        if (p.hasValueCount()) {
            out.add(rule, Type.VALUE_NESTEDNESS_MISMATCH);
        } else if (p.hasValueCounts()) {
            if (p.getValueCounts().getValueCountCount() != 2) {
                out.set(out.add(rule, Type.VALUE_NESTEDNESS_MISMATCH), 1, 0, 0, 0, 0);
            } else {
                long len = f.count[rule];
                level(p.getValueCounts().getValueCount(0), len, len, 0, rule, out);
                level(
                        p.getValueCounts().getValueCount(1),
                        f.innerMin[rule],
                        f.innerMax[rule],
                        1,
                        rule,
                        out);
            }
        }
    }

    private static void level(
            ValueCount vc, long min, long max, int lvl, int rule, RecordResult out) {
        if (vc.hasMin() && min < vc.getMin()) {
            out.set(out.add(rule, Type.FEATURE_TYPE_LOW_NUMBER_VALUES), lvl, 0, 0, 0, 0);
        }
        if (vc.hasMax() && max > vc.getMax()) {
            out.set(out.add(rule, Type.FEATURE_TYPE_HIGH_NUMBER_VALUES), lvl, 0, 0, 0, 0);
        }
    }

    /** {@code UpdateFeatureShape} for one record: the length part of the shape check. */
    static void shape(FeatureRule r, RecordFeatures f, RecordResult out) {
        if (!r.proto.hasShape()) {
            return;
        }
        long product = r.shapeProduct;
        int rule = r.index;
        long length;
        if (r.nestLevel == 1) {
            length = f.count[rule];
            if (length == 0) {
                out.add(rule, Type.INVALID_FEATURE_SHAPE);
                return;
            }
        } else {
            if (f.count[rule] == 0
                    || f.innerMin[rule] != f.innerMax[rule]
                    || f.innerMin[rule] == 0) {
                out.add(rule, Type.INVALID_FEATURE_SHAPE);
                return;
            }
            length = (long) f.count[rule] * f.innerMin[rule];
        }
        if (length != product) {
            out.set(out.add(rule, Type.INVALID_FEATURE_SHAPE), 1, length, 0, 0, 0);
        }
    }

    /** The data type against the schema type; runs before the domain checks, which still run. */
    static void type(FeatureRule r, RecordFeatures f, RecordResult out) {
        int rule = r.index;
        int kind = f.mixedKind[rule] != 0 ? f.mixedKind[rule] : f.kind[rule];
        if (kind == FeatureValues.KIND_NONE) {
            return;
        }
        if (kind != expectedKind(r.type)) {
            out.set(
                    out.add(rule, Type.UNEXPECTED_DATA_TYPE),
                    0,
                    r.type.getNumber(),
                    statsType(kind, r.imageDomain),
                    0,
                    0);
        }
    }
}
