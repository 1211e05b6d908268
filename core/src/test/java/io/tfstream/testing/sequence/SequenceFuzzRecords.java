package io.tfstream.testing.sequence;

import static io.tfstream.testing.sequence.SeqWire.concat;
import static io.tfstream.testing.sequence.SeqWire.entry;
import static io.tfstream.testing.sequence.SeqWire.featureList;

import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.FixedLenSequenceFeature;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.spec.VarLenFeature;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * Structured fuzzing of SequenceExamples: specs with one context feature and one feature list (so
 * that TensorFlow's first error never depends on its hash-map order), and records mixing valid
 * features with wrong kinds, {@code Feature{}}, one- and two-byte steps, trailing bytes inside a
 * Feature, short garbage, duplicates, truncation and (numeric specs only) bit flips. VarLen string
 * features are never generated: a bytes value longer than its list makes TensorFlow's sparse
 * assembly index past its buffers.
 */
public final class SequenceFuzzRecords {
    private final Random r;
    private final RandomSequenceExamples valid;

    public SequenceFuzzRecords(long seed) {
        this.r = new Random(seed);
        this.valid = new RandomSequenceExamples(seed + 1);
    }

    public Random random() {
        return r;
    }

    /** A spec with exactly one context feature and one feature list. */
    public SequenceFeatureSpecs spec() {
        while (true) {
            SequenceFeatureSpecs s = valid.spec();
            Map.Entry<String, FeatureSpec> c =
                    s.context().isEmpty()
                            ? null
                            : s.context().features().entrySet().iterator().next();
            Map.Entry<String, FeatureSpec> l =
                    s.featureLists().features().entrySet().iterator().next();
            if ((c != null && isSparseString(c.getValue())) || isSparseString(l.getValue())) {
                continue;
            }
            FeatureSpec list = l.getValue();
            if (list instanceof FixedLenSequenceFeature && r.nextBoolean()) {
                FixedLenSequenceFeature f = (FixedLenSequenceFeature) list;
                list = new FixedLenSequenceFeature(f.shape(), f.dtype(), true, Optional.empty());
            }
            return new SequenceFeatureSpecs(
                    c == null
                            ? FeatureSpecs.empty()
                            : FeatureSpecs.of(Map.of("c", renamed(c.getValue(), "c"))),
                    FeatureSpecs.of(Map.of("l", renamed(list, "l"))));
        }
    }

    /** A ragged feature reads its value key: keep it equal to the new name. */
    private static FeatureSpec renamed(FeatureSpec s, String name) {
        if (s instanceof RaggedFeature) {
            RaggedFeature f = (RaggedFeature) s;
            return new RaggedFeature(f.dtype(), name, f.partitions(), f.rowSplitsDtype());
        }
        return s;
    }

    private static boolean isSparseString(FeatureSpec s) {
        return s instanceof VarLenFeature && s.dtype() == DType.STRING;
    }

    private static boolean hasStrings(SequenceFeatureSpecs s) {
        for (FeatureSpec f : s.context().features().values()) {
            if (f.dtype() == DType.STRING) {
                return true;
            }
        }
        for (FeatureSpec f : s.featureLists().features().values()) {
            if (f.dtype() == DType.STRING) {
                return true;
            }
        }
        return false;
    }

    /** A record for {@code spec}; about one in {@code 1/faultRate} has a fault of some kind. */
    public byte[] record(SequenceFeatureSpecs spec, double faultRate) {
        boolean fault = r.nextDouble() < faultRate;
        List<byte[]> ctx = new ArrayList<>();
        List<byte[]> lists = new ArrayList<>();
        FeatureSpec c = spec.context().get("c");
        if (c != null) {
            byte[] f = valid.contextFeature(c);
            if (fault && r.nextInt(3) == 0) {
                f = badFeature(c.dtype(), c instanceof FixedLenFeature);
            }
            if (f != null) {
                ctx.add(entry("c", f));
            }
            if (r.nextInt(8) == 0) {
                ctx.add(0, entry("c", badFeature(c.dtype(), false)));
            }
        }
        FeatureSpec l = spec.featureLists().get("l");
        byte[] list = valid.list(l);
        if (fault && r.nextInt(2) == 0) {
            list = badList(l);
        }
        if (list != null) {
            lists.add(entry("l", list));
        }
        if (r.nextInt(8) == 0) {
            lists.add(0, entry("l", badList(l)));
        }
        byte[] rec = valid.assemble(ctx, lists);
        if (fault && r.nextInt(4) == 0) {
            rec = recordFault(rec, !hasStrings(spec));
        }
        return rec;
    }

    private byte[] recordFault(byte[] rec, boolean mayFlip) {
        switch (r.nextInt(3)) {
            case 0:
                return rec.length == 0 ? rec : Arrays.copyOf(rec, r.nextInt(rec.length));
            case 1:
                if (mayFlip && rec.length > 0) {
                    byte[] b = rec.clone();
                    b[r.nextInt(b.length)] ^= (byte) (1 << r.nextInt(8));
                    return b;
                }
                return concat(rec, rec);
            default:
                return concat(rec, garbage());
        }
    }

    /** Short garbage of bytes below 0x80, so that no varint it forms is large. */
    private byte[] garbage() {
        byte[] g = new byte[r.nextInt(4)];
        for (int i = 0; i < g.length; i++) {
            g[i] = (byte) r.nextInt(0x80);
        }
        return g;
    }

    private DType otherDtype(DType t) {
        DType[] all = DType.values();
        DType o;
        do {
            o = all[r.nextInt(all.length)];
        } while (o == t);
        return o;
    }

    /** A context Feature that may be wrong: another kind, empty, wrong count, trailing bytes. */
    private byte[] badFeature(DType t, boolean dense) {
        switch (r.nextInt(5)) {
            case 0:
                return valid.feature(otherDtype(t), r.nextInt(3));
            case 1:
                return SeqWire.emptyFeature();
            case 2:
                return valid.feature(t, dense ? 5 : r.nextInt(3));
            case 3:
                return concat(valid.feature(t, r.nextInt(3)), garbage());
            default:
                return garbage();
        }
    }

    private byte[] badList(FeatureSpec l) {
        int steps = r.nextInt(5);
        byte[][] rows = new byte[steps][];
        int elements =
                l instanceof FixedLenSequenceFeature
                        ? (int) ((FixedLenSequenceFeature) l).stepElements()
                        : r.nextInt(3);
        for (int i = 0; i < steps; i++) {
            rows[i] = step(l.dtype(), elements, l instanceof RaggedFeature);
        }
        return featureList(rows);
    }

    private byte[] step(DType t, int elements, boolean ragged) {
        switch (r.nextInt(8)) {
            case 0:
                return valid.feature(otherDtype(t), r.nextInt(3));
            case 1:
                return SeqWire.emptyFeature();
            case 2:
                return new byte[] {(byte) ((t.featureKindField() << 3) | 2)};
            case 3:
                int kind =
                        r.nextBoolean() ? t.featureKindField() : otherDtype(t).featureKindField();
                return new byte[] {(byte) ((kind << 3) | 2), (byte) (r.nextInt(3) == 0 ? 1 : 0)};
            case 4:
                return concat(valid.feature(t, elements), garbage());
            case 5:
                return concat(valid.feature(t, elements), new byte[] {0x0a, 0x00});
            case 6:
                return garbage();
            default:
                return valid.feature(t, ragged ? r.nextInt(4) : elements);
        }
    }
}
