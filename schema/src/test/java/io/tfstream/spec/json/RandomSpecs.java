package io.tfstream.spec.json;

import io.tfstream.spec.DType;
import io.tfstream.spec.DefaultValue;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.FixedLenSequenceFeature;
import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.Partition;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.spec.SparseFeature;
import io.tfstream.spec.VarLenFeature;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/** Random valid feature specs of every kind, with edge-case default values. */
final class RandomSpecs {
    private final Random r;

    RandomSpecs(Random r) {
        this.r = r;
    }

    ParseSpec next() {
        if (r.nextInt(3) == 0) {
            return new SequenceFeatureSpecs(dict(false, true), dict(true, false));
        }
        Map<String, FeatureSpec> m = new LinkedHashMap<>();
        for (int i = r.nextInt(6); i > 0; i--) {
            m.put("k" + r.nextInt(1000) + (r.nextBoolean() ? "é" : ""), any(r.nextInt(5)));
        }
        return FeatureSpecs.of(m);
    }

    private FeatureSpecs dict(boolean featureLists, boolean context) {
        Map<String, FeatureSpec> m = new LinkedHashMap<>();
        for (int i = r.nextInt(4); i > 0; i--) {
            int kind = r.nextInt(3);
            FeatureSpec s =
                    kind == 0 ? (featureLists ? any(1) : any(0)) : kind == 1 ? any(2) : any(4);
            m.put("c" + r.nextInt(100), s);
        }
        return FeatureSpecs.of(m);
    }

    private FeatureSpec any(int kind) {
        DType d = DType.values()[r.nextInt(3)];
        switch (kind) {
            case 0:
                List<Long> shape = shape();
                long n = 1;
                for (long x : shape) {
                    n *= x;
                }
                return new FixedLenFeature(
                        shape,
                        d,
                        r.nextBoolean() ? Optional.of(values(d, (int) n)) : Optional.empty());
            case 1:
                return new FixedLenSequenceFeature(
                        shape(),
                        d,
                        r.nextBoolean(),
                        r.nextBoolean() ? Optional.of(values(d, 1)) : Optional.empty());
            case 2:
                return new VarLenFeature(d);
            case 3:
                List<String> keys = new ArrayList<>();
                List<Long> size = new ArrayList<>();
                for (int i = r.nextInt(3); i > 0; i--) {
                    keys.add("i" + i);
                    size.add((long) r.nextInt(20) - 1);
                }
                return new SparseFeature(keys, "v", d, size, r.nextBoolean());
            default:
                List<Partition> parts = new ArrayList<>();
                for (int i = r.nextInt(4); i > 0; i--) {
                    switch (r.nextInt(6)) {
                        case 0:
                            parts.add(new Partition.RowSplits("p" + i));
                            break;
                        case 1:
                            parts.add(new Partition.RowLengths("p" + i));
                            break;
                        case 2:
                            parts.add(new Partition.RowStarts("p" + i));
                            break;
                        case 3:
                            parts.add(new Partition.RowLimits("p" + i));
                            break;
                        case 4:
                            parts.add(new Partition.ValueRowIds("p" + i));
                            break;
                        default:
                            parts.add(new Partition.UniformRowLength(r.nextInt(1 << 20)));
                    }
                }
                return new RaggedFeature(d, "val", parts, RowSplitsDType.values()[r.nextInt(2)]);
        }
    }

    private List<Long> shape() {
        List<Long> s = new ArrayList<>();
        for (int i = r.nextInt(4); i > 0; i--) {
            s.add((long) r.nextInt(4));
        }
        return s;
    }

    private DefaultValue values(DType d, int n) {
        switch (d) {
            case INT64:
                long[] l = new long[n];
                for (int i = 0; i < n; i++) {
                    l[i] = r.nextBoolean() ? r.nextLong() : r.nextInt(3) - 1;
                }
                return DefaultValue.ofInt64(l);
            case FLOAT32:
                float[] f = new float[n];
                for (int i = 0; i < n; i++) {
                    f[i] =
                            r.nextBoolean()
                                    ? Float.intBitsToFloat(r.nextInt())
                                    : new float[] {-0.0f, Float.MIN_VALUE, 0.1f}[r.nextInt(3)];
                }
                return DefaultValue.ofFloat32(f);
            default:
                byte[][] b = new byte[n][];
                for (int i = 0; i < n; i++) {
                    b[i] = new byte[r.nextInt(4)];
                    r.nextBytes(b[i]);
                }
                return DefaultValue.ofBytes(b);
        }
    }
}
