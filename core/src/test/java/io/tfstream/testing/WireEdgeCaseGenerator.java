package io.tfstream.testing;

import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.FixedLenSequenceFeature;
import io.tfstream.testing.FeatureWire.Encoding;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random feature specs and random serialized Examples built byte by byte for them, mixing the wire
 * cases protobuf-java never produces: {@code Feature{}}, empty lists, duplicate keys, concatenated
 * Examples, unknown top-level fields, packed / unpacked / overlong encodings, trailing bytes that
 * TensorFlow's fast parser ignores, extreme int64s, NaN payloads, ±inf, -0.0, non-UTF-8 bytes,
 * ignored garbage under keys not in the spec. Optionally one deliberate defect per bad record
 * (truncation, garbage, bad kind byte, wrong dtype, wrong count, missing required feature, group
 * tag, malformed list) so that error paths are compared too. Deterministic for a seed.
 */
public final class WireEdgeCaseGenerator {
    private static final String[] OTHER_NAMES = {"zz", "unused", "A", "a ", "b\u0000"};

    private final Random rnd;
    private final WireValues values;
    private final WireEdgeCaseSpecs specs;

    public WireEdgeCaseGenerator(long seed) {
        rnd = new Random(seed);
        values = new WireValues(rnd);
        specs = new WireEdgeCaseSpecs(rnd, values);
    }

    /** A spec of 1 to 5 FixedLen / FixedLenSequence / VarLen / raw Ragged features. */
    public FeatureSpecs randomSpec() {
        return specs.randomSpec();
    }

    /** {@code size} records; each is deliberately defective with probability {@code badRate}. */
    public List<byte[]> batch(FeatureSpecs spec, int size, double badRate) {
        List<byte[]> out = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            out.add(record(spec, rnd.nextDouble() < badRate));
        }
        return out;
    }

    /** One record for {@code spec}; TensorFlow accepts it unless {@code bad}. */
    public byte[] record(FeatureSpecs spec, boolean bad) {
        int defect = bad ? rnd.nextInt(9) : -1;
        List<String> names = new ArrayList<>(spec.features().keySet());
        String badKey = names.get(rnd.nextInt(names.size()));
        List<List<byte[]>> perKey = new ArrayList<>();
        for (Map.Entry<String, FeatureSpec> e : spec.features().entrySet()) {
            boolean target = e.getKey().equals(badKey);
            perKey.add(entriesFor(e.getKey(), e.getValue(), target ? defect : -1));
        }
        for (int i = rnd.nextInt(4); i > 0; i--) {
            perKey.add(List.of(ignoredEntry()));
        }
        byte[] rec = frame(interleave(perKey));
        switch (defect) {
            case 0:
                return rec.length == 0
                        ? new byte[] {0x0a}
                        : java.util.Arrays.copyOf(rec, rnd.nextInt(rec.length));
            case 1:
                return values.bytes(1 + rnd.nextInt(20));
            case 2:
                return new WireWriter().raw(rec).raw(0x0b).toByteArray();
            default:
                return rec;
        }
    }

    /**
     * The map entries for one spec key, in wire order (the effective one last). Defects 3..8 make
     * this key invalid.
     */
    private List<byte[]> entriesFor(String name, FeatureSpec spec, int defect) {
        List<byte[]> entries = new ArrayList<>();
        boolean dense = spec instanceof FixedLenFeature || spec instanceof FixedLenSequenceFeature;
        boolean required =
                spec instanceof FixedLenFeature f
                        && (f.defaultValue().isEmpty() || f.numElements() == 0);
        int roll = rnd.nextInt(20);
        byte[] effective;
        if (defect == 3) {
            effective = rnd.nextBoolean() ? new byte[] {0x22, 0x00} : new byte[] {0x08, 0x01};
        } else if (defect == 4) {
            effective = values.feature(otherDtype(spec.dtype()), rnd.nextInt(4));
        } else if (defect == 5) {
            // TensorFlow's ParseFloatList writes an unpacked list longer than a fixed shape past
            // the end of its output slice (undefined behaviour, it can crash), so only packed.
            effective =
                    values.feature(
                            spec.dtype(), wrongCount(spec), !(spec instanceof FixedLenFeature));
        } else if (defect == 6) {
            effective = null; // missing: an error for required FixedLen only
        } else if (defect == 7) {
            effective = values.malformedFeature(spec.dtype());
        } else if (defect == 8) {
            effective = rnd.nextBoolean() ? new byte[0] : null; // Feature{} or missing
        } else if (roll < 3 && !required) {
            effective = null;
        } else if (roll < 5 && !(dense && required)) {
            effective = new byte[0];
        } else {
            effective = values.feature(spec.dtype(), validCount(spec));
        }
        boolean hasKind = effective != null && effective.length > 0;
        if (rnd.nextInt(6) == 0 && (dense ? hasKind : effective != null)) {
            // Earlier duplicates are never looked at beyond their kind byte, as long as a later
            // entry wins: any entry for VarLen / Ragged keys, one with a kind for dense keys.
            for (int i = 1 + rnd.nextInt(2); i > 0; i--) {
                entries.add(entry(name, values.junkFeature()));
            }
        }
        if (effective != null) {
            entries.add(entry(name, effective));
        }
        if (dense && hasKind && rnd.nextInt(8) == 0) {
            entries.add(entry(name, new byte[0])); // trailing Feature{} is ignored for dense keys
        }
        return entries;
    }

    private int validCount(FeatureSpec spec) {
        if (spec instanceof FixedLenFeature f) {
            return (int) f.numElements();
        }
        if (spec instanceof FixedLenSequenceFeature f) {
            return (int) f.stepElements() * rnd.nextInt(4);
        }
        return rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(11);
    }

    private int wrongCount(FeatureSpec spec) {
        if (spec instanceof FixedLenFeature f) {
            int n = (int) f.numElements();
            return n == 0 || rnd.nextBoolean() ? n + 1 : n - 1;
        }
        if (spec instanceof FixedLenSequenceFeature f && f.stepElements() > 1) {
            return (int) f.stepElements() * rnd.nextInt(3) + 1;
        }
        return validCount(spec);
    }

    private DType otherDtype(DType d) {
        return DType.values()[(d.ordinal() + 1 + rnd.nextInt(2)) % 3];
    }

    private byte[] ignoredEntry() {
        int r = rnd.nextInt(6);
        byte[] feature =
                r == 0
                        ? values.malformedFeature(DType.values()[rnd.nextInt(3)])
                        : r == 1 ? new byte[] {0x22, 0x01, 0x00} : values.junkFeature();
        return entry(OTHER_NAMES[rnd.nextInt(OTHER_NAMES.length)], feature);
    }

    /** A map entry; sometimes value before key or with overlong lengths. */
    private byte[] entry(String key, byte[] feature) {
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        int style = rnd.nextInt(12);
        if (style == 0) {
            return new WireWriter().bytesField(2, feature).bytesField(1, k).toByteArray();
        }
        if (style == 1) {
            return new WireWriter()
                    .raw(0x0a)
                    .varintPadded(k.length, 3)
                    .raw(k)
                    .raw(0x12)
                    .varintPadded(feature.length, 2)
                    .raw(feature)
                    .toByteArray();
        }
        return FeatureWire.entry(k, feature);
    }

    /** Shuffles keys while keeping each key's own entries in order. */
    private List<byte[]> interleave(List<List<byte[]>> perKey) {
        List<byte[]> out = new ArrayList<>();
        int[] next = new int[perKey.size()];
        int remaining = 0;
        for (List<byte[]> l : perKey) {
            remaining += l.size();
        }
        while (remaining > 0) {
            int k = rnd.nextInt(perKey.size());
            if (next[k] < perKey.get(k).size()) {
                out.add(perKey.get(k).get(next[k]++));
                remaining--;
            }
        }
        return out;
    }

    /**
     * Puts entries into one or more {@code Features} messages (several = concatenated Examples),
     * with unknown top-level fields and empty {@code Features} in between.
     */
    private byte[] frame(List<byte[]> entries) {
        WireWriter w = new WireWriter();
        int parts = rnd.nextInt(4) == 0 ? 2 + rnd.nextInt(2) : 1;
        int from = 0;
        for (int p = 0; p < parts; p++) {
            int to =
                    p == parts - 1 ? entries.size() : from + rnd.nextInt(entries.size() - from + 1);
            if (rnd.nextInt(8) == 0) {
                unknownField(w);
            }
            WireWriter features = new WireWriter();
            for (int i = from; i < to; i++) {
                features.bytesField(1, entries.get(i));
            }
            if (rnd.nextInt(10) == 0) {
                w.raw(0x0a).varintPadded(features.size(), 4).raw(features.toByteArray());
            } else if (features.size() > 0 || rnd.nextInt(3) == 0) {
                w.bytesField(1, features.toByteArray());
            }
            from = to;
        }
        if (rnd.nextInt(10) == 0) {
            unknownField(w);
        }
        return w.toByteArray();
    }

    private void unknownField(WireWriter w) {
        int field = 2 + rnd.nextInt(14);
        switch (rnd.nextInt(4)) {
            case 0:
                w.tag(field, 0).varint(rnd.nextLong());
                break;
            case 1:
                w.tag(field, 1).fixed64(rnd.nextLong());
                break;
            case 2:
                w.bytesField(field, values.bytes(rnd.nextInt(6)));
                break;
            default:
                w.tag(field, 5).fixed32(rnd.nextInt());
        }
    }

    /** Encoding choice shared with {@link WireValues}. */
    static Encoding encoding(Random rnd) {
        int r = rnd.nextInt(20);
        return r < 12 ? Encoding.PACKED : r < 17 ? Encoding.UNPACKED : Encoding.PACKED_OVERLONG;
    }
}
