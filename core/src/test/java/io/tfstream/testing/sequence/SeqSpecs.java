package io.tfstream.testing.sequence;

import io.tfstream.spec.DType;
import io.tfstream.spec.DefaultValue;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.FixedLenSequenceFeature;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.spec.VarLenFeature;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Short spellings of sequence feature specs for tests. */
public final class SeqSpecs {
    private SeqSpecs() {}

    public static List<Long> shape(long... dims) {
        List<Long> s = new ArrayList<>();
        for (long d : dims) {
            s.add(d);
        }
        return s;
    }

    public static FixedLenFeature fixed(DType t, long... dims) {
        return FixedLenFeature.required(shape(dims), t);
    }

    public static FixedLenFeature fixed(DType t, DefaultValue d, long... dims) {
        return FixedLenFeature.withDefault(shape(dims), t, d);
    }

    public static FixedLenSequenceFeature seq(DType t, boolean allowMissing, long... dims) {
        return new FixedLenSequenceFeature(shape(dims), t, allowMissing, Optional.empty());
    }

    public static VarLenFeature varLen(DType t) {
        return new VarLenFeature(t);
    }

    public static RaggedFeature ragged(DType t, String valueKey, RowSplitsDType splits) {
        return new RaggedFeature(t, valueKey, List.of(), splits);
    }

    /** Alternating names and specs. */
    public static FeatureSpecs dict(Object... nameSpec) {
        Map<String, FeatureSpec> m = new LinkedHashMap<>();
        for (int i = 0; i < nameSpec.length; i += 2) {
            m.put((String) nameSpec[i], (FeatureSpec) nameSpec[i + 1]);
        }
        return FeatureSpecs.of(m);
    }

    public static SequenceFeatureSpecs specs(FeatureSpecs context, FeatureSpecs lists) {
        return new SequenceFeatureSpecs(context, lists);
    }
}
