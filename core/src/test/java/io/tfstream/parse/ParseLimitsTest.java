package io.tfstream.parse;

import static io.tfstream.parse.GoldenCases.ex;
import static io.tfstream.parse.GoldenCases.f32;
import static io.tfstream.parse.GoldenCases.i64;
import static io.tfstream.parse.GoldenCases.specs;
import static io.tfstream.parse.GoldenCases.str;
import static io.tfstream.parse.GoldenCases.varLen;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.parse.wire.FeatureListDecoder;
import io.tfstream.parse.wire.WireCursor;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.tensor.BytesBuffer;
import io.tfstream.tensor.Float32Buffer;
import io.tfstream.tensor.Int64Buffer;
import io.tfstream.testing.FeatureWire;
import io.tfstream.testing.FeatureWire.Encoding;
import org.junit.jupiter.api.Test;

class ParseLimitsTest {

    private static ParseLimitException limitError(
            FeatureSpecs s, ParseLimits limits, byte[]... records) {
        ExampleBatchParser p = ExampleBatchParser.create(s, limits);
        return assertThrows(ParseLimitException.class, () -> p.parse(RecordBatch.of(records)));
    }

    private static void assertLimit(
            ParseLimitException e, String setting, int record, String message) {
        assertEquals(setting, e.setting());
        assertEquals(record, e.recordIndex());
        assertEquals(ParseErrorKind.LIMIT_EXCEEDED, e.kind());
        assertEquals("RESOURCE_EXHAUSTED", e.code());
        assertEquals(message, e.getMessage());
    }

    @Test
    void recordBytes() throws Exception {
        FeatureSpecs s = specs("x", varLen(DType.INT64));
        byte[] small = ex(i64("x", 1));
        byte[] big = ex(i64("x", 1, 2, 3, 4, 5, 6, 7, 8));
        ParseLimits limits = ParseLimits.defaults().withMaxRecordBytes(small.length);
        ExampleBatchParser.create(s, limits).parse(RecordBatch.of(small));
        assertLimit(
                limitError(s, limits, small, big),
                "maxRecordBytes",
                1,
                "record 1 has "
                        + big.length
                        + " bytes, exceeds maxRecordBytes ("
                        + small.length
                        + ")");
    }

    @Test
    void featuresPerExampleCountsEveryMapEntry() throws Exception {
        FeatureSpecs s = specs("x", varLen(DType.INT64));
        ParseLimits limits = ParseLimits.defaults().withMaxFeaturesPerExample(2);
        ExampleBatchParser.create(s, limits).parse(RecordBatch.of(ex(i64("x", 1), i64("y", 2))));
        assertLimit(
                limitError(s, limits, ex(i64("x", 1), i64("y", 2), i64("x", 3))),
                "maxFeaturesPerExample",
                0,
                "record 0 has 3 features, exceeds maxFeaturesPerExample (2)");
    }

    @Test
    void valuesPerFeatureInEveryEncoding() throws Exception {
        ParseLimits limits = ParseLimits.defaults().withMaxValuesPerFeature(3);
        FeatureSpecs ints = specs("x", varLen(DType.INT64));
        FeatureSpecs floats = specs("x", varLen(DType.FLOAT32));
        FeatureSpecs strings = specs("x", varLen(DType.STRING));
        ExampleBatchParser.create(ints, limits).parse(RecordBatch.of(ex(i64("x", 1, 2, 3))));
        String msg = "record 0: feature 'x' has 4 values, exceeds maxValuesPerFeature (3)";
        for (Encoding enc : Encoding.values()) {
            byte[] i =
                    FeatureWire.feature(
                            FeatureWire.INT64_KIND,
                            FeatureWire.int64ListBody(new long[] {1, 2, 300, 4}, enc));
            byte[] f =
                    FeatureWire.feature(
                            FeatureWire.FLOAT_KIND,
                            FeatureWire.floatListBody(new float[] {1, 2, 3, 4}, enc));
            assertLimit(
                    limitError(ints, limits, ex(FeatureWire.entry("x", i))),
                    "maxValuesPerFeature",
                    0,
                    msg);
            assertLimit(
                    limitError(floats, limits, ex(FeatureWire.entry("x", f))),
                    "maxValuesPerFeature",
                    0,
                    msg);
        }
        assertLimit(
                limitError(strings, limits, ex(str("x", "a", "b", "c", "d"))),
                "maxValuesPerFeature",
                0,
                msg);
        assertLimit(
                limitError(
                        specs("x", GoldenCases.fixed(DType.FLOAT32, 4)),
                        limits,
                        ex(f32("x", 1, 2, 3, 4))),
                "maxValuesPerFeature",
                0,
                msg);
    }

    @Test
    void bytesPerValue() throws Exception {
        ParseLimits limits = ParseLimits.defaults().withMaxBytesPerValue(4);
        FeatureSpecs s = specs("x", varLen(DType.STRING));
        ExampleBatchParser.create(s, limits).parse(RecordBatch.of(ex(str("x", "abcd"))));
        assertLimit(
                limitError(s, limits, ex(str("x", "ab")), ex(str("x", "abcde"))),
                "maxBytesPerValue",
                1,
                "record 1: feature 'x' has a value of 5 bytes, exceeds maxBytesPerValue (4)");
    }

    /**
     * Numeric lists are counted (packed) or sized from their byte length (floats) before the column
     * grows; a bytes list never stores more than the limit and rolls back.
     */
    @Test
    void valueLimitsAreCheckedBeforeAllocating() {
        WireCursor c = new WireCursor();
        long[] many = new long[10_000];
        byte[] packed = FeatureWire.int64ListBody(many, Encoding.PACKED);
        byte[] feature = FeatureWire.feature(FeatureWire.INT64_KIND, packed);
        Int64Buffer ints = new Int64Buffer(4);
        c.reset(feature, 1, feature.length);
        assertEquals(
                FeatureListDecoder.TOO_MANY_VALUES,
                FeatureListDecoder.int64List(c, ints, FeatureListDecoder.NO_CAP, 100));
        assertEquals(10_000, c.value);
        assertEquals(4, ints.array().length);

        byte[] floats =
                FeatureWire.feature(
                        FeatureWire.FLOAT_KIND,
                        FeatureWire.floatListBody(new float[10_000], Encoding.PACKED));
        Float32Buffer fb = new Float32Buffer(4);
        c.reset(floats, 1, floats.length);
        assertEquals(
                FeatureListDecoder.TOO_MANY_VALUES,
                FeatureListDecoder.floatList(c, fb, FeatureListDecoder.NO_CAP, 100));
        assertEquals(4, fb.array().length);

        byte[][] values = new byte[1000][];
        java.util.Arrays.fill(values, new byte[] {1});
        byte[] strings = FeatureWire.bytesFeature(values);
        BytesBuffer bb = new BytesBuffer(4, 16);
        c.reset(strings, 1, strings.length);
        assertEquals(
                FeatureListDecoder.TOO_MANY_VALUES,
                FeatureListDecoder.bytesList(c, bb, FeatureListDecoder.NO_CAP, 100, 1 << 20));
        assertEquals(1000, c.value);
        assertEquals(0, bb.size());

        byte[] huge = FeatureWire.bytesFeature(new byte[5000]);
        bb = new BytesBuffer(4, 16);
        c.reset(huge, 1, huge.length);
        assertEquals(
                FeatureListDecoder.VALUE_TOO_LONG,
                FeatureListDecoder.bytesList(c, bb, FeatureListDecoder.NO_CAP, 100, 4096));
        assertEquals(5000, c.value);
        assertEquals(16, bb.data().length);
    }

    /** A packed float list declaring 4 GiB is malformed for TensorFlow; nothing is reserved. */
    @Test
    void declaredLengthsAreNotTrusted() {
        byte[] body =
                new io.tfstream.testing.WireWriter()
                        .raw(0x0a)
                        .varint(0xffff_fff0L)
                        .fixed32(0)
                        .toByteArray();
        byte[] feature = FeatureWire.feature(FeatureWire.FLOAT_KIND, body);
        Float32Buffer fb = new Float32Buffer(4);
        WireCursor c = new WireCursor();
        c.reset(feature, 1, feature.length);
        assertEquals(
                FeatureListDecoder.MALFORMED,
                FeatureListDecoder.floatList(c, fb, FeatureListDecoder.NO_CAP, Integer.MAX_VALUE));
        assertEquals(4, fb.array().length);
    }

    @Test
    void settingsMustBePositive() {
        assertEquals(
                "maxValuesPerFeature must be positive, got 0",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> ParseLimits.defaults().withMaxValuesPerFeature(0))
                        .getMessage());
        assertEquals(Integer.MAX_VALUE, ParseLimits.none().maxRecordBytes());
        assertEquals(ParseLimits.DEFAULT_MAX_RECORD_BYTES, ParseLimits.defaults().maxRecordBytes());
    }
}
