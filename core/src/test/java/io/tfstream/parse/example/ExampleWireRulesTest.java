package io.tfstream.parse.example;

import static io.tfstream.parse.GoldenCases.dense;
import static io.tfstream.parse.GoldenCases.dims;
import static io.tfstream.parse.GoldenCases.error;
import static io.tfstream.parse.GoldenCases.ex;
import static io.tfstream.parse.GoldenCases.fixed;
import static io.tfstream.parse.GoldenCases.i64;
import static io.tfstream.parse.GoldenCases.parse;
import static io.tfstream.parse.GoldenCases.sparse;
import static io.tfstream.parse.GoldenCases.specs;
import static io.tfstream.parse.GoldenCases.strings;
import static io.tfstream.parse.GoldenCases.varLen;
import static io.tfstream.spec.DType.FLOAT32;
import static io.tfstream.spec.DType.INT64;
import static io.tfstream.spec.DType.STRING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseErrorKind;
import io.tfstream.parse.RecordBatch;
import io.tfstream.parse.SerializedRecords;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.tensor.Column;
import io.tfstream.testing.FeatureWire;
import io.tfstream.testing.FeatureWire.Encoding;
import io.tfstream.testing.WireWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Wire rules of TensorFlow's fast Example parser that protobuf-java never exercises. */
class ExampleWireRulesTest {

    /** [V two_kinds]: only the first kind is read; what follows in the Feature is ignored. */
    @Test
    void firstKindByteDecides() throws Exception {
        byte[] feature =
                new WireWriter().raw(0x0a, 0x00).raw(0x1a, 0x03, 0x0a, 0x01, 0x01).toByteArray();
        byte[] rec = ex(FeatureWire.entry("x", feature));
        assertEquals(
                sparse(new long[0][], strings(), 1, 0),
                parse(specs("x", varLen(STRING)), rec).feature("x"));
        assertEquals(
                "Name: <unknown>, Key: x, Index: 0.  Data types don't match. Expected type: int64,"
                        + " Actual type: string",
                error(specs("x", varLen(INT64)), rec));
    }

    /** [V int64_packed_then_unpacked]: the packed field ends the list. */
    @Test
    void packedThenUnpackedKeepsThePackedPart() throws Exception {
        byte[] list = new WireWriter().raw(0x0a, 0x01, 0x07).raw(0x08, 0x09).toByteArray();
        byte[] rec = ex(FeatureWire.entry("x", FeatureWire.feature(FeatureWire.INT64_KIND, list)));
        assertEquals(
                sparse(new long[][] {{0, 0}}, Column.int64s(7), 1, 1),
                parse(specs("x", varLen(INT64)), rec).feature("x"));
    }

    @Test
    void unpackedAndOverlongEncodingsDecodeAlike() throws Exception {
        long[] v = {0, -1, Long.MIN_VALUE, Long.MAX_VALUE, 300};
        for (Encoding enc : Encoding.values()) {
            byte[] f =
                    FeatureWire.feature(FeatureWire.INT64_KIND, FeatureWire.int64ListBody(v, enc));
            assertEquals(
                    dense(dims(1, 5), Column.int64s(v)),
                    parse(specs("x", fixed(INT64, 5)), ex(FeatureWire.entry("x", f))).feature("x"),
                    enc.name());
        }
    }

    /**
     * A Features tag written as a two-byte varint is not the byte TensorFlow expects, so the field
     * is skipped as unknown and its entries are not seen.
     */
    @Test
    void nonCanonicalFeaturesTagIsAnUnknownField() throws Exception {
        byte[] features = new WireWriter().bytesField(1, i64("x", 5)).toByteArray();
        byte[] rec =
                new WireWriter()
                        .raw(0x8a, 0x00)
                        .varint(features.length)
                        .raw(features)
                        .toByteArray();
        assertEquals(
                sparse(new long[0][], Column.int64s(), 1, 0),
                parse(specs("x", varLen(INT64)), rec).feature("x"));
    }

    @Test
    void mapEntryValueMayPrecedeKey() throws Exception {
        byte[] entry =
                new WireWriter()
                        .bytesField(2, FeatureWire.int64Feature(4))
                        .stringField(1, "x")
                        .toByteArray();
        assertEquals(
                sparse(new long[][] {{0, 0}}, Column.int64s(4), 1, 1),
                parse(specs("x", varLen(INT64)), ex(entry)).feature("x"));
    }

    /**
     * TensorFlow writes an unpacked float list longer than a fixed shape past its output slice
     * (undefined behaviour in {@code ParseFloatList}); the count it would report is the number of
     * 5-byte elements, which is what this parser reports.
     */
    @Test
    void unpackedFloatsBeyondAFixedShapeAreACountError() {
        byte[] f =
                FeatureWire.feature(
                        FeatureWire.FLOAT_KIND,
                        FeatureWire.floatListBody(new float[] {1, 2, 3}, Encoding.UNPACKED));
        assertEquals(
                "Name: <unknown>, Key: x, Index: 0.  Number of float values != expected.  Values size:"
                        + " 3 but output shape: [2]",
                error(specs("x", fixed(FLOAT32, 2)), ex(FeatureWire.entry("x", f))));
    }

    /** A packed float list counts declared length / 4 even when fewer bytes follow. */
    @Test
    void packedFloatCountComesFromTheDeclaredLength() {
        byte[] list = new WireWriter().raw(0x0a, 12).fixed32(0).fixed32(0).toByteArray();
        byte[] f = FeatureWire.feature(FeatureWire.FLOAT_KIND, list);
        assertEquals(
                "Name: <unknown>, Key: x, Index: 0.  Number of float values != expected.  Values size:"
                        + " 3 but output shape: [2]",
                error(specs("x", fixed(FLOAT32, 2)), ex(FeatureWire.entry("x", f))));
        assertEquals(
                "Name: <unknown>, Key: x, Index: 0.  Can't parse serialized Example.",
                error(specs("x", varLen(FLOAT32)), ex(FeatureWire.entry("x", f))));
    }

    /** Regression: a shape too large for a column was an ArithmeticException from toIntExact. */
    @Test
    void shapeTooLargeForAColumnIsRejectedWithItsName() {
        FeatureSpecs s = specs("big", fixed(INT64, 100_000, 100_000));
        assertEquals(
                "Feature big needs 10000000000 values per example, more than a column can hold"
                        + " (2147483647)",
                assertThrows(IllegalArgumentException.class, () -> ExampleBatchParser.create(s))
                        .getMessage());
    }

    /** Regression: the whole {@code [B] + shape} output was allocated before the first record. */
    @Test
    void largeFixedShapesAreNotPreallocatedForTheWholeBatch() {
        FeatureSpecs s = specs("big", fixed(INT64, 1000, 1000));
        List<byte[]> records = java.util.Collections.nCopies(1024, new byte[0]);
        ExampleBatchParser p = ExampleBatchParser.create(s);
        assertEquals(
                "Name: <unknown>, Feature: big (data type: int64) is required but could not be"
                        + " found.",
                assertThrows(
                                ExampleParseException.class,
                                () -> p.parse(SerializedRecords.of(records)))
                        .getMessage());
    }

    @Test
    void listViewParsesLikeACopiedBatch() throws Exception {
        List<byte[]> records = List.of(ex(i64("v", 1)), new byte[0], ex(i64("v", 2, 3)));
        FeatureSpecs s = specs("v", varLen(INT64));
        assertEquals(
                ExampleBatchParser.create(s).parse(RecordBatch.of(records)).features(),
                ExampleBatchParser.create(s).parse(SerializedRecords.of(records)).features());
    }

    @Test
    void lenientParseKeepsTheGoodRecords() {
        FeatureSpecs s = specs("a", fixed(INT64), "v", varLen(INT64));
        RecordBatch b =
                RecordBatch.of(
                        ex(i64("a", 1), i64("v", 1, 2)),
                        ex(i64("v", 3)),
                        new byte[] {0x0a, 0x05, 0x01},
                        ex(i64("a", 4), i64("v", 5)));
        List<ExampleParseException> rejected = new ArrayList<>();
        ParsedBatch p = ExampleBatchParser.create(s).parseLenient(b, rejected::add);
        assertEquals(2, p.rows());
        assertEquals(0, p.recordIndex(0));
        assertEquals(3, p.recordIndex(1));
        assertEquals(dense(dims(2), Column.int64s(1, 4)), p.feature("a"));
        assertEquals(
                sparse(new long[][] {{0, 0}, {0, 1}, {1, 0}}, Column.int64s(1, 2, 5), 2, 2),
                p.feature("v"));
        assertEquals(2, rejected.size());
        assertEquals(ParseErrorKind.REQUIRED_MISSING, rejected.get(0).kind());
        assertEquals(1, rejected.get(0).recordIndex());
        assertEquals(ParseErrorKind.MALFORMED, rejected.get(1).kind());
        assertEquals(2, rejected.get(1).recordIndex());
    }
}
