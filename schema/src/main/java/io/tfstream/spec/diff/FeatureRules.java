package io.tfstream.spec.diff;

import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.FixedLenSequenceFeature;
import io.tfstream.spec.Partition;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.SparseFeature;
import io.tfstream.spec.VarLenFeature;
import java.util.LinkedHashMap;
import java.util.Map;

/** What one feature spec demands of a record, as the parsers check it. */
final class FeatureRules {
    private FeatureRules() {}

    /**
     * Why a record without the feature is refused, or null when the feature is optional: a FixedLen
     * feature without a default, or (in feature lists) a FixedLenSequence feature without {@code
     * allow_missing}.
     */
    static String requiredReason(FeatureSpec spec, boolean featureList) {
        if (spec instanceof FixedLenFeature f && f.defaultValue().isEmpty()) {
            return "records without it are refused (FixedLen feature without a default)";
        }
        if (featureList && spec instanceof FixedLenSequenceFeature f && !f.allowMissing()) {
            return "records without the feature list are refused (allow_missing is false)";
        }
        return null;
    }

    /** What a record without the feature gets. */
    static String absentBehaviour(FeatureSpec spec) {
        if (spec instanceof FixedLenFeature) {
            return "they get the default";
        }
        if (spec instanceof FixedLenSequenceFeature) {
            return "they get an empty sequence";
        }
        if (spec instanceof RaggedFeature) {
            return "they get an empty row";
        }
        return "they get no values";
    }

    /**
     * The raw features {@code spec}, entry {@code name} of its dict, reads, with the dtype each
     * must have: the name itself for the dense and VarLen kinds, index and value keys for a
     * SparseFeature, value and partition keys for a RaggedFeature.
     */
    static Map<String, DType> rawKeys(String name, FeatureSpec spec) {
        Map<String, DType> keys = new LinkedHashMap<>();
        if (spec instanceof SparseFeature s) {
            for (String k : s.indexKeys()) {
                keys.put(k, DType.INT64);
            }
            keys.put(s.valueKey(), s.dtype());
        } else if (spec instanceof RaggedFeature r) {
            keys.put(r.valueKey(), r.dtype());
            for (Partition p : r.partitions()) {
                if (p.key() != null) {
                    keys.put(p.key(), DType.INT64);
                }
            }
        } else {
            keys.put(name, spec.dtype());
        }
        return keys;
    }

    /**
     * True when a FixedLenSequence step of {@code newStep} values accepts every value count a
     * feature of {@code oldStep} values (or of steps of that many) accepted: {@code newStep}
     * divides {@code oldStep}.
     */
    static boolean stepAccepts(long newStep, long oldStep) {
        if (oldStep == 0) {
            return true; // only empty lists were accepted, and every step accepts those
        }
        return newStep != 0 && oldStep % newStep == 0;
    }

    /** A short name of the spec's kind as SPEC.json spells it. */
    static String kindName(FeatureSpec spec) {
        if (spec instanceof FixedLenFeature) {
            return "fixed_len";
        }
        if (spec instanceof FixedLenSequenceFeature) {
            return "fixed_len_seq";
        }
        if (spec instanceof VarLenFeature) {
            return "var_len";
        }
        if (spec instanceof SparseFeature) {
            return "sparse";
        }
        return "ragged";
    }
}
