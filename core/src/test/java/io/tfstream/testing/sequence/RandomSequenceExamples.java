package io.tfstream.testing.sequence;

import static io.tfstream.testing.sequence.SeqWire.bytesFeature;
import static io.tfstream.testing.sequence.SeqWire.concat;
import static io.tfstream.testing.sequence.SeqWire.context;
import static io.tfstream.testing.sequence.SeqWire.entry;
import static io.tfstream.testing.sequence.SeqWire.featureList;
import static io.tfstream.testing.sequence.SeqWire.featureLists;
import static io.tfstream.testing.sequence.SeqWire.floatFeature;
import static io.tfstream.testing.sequence.SeqWire.int64Feature;

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
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * Random sequence specs and random SequenceExamples that are valid for them (TensorFlow parses them
 * without error): required features present with the right counts, optional ones present, empty,
 * {@code Feature{}} or missing, numeric lists packed or unpacked, entries in random order, sections
 * split into repeated fields, unrequested features of every kind mixed in.
 */
public final class RandomSequenceExamples {
    private static final DType[] DTYPES = DType.values();
    private static final long[] EXTREME_INT64 = {
        0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE, Integer.MAX_VALUE, Integer.MIN_VALUE, 127, 128
    };
    private static final float[] SPECIAL_FLOATS = {
        Float.NaN,
        Float.intBitsToFloat(0x7fc00001),
        Float.intBitsToFloat(0xffbfffff),
        Float.POSITIVE_INFINITY,
        Float.NEGATIVE_INFINITY,
        -0.0f,
        0.0f,
        Float.MIN_VALUE,
        Float.MAX_VALUE
    };

    private final Random r;

    public RandomSequenceExamples(long seed) {
        this.r = new Random(seed);
    }

    public Random random() {
        return r;
    }

    /** A spec with 0-4 context features and 1-4 feature lists of random kinds, dtypes, shapes. */
    public SequenceFeatureSpecs spec() {
        Map<String, FeatureSpec> ctx = new LinkedHashMap<>();
        int nc = r.nextInt(5);
        for (int i = 0; i < nc; i++) {
            DType t = DTYPES[r.nextInt(3)];
            String name = "c" + i;
            switch (r.nextInt(3)) {
                case 0:
                    List<Long> shape = randomShape();
                    if (r.nextBoolean()) {
                        ctx.put(name, FixedLenFeature.required(shape, t));
                    } else {
                        ctx.put(
                                name,
                                FixedLenFeature.withDefault(
                                        shape, t, values(t, (int) numElements(shape))));
                    }
                    break;
                case 1:
                    ctx.put(name, new VarLenFeature(t));
                    break;
                default:
                    ctx.put(name, new RaggedFeature(t, valueKey(name), List.of(), splits()));
            }
        }
        Map<String, FeatureSpec> fl = new LinkedHashMap<>();
        int nf = 1 + r.nextInt(4);
        for (int i = 0; i < nf; i++) {
            DType t = DTYPES[r.nextInt(3)];
            String name = (i % 2 == 0 ? "f" : "F") + i;
            switch (r.nextInt(3)) {
                case 0:
                    fl.put(
                            name,
                            new FixedLenSequenceFeature(
                                    randomShape(), t, r.nextBoolean(), Optional.empty()));
                    break;
                case 1:
                    fl.put(name, new VarLenFeature(t));
                    break;
                default:
                    fl.put(name, new RaggedFeature(t, valueKey(name), List.of(), splits()));
            }
        }
        return new SequenceFeatureSpecs(FeatureSpecs.of(ctx), FeatureSpecs.of(fl));
    }

    /** The raw key of a ragged feature: usually its name, sometimes another key. */
    private String valueKey(String name) {
        return r.nextInt(3) == 0 ? name + "_v" : name;
    }

    /** The key a feature is read from: a ragged feature's value key, else its name. */
    public static String rawKey(String name, FeatureSpec s) {
        return s instanceof RaggedFeature ? ((RaggedFeature) s).valueKey() : name;
    }

    private RowSplitsDType splits() {
        return r.nextBoolean() ? RowSplitsDType.INT32 : RowSplitsDType.INT64;
    }

    private List<Long> randomShape() {
        switch (r.nextInt(5)) {
            case 0:
                return List.of();
            case 1:
                return List.of(1L);
            case 2:
                return List.of(2L);
            case 3:
                return List.of(3L);
            default:
                return List.of(2L, 2L);
        }
    }

    private static long numElements(List<Long> shape) {
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        return n;
    }

    /** A record valid for {@code spec}. */
    public byte[] record(SequenceFeatureSpecs spec) {
        List<byte[]> ctx = new ArrayList<>();
        for (Map.Entry<String, FeatureSpec> e : spec.context().features().entrySet()) {
            byte[] f = contextFeature(e.getValue());
            if (f != null) {
                ctx.add(entry(rawKey(e.getKey(), e.getValue()), f));
            }
        }
        List<byte[]> lists = new ArrayList<>();
        for (Map.Entry<String, FeatureSpec> e : spec.featureLists().features().entrySet()) {
            byte[] f = list(e.getValue());
            if (f != null) {
                lists.add(entry(rawKey(e.getKey(), e.getValue()), f));
            }
        }
        for (int i = r.nextInt(3); i > 0; i--) {
            (r.nextBoolean() ? ctx : lists)
                    .add(
                            entry(
                                    "noise" + r.nextInt(4),
                                    r.nextBoolean()
                                            ? feature(DTYPES[r.nextInt(3)], r.nextInt(4))
                                            : featureList(feature(DTYPES[r.nextInt(3)], 1))));
        }
        Collections.shuffle(ctx, r);
        Collections.shuffle(lists, r);
        return assemble(ctx, lists);
    }

    /** Context and feature-list entries as one or more (possibly repeated) sections. */
    public byte[] assemble(List<byte[]> ctx, List<byte[]> lists) {
        List<byte[]> sections = new ArrayList<>();
        int cut = ctx.isEmpty() ? 0 : r.nextInt(ctx.size() + 1);
        if (r.nextInt(4) > 0 || !ctx.isEmpty()) {
            sections.add(context(ctx.subList(0, cut).toArray(new byte[0][])));
        }
        if (cut < ctx.size()) {
            sections.add(context(ctx.subList(cut, ctx.size()).toArray(new byte[0][])));
        }
        int lcut = lists.isEmpty() ? 0 : r.nextInt(lists.size() + 1);
        if (r.nextInt(4) > 0 || !lists.isEmpty()) {
            sections.add(featureLists(lists.subList(0, lcut).toArray(new byte[0][])));
        }
        if (lcut < lists.size()) {
            sections.add(featureLists(lists.subList(lcut, lists.size()).toArray(new byte[0][])));
        }
        if (r.nextInt(3) == 0) {
            Collections.shuffle(sections, r);
        }
        return concat(sections.toArray(new byte[0][]));
    }

    /** The Feature bytes of a context feature, or null to leave it out. */
    byte[] contextFeature(FeatureSpec s) {
        if (s instanceof FixedLenFeature) {
            FixedLenFeature f = (FixedLenFeature) s;
            if (f.defaultValue().isPresent() && r.nextInt(3) == 0) {
                return null;
            }
            return feature(f.dtype(), (int) f.numElements());
        }
        switch (r.nextInt(6)) {
            case 0:
                return null;
            case 1:
                return SeqWire.emptyFeature();
            default:
                return feature(s.dtype(), r.nextInt(5));
        }
    }

    /** The FeatureList bytes of a feature list, or null to leave it out. */
    byte[] list(FeatureSpec s) {
        if (s instanceof FixedLenSequenceFeature) {
            FixedLenSequenceFeature f = (FixedLenSequenceFeature) s;
            if (f.allowMissing() && r.nextInt(4) == 0) {
                return null;
            }
            int steps = r.nextInt(5);
            byte[][] rows = new byte[steps][];
            for (int i = 0; i < steps; i++) {
                rows[i] = feature(f.dtype(), (int) f.stepElements());
            }
            return featureList(rows);
        }
        if (r.nextInt(6) == 0) {
            return null;
        }
        int steps = r.nextInt(5);
        byte[][] rows = new byte[steps][];
        for (int i = 0; i < steps; i++) {
            rows[i] = r.nextInt(6) == 0 ? SeqWire.emptyFeature() : feature(s.dtype(), r.nextInt(4));
        }
        return featureList(rows);
    }

    /** A Feature of {@code t} with {@code n} random values, packed or unpacked at random. */
    public byte[] feature(DType t, int n) {
        DefaultValue v = values(t, n);
        switch (t) {
            case INT64:
                return int64Feature(r.nextBoolean(), v.int64s());
            case FLOAT32:
                return floatFeature(r.nextBoolean(), v.float32s());
            default:
                byte[][] b = new byte[n][];
                for (int i = 0; i < n; i++) {
                    b[i] = v.bytesAt(i);
                }
                return bytesFeature(b);
        }
    }

    /** {@code n} random values of {@code t}, often extreme (int64 limits, NaN, ±inf, -0.0). */
    public DefaultValue values(DType t, int n) {
        switch (t) {
            case INT64:
                long[] l = new long[n];
                for (int i = 0; i < n; i++) {
                    l[i] =
                            r.nextInt(4) == 0
                                    ? EXTREME_INT64[r.nextInt(EXTREME_INT64.length)]
                                    : r.nextInt(3) == 0 ? r.nextLong() : r.nextInt(1000) - 500;
                }
                return DefaultValue.ofInt64(l);
            case FLOAT32:
                float[] f = new float[n];
                for (int i = 0; i < n; i++) {
                    f[i] =
                            r.nextInt(4) == 0
                                    ? SPECIAL_FLOATS[r.nextInt(SPECIAL_FLOATS.length)]
                                    : r.nextInt(2) == 0
                                            ? Float.intBitsToFloat(r.nextInt())
                                            : r.nextInt(100) / 4f;
                }
                return DefaultValue.ofFloat32(f);
            default:
                byte[][] b = new byte[n][];
                for (int i = 0; i < n; i++) {
                    b[i] = new byte[r.nextInt(4) == 0 ? 0 : r.nextInt(12)];
                    r.nextBytes(b[i]);
                }
                return DefaultValue.ofBytes(b);
        }
    }
}
