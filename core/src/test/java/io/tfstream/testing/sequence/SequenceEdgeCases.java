package io.tfstream.testing.sequence;

import static io.tfstream.spec.DType.FLOAT32;
import static io.tfstream.spec.DType.INT64;
import static io.tfstream.spec.DType.STRING;
import static io.tfstream.testing.sequence.SeqSpecs.dict;
import static io.tfstream.testing.sequence.SeqSpecs.fixed;
import static io.tfstream.testing.sequence.SeqSpecs.ragged;
import static io.tfstream.testing.sequence.SeqSpecs.seq;
import static io.tfstream.testing.sequence.SeqSpecs.specs;
import static io.tfstream.testing.sequence.SeqSpecs.varLen;
import static io.tfstream.testing.sequence.SeqWire.concat;
import static io.tfstream.testing.sequence.SeqWire.context;
import static io.tfstream.testing.sequence.SeqWire.emptyFeature;
import static io.tfstream.testing.sequence.SeqWire.entry;
import static io.tfstream.testing.sequence.SeqWire.featureList;
import static io.tfstream.testing.sequence.SeqWire.featureLists;
import static io.tfstream.testing.sequence.SeqWire.field;
import static io.tfstream.testing.sequence.SeqWire.floatFeature;
import static io.tfstream.testing.sequence.SeqWire.int64Feature;
import static io.tfstream.testing.sequence.SeqWire.stringFeature;
import static io.tfstream.testing.sequence.SeqWire.utf8;
import static io.tfstream.testing.sequence.SeqWire.varint;

import io.tfstream.spec.DefaultValue;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SequenceFeatureSpecs;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Hand-built SequenceExample records for wire-level edge cases, each with a label, for the spec
 * {@link #SPEC} (every context and feature-list kind and dtype) or {@link #REQUIRED_SPEC}. Each
 * record has at most one invalid feature, so that the first error TensorFlow reports does not
 * depend on its hash-map order. Records whose handling by TensorFlow is undefined (a bytes value
 * longer than its list under a VarLen feature, where the kernel indexes past its buffers) are not
 * generated.
 */
public final class SequenceEdgeCases {
    /** One labelled record. */
    public record Case(String label, byte[] record) {}

    public static final SequenceFeatureSpecs SPEC =
            specs(
                    dict(
                            "ci", fixed(INT64, DefaultValue.ofInt64(7, 8), 2),
                            "cf", fixed(FLOAT32, DefaultValue.ofFloat32(-1)),
                            "cb", fixed(STRING, DefaultValue.ofBytes(utf8("d")), 1),
                            "cs", varLen(STRING),
                            "cv", varLen(FLOAT32),
                            "cr", ragged(INT64, "cr", RowSplitsDType.INT32),
                            "crs", ragged(STRING, "crs", RowSplitsDType.INT64)),
                    dict(
                            "li", seq(INT64, true, 2),
                            "lf", seq(FLOAT32, true),
                            "lb", seq(STRING, true, 1),
                            "ls", varLen(STRING),
                            "lv", varLen(INT64),
                            "lr", ragged(FLOAT32, "lr", RowSplitsDType.INT64),
                            "lrs", ragged(STRING, "lrs", RowSplitsDType.INT32)));

    /**
     * {@link #SPEC} without its VarLen string features: bit flips in records of this spec cannot
     * make a VarLen string value overrun its list, which TensorFlow's kernel does not survive.
     */
    static final SequenceFeatureSpecs FLIP_SOURCE_SPEC =
            specs(
                    dict(
                            "ci", fixed(INT64, DefaultValue.ofInt64(7, 8), 2),
                            "cf", fixed(FLOAT32, DefaultValue.ofFloat32(-1)),
                            "cb", fixed(STRING, DefaultValue.ofBytes(utf8("d")), 1),
                            "cv", varLen(FLOAT32),
                            "cr", ragged(INT64, "cr", RowSplitsDType.INT32),
                            "crs", ragged(STRING, "crs", RowSplitsDType.INT64)),
                    dict(
                            "li", seq(INT64, true, 2),
                            "lf", seq(FLOAT32, true),
                            "lb", seq(STRING, true, 1),
                            "lv", varLen(INT64),
                            "lr", ragged(FLOAT32, "lr", RowSplitsDType.INT64),
                            "lrs", ragged(STRING, "lrs", RowSplitsDType.INT32)));

    public static final SequenceFeatureSpecs REQUIRED_SPEC =
            specs(
                    dict("ci", fixed(INT64, 2), "cs", varLen(STRING)),
                    dict("li", seq(INT64, false, 2), "lf", seq(FLOAT32, false)));

    private SequenceEdgeCases() {}

    /** A step/Feature whose bytes end after {@code body}'s list plus {@code trailing} bytes. */
    private static byte[] withTrailing(byte[] feature, int... trailing) {
        byte[] t = new byte[trailing.length];
        for (int i = 0; i < t.length; i++) {
            t[i] = (byte) trailing[i];
        }
        return concat(feature, t);
    }

    private static byte[] ctx(String key, byte[] feature) {
        return context(entry(key, feature));
    }

    private static byte[] list(String key, byte[]... steps) {
        return featureLists(entry(key, featureList(steps)));
    }

    /** A bytes_list whose one value declares more bytes than remain. */
    private static byte[] truncatedBytesFeature() {
        return new byte[] {0x0a, 0x03, 0x0a, 0x05, 'a'};
    }

    public static List<Case> cases(long seed) {
        Random r = new Random(seed);
        RandomSequenceExamples gen = new RandomSequenceExamples(seed);
        List<Case> c = new ArrayList<>();
        c.add(new Case("empty record", new byte[0]));
        c.add(
                new Case(
                        "dup context last wins",
                        context(entry("ci", int64Feature(1, 2)), entry("ci", int64Feature(3, 4)))));
        c.add(
                new Case(
                        "dup context last empty sparse",
                        concat(ctx("cs", stringFeature("a")), ctx("cs", emptyFeature()))));
        c.add(
                new Case(
                        "dup context last empty ragged",
                        concat(ctx("cr", int64Feature(5)), ctx("cr", emptyFeature()))));
        c.add(
                new Case(
                        "dup context last empty dense",
                        concat(ctx("ci", int64Feature(1, 2)), ctx("ci", emptyFeature()))));
        c.add(
                new Case(
                        "dup context first wrong kind",
                        concat(ctx("cf", int64Feature(1)), ctx("cf", floatFeature(2)))));
        c.add(new Case("context feature{} with default", ctx("cf", emptyFeature())));
        c.add(
                new Case(
                        "feature list replaced",
                        concat(
                                list("lv", int64Feature(1), int64Feature(2)),
                                list("lv", int64Feature(3)))));
        c.add(
                new Case(
                        "dense list replaced",
                        concat(
                                list("li", int64Feature(1, 2)),
                                list("li", int64Feature(3, 4), int64Feature(5, 6)))));
        c.add(
                new Case(
                        "empty steps sparse and ragged",
                        concat(
                                list("lv", emptyFeature(), int64Feature(1), emptyFeature()),
                                list("lr", emptyFeature()),
                                list("lrs", emptyFeature(), stringFeature()))));
        c.add(
                new Case(
                        "empty feature lists",
                        featureLists(
                                entry("li", featureList()),
                                entry("lf", featureList()),
                                entry("ls", featureList()),
                                entry("lr", featureList()),
                                entry("lrs", featureList()))));
        c.add(new Case("dense step feature{}", list("li", int64Feature(1, 2), emptyFeature())));
        c.add(new Case("dense step empty list", list("lf", floatFeature())));
        c.add(new Case("dense step too many", list("li", int64Feature(1, 2, 3))));
        c.add(
                new Case(
                        "dense total not multiple",
                        list("li", int64Feature(1, 2), int64Feature(1, 2, 3))));
        c.add(new Case("context wrong kind sparse", ctx("cs", int64Feature(1))));
        c.add(new Case("context wrong kind dense", ctx("ci", floatFeature(1, 2))));
        c.add(new Case("context wrong kind ragged", ctx("cr", stringFeature("x"))));
        c.add(new Case("context empty list other kind", ctx("cv", int64Feature())));
        c.add(new Case("list wrong kind", list("ls", stringFeature("a"), floatFeature(1))));
        c.add(
                new Case(
                        "list empty other kind 2 bytes",
                        list("lv", int64Feature(1), stringFeature())));
        c.add(new Case("list wrong kind ragged", list("lr", floatFeature(1), int64Feature(2))));
        c.add(new Case("list wrong kind dense", list("lf", floatFeature(1), int64Feature(2))));
        c.add(new Case("list step of one byte", list("lv", new byte[] {0x1a})));
        c.add(new Case("list step two bytes nonzero len", list("lv", new byte[] {0x1a, 0x01})));
        c.add(
                new Case(
                        "unpacked int64 and float",
                        concat(
                                ctx("cr", int64Feature(false, 1, -1, Long.MIN_VALUE)),
                                ctx("cv", floatFeature(false, 1.5f, Float.NaN)),
                                list("lv", int64Feature(false, 3, 4)),
                                list("lf", floatFeature(false, -0.0f)))));
        byte[] packedThenUnpacked = {0x1a, 0x05, 0x0a, 0x01, 0x07, 0x08, 0x09};
        c.add(
                new Case(
                        "int64 packed then unpacked",
                        concat(ctx("cr", packedThenUnpacked), list("lv", packedThenUnpacked))));
        byte[] unpackedThenPacked = {0x1a, 0x05, 0x08, 0x07, 0x0a, 0x01, 0x09};
        c.add(new Case("int64 unpacked then packed ctx", ctx("cr", unpackedThenPacked)));
        c.add(new Case("int64 unpacked then packed list", list("lv", unpackedThenPacked)));
        byte[] floatPackedShort = {0x12, 0x05, 0x0a, 0x03, 0, 0, (byte) 0x80};
        c.add(new Case("float packed length 3 ctx", ctx("cv", floatPackedShort)));
        c.add(new Case("float packed length 3 list", list("lr", floatPackedShort)));
        byte[] floatPackedTwice = {
            0x12, 0x0c, 0x0a, 0x04, 0, 0, (byte) 0x80, 0x3f, 0x0a, 0x04, 0, 0, 0, 0x40
        };
        c.add(
                new Case(
                        "float two packed fields",
                        concat(ctx("cv", floatPackedTwice), list("lr", floatPackedTwice))));
        c.add(
                new Case(
                        "extreme values",
                        concat(
                                ctx("cr", int64Feature(Long.MAX_VALUE, Long.MIN_VALUE, 0, -1)),
                                ctx(
                                        "cv",
                                        floatFeature(
                                                Float.NaN,
                                                Float.intBitsToFloat(0x7f800001),
                                                Float.POSITIVE_INFINITY,
                                                Float.NEGATIVE_INFINITY,
                                                -0.0f)),
                                list("li", int64Feature(Long.MIN_VALUE, Long.MAX_VALUE)),
                                list("lf", floatFeature(Float.intBitsToFloat(0xffc00123))))));
        byte[] overlong = {
            0x1a,
            0x0c,
            0x0a,
            0x0a,
            (byte) 0xff,
            (byte) 0xff,
            (byte) 0xff,
            (byte) 0xff,
            (byte) 0xff,
            (byte) 0xff,
            (byte) 0xff,
            (byte) 0xff,
            (byte) 0xff,
            0x7f
        };
        c.add(new Case("ten-byte varint", concat(ctx("cr", overlong), list("lv", overlong))));
        c.add(
                new Case(
                        "trailing bytes after context list",
                        ctx("cr", withTrailing(int64Feature(1, 2), 0x12, 0x00))));
        c.add(
                new Case(
                        "trailing bytes in step read as steps",
                        list("lv", withTrailing(int64Feature(1, 2), 0x0a, 0x00), int64Feature(3))));
        c.add(
                new Case(
                        "trailing bytes in ragged step",
                        list("lr", withTrailing(floatFeature(1), 0x0a, 0x02, 0x12, 0x00))));
        c.add(
                new Case(
                        "trailing garbage in step",
                        list("lv", withTrailing(int64Feature(1), 0x18, 0x01))));
        c.add(new Case("truncated bytes value dense ctx", ctx("cb", truncatedBytesFeature())));
        c.add(new Case("truncated bytes value dense list", list("lb", truncatedBytesFeature())));
        c.add(new Case("truncated bytes value ragged ctx", ctx("crs", truncatedBytesFeature())));
        c.add(
                new Case(
                        "truncated bytes value ragged list",
                        list("lrs", stringFeature("q"), truncatedBytesFeature())));
        c.add(
                new Case(
                        "unknown top-level fields",
                        concat(
                                new byte[] {0x18, 0x05},
                                new byte[] {0x19, 1, 2, 3, 4, 5, 6, 7, 8},
                                ctx("cr", int64Feature(4)),
                                new byte[] {0x1d, 1, 2, 3, 4},
                                field(4, utf8("zz")))));
        c.add(
                new Case(
                        "group at top level",
                        concat(ctx("cr", int64Feature(4)), new byte[] {0x1b, 0x1c})));
        c.add(
                new Case(
                        "entry value before key",
                        field(
                                1,
                                field(
                                        1,
                                        concat(field(2, int64Feature(1)), field(1, utf8("cr")))))));
        c.add(
                new Case(
                        "entry with extra field",
                        field(
                                1,
                                field(
                                        1,
                                        concat(
                                                field(1, utf8("cr")),
                                                field(2, int64Feature(1)),
                                                field(3, new byte[0]))))));
        c.add(new Case("entry without value", field(1, field(1, field(1, utf8("cr"))))));
        c.add(new Case("entry of unrequested key", context(entry("zz", new byte[] {0x7f}))));
        c.add(
                new Case(
                        "context key in feature lists",
                        concat(
                                featureLists(entry("cr", featureList(int64Feature(1)))),
                                context(entry("lv", int64Feature(1))))));
        c.add(
                new Case(
                        "example blob",
                        field(
                                1,
                                concat(
                                        entry("cr", int64Feature(1, 2)),
                                        entry("cs", stringFeature("e"))))));
        c.add(new Case("section length past end", new byte[] {0x0a, 0x7f, 0x0a, 0x00}));
        c.add(
                new Case(
                        "concatenated records",
                        concat(gen.record(SPEC), gen.record(SPEC), gen.record(SPEC))));
        c.add(new Case("many steps", list("lv", manySteps(300))));
        c.add(new Case("unknown kind byte in context", ctx("cs", new byte[] {0x22, 0x00})));
        c.add(new Case("unknown kind byte in list", list("ls", new byte[] {0x22, 0x01, 0x00})));
        for (int i = 0; i < 40; i++) {
            byte[] good = gen.record(SPEC);
            if (good.length > 1) {
                c.add(
                        new Case(
                                "truncated record " + i,
                                Arrays.copyOf(good, r.nextInt(good.length))));
            }
        }
        for (int i = 0; i < 30; i++) {
            byte[] junk = new byte[r.nextInt(24)];
            r.nextBytes(junk);
            c.add(new Case("garbage " + i, junk));
        }
        for (int i = 0; i < 30; i++) {
            byte[] good = gen.record(FLIP_SOURCE_SPEC);
            if (good.length > 0) {
                good[r.nextInt(good.length)] ^= (byte) (1 << r.nextInt(8));
                c.add(new Case("bit flip " + i, good));
            }
        }
        return c;
    }

    private static byte[][] manySteps(int n) {
        byte[][] s = new byte[n][];
        for (int i = 0; i < n; i++) {
            s[i] = i % 3 == 0 ? emptyFeature() : int64Feature(i);
        }
        return s;
    }

    /** Cases for {@link #REQUIRED_SPEC}. */
    public static List<Case> requiredCases() {
        List<Case> c = new ArrayList<>();
        byte[] ok =
                concat(
                        ctx("ci", int64Feature(1, 2)),
                        featureLists(
                                entry("li", featureList(int64Feature(3, 4))),
                                entry("lf", featureList(floatFeature(1)))));
        c.add(new Case("all present", ok));
        c.add(new Case("missing everything", new byte[0]));
        c.add(
                new Case(
                        "missing dense list",
                        concat(ctx("ci", int64Feature(1, 2)), list("lf", floatFeature(1)))));
        c.add(
                new Case(
                        "missing context",
                        featureLists(entry("li", featureList()), entry("lf", featureList()))));
        c.add(
                new Case(
                        "empty lists present",
                        concat(
                                ctx("ci", int64Feature(1, 2)),
                                featureLists(
                                        entry("li", featureList()), entry("lf", featureList())))));
        c.add(new Case("varint field varvalue", varint(0)));
        return c;
    }
}
