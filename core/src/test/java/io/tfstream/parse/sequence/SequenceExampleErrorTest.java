package io.tfstream.parse.sequence;

import static io.tfstream.spec.DType.FLOAT32;
import static io.tfstream.spec.DType.INT64;
import static io.tfstream.spec.DType.STRING;
import static io.tfstream.testing.sequence.SeqSpecs.dict;
import static io.tfstream.testing.sequence.SeqSpecs.fixed;
import static io.tfstream.testing.sequence.SeqSpecs.ragged;
import static io.tfstream.testing.sequence.SeqSpecs.seq;
import static io.tfstream.testing.sequence.SeqSpecs.shape;
import static io.tfstream.testing.sequence.SeqSpecs.specs;
import static io.tfstream.testing.sequence.SeqSpecs.varLen;
import static io.tfstream.testing.sequence.SeqWire.context;
import static io.tfstream.testing.sequence.SeqWire.emptyFeature;
import static io.tfstream.testing.sequence.SeqWire.entry;
import static io.tfstream.testing.sequence.SeqWire.featureList;
import static io.tfstream.testing.sequence.SeqWire.featureLists;
import static io.tfstream.testing.sequence.SeqWire.floatFeature;
import static io.tfstream.testing.sequence.SeqWire.int64Feature;
import static io.tfstream.testing.sequence.SeqWire.stringFeature;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseLimitException;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.RecordBatch;
import io.tfstream.spec.DefaultValue;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenSequenceFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SequenceFeatureSpecs;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The error rows of golden case Q03 (TensorFlow 2.18 texts, names "in1"/"in2"), Python's spec
 * checks for sequence specs, and the {@link ParseLimits} checks.
 */
class SequenceExampleErrorTest {
    private static String batchError(SequenceFeatureSpecs s, byte[]... records) {
        RecordBatch b = new RecordBatch();
        for (int i = 0; i < records.length; i++) {
            b.addNamed(records[i], 0, records[i].length, "in" + (i + 1));
        }
        SequenceExampleBatchParser p = SequenceExampleBatchParser.create(s, ParseLimits.defaults());
        return assertThrows(ExampleParseException.class, () -> p.parse(b)).getMessage();
    }

    private static String singleError(SequenceFeatureSpecs s, byte[] record) {
        SequenceExampleBatchParser p = SequenceExampleBatchParser.create(s, ParseLimits.defaults());
        return assertThrows(
                        ExampleParseException.class,
                        () -> p.parseSingle(record, 0, record.length, "in1"))
                .getMessage();
    }

    private static SequenceFeatureSpecs ctx(Object... d) {
        return specs(dict(d), FeatureSpecs.empty());
    }

    private static SequenceFeatureSpecs lists(Object... d) {
        return specs(FeatureSpecs.empty(), dict(d));
    }

    private static byte[] c(byte[] feature) {
        return context(entry("c", feature));
    }

    private static byte[] a(byte[]... steps) {
        return featureLists(entry("a", featureList(steps)));
    }

    @Test
    void contextRequiredMissingEverywhere() {
        SequenceFeatureSpecs s = ctx("c", fixed(FLOAT32));
        String m = "Inconsistent max number of elements for feature c: expected 1, but found 0";
        assertEquals(m, batchError(s, new byte[0], new byte[0]));
        assertEquals(m, singleError(s, new byte[0]));
        assertEquals(m, batchError(s));
    }

    @Test
    void contextRequiredMissingInOne() {
        assertEquals(
                "Feature: c (data type: float) is required but could not be found.",
                batchError(ctx("c", fixed(FLOAT32)), c(floatFeature(1)), new byte[0]));
    }

    @Test
    void contextEmptyFeatureIsPresentEvenWithDefault() throws Exception {
        SequenceFeatureSpecs s = ctx("c", fixed(FLOAT32, DefaultValue.ofFloat32(9)));
        RecordBatch ok = RecordBatch.of(c(floatFeature(1)), new byte[0]);
        assertEquals(
                new io.tfstream.tensor.DenseTensor(
                        new long[] {2}, io.tfstream.tensor.Column.float32s(1, 9)),
                SequenceExampleBatchParser.create(s, ParseLimits.defaults())
                        .parse(ok)
                        .context()
                        .get("c"));
        assertEquals(
                "Unexpected number of elements in example in2",
                batchError(s, c(floatFeature(1)), c(emptyFeature())));
    }

    @Test
    void contextWrongCounts() {
        SequenceFeatureSpecs s = ctx("c", fixed(FLOAT32, 2));
        assertEquals(
                "Inconsistent max number of elements for feature c: expected 2, but found 3",
                batchError(s, c(floatFeature(1, 2, 3))));
        assertEquals(
                "Unexpected number of elements in example in2",
                batchError(s, c(floatFeature(1, 2)), c(floatFeature(1))));
    }

    @Test
    void contextWrongType() {
        String m = "Name: in1, Context feature: c.  Data types don't match. Expected type: float";
        assertEquals(m, batchError(ctx("c", fixed(FLOAT32)), c(int64Feature(1))));
        assertEquals(m, batchError(ctx("c", varLen(FLOAT32)), c(int64Feature(1))));
        assertEquals(m, singleError(ctx("c", varLen(FLOAT32)), c(int64Feature(1))));
    }

    @Test
    void featureListRequired() {
        assertEquals(
                "Name: in1, Feature list 'a' is required but could not be found.  Did you mean to"
                        + " include it in feature_list_dense_missing_assumed_empty or"
                        + " feature_list_dense_defaults?",
                batchError(lists("a", seq(INT64, false, 2)), new byte[0]));
    }

    @Test
    void featureListWrongCounts() {
        SequenceFeatureSpecs s = lists("a", seq(INT64, false, 2));
        assertEquals(
                "Feature list 'a' has an unexpected number of values.  Total values size: 5 is not"
                        + " consistent with output shape: [?,2]",
                batchError(s, a(int64Feature(2, 3), int64Feature(2, 3, 4))));
        String m =
                "Name: in1, Key: a, Index: 0.  Number of values != expected.  values size: 1 but"
                        + " output shape: [2]";
        assertEquals(m, batchError(s, a(int64Feature(2), int64Feature(2, 3, 4))));
        assertEquals(m, singleError(s, a(int64Feature(2), int64Feature(2, 3, 4))));
        String empty =
                "Name: in1, Key: a, Index: 1.  Number of values != expected.  values size: 0 but"
                        + " output shape: [2]";
        assertEquals(empty, batchError(s, a(int64Feature(1, 2), emptyFeature())));
        assertEquals(empty, batchError(s, a(int64Feature(1, 2), int64Feature())));
    }

    @Test
    void featureListWrongType() {
        assertEquals(
                "Name: in1, Feature list: a, Index: 1.  Data types don't match. Expected type:"
                        + " int64",
                batchError(
                        lists("a", seq(INT64, false, 2)),
                        a(int64Feature(-1, 0), floatFeature(2, 3))));
        SequenceFeatureSpecs s = lists("s", varLen(FLOAT32));
        String m =
                "Name: in1, Feature list: s, Index: 1.  Data types don't match. Expected type: float";
        assertEquals(
                m,
                batchError(
                        s,
                        featureLists(entry("s", featureList(floatFeature(1), int64Feature(2))))));
        assertEquals(
                m,
                batchError(
                        s, featureLists(entry("s", featureList(floatFeature(1), int64Feature())))));
    }

    @Test
    void malformedRecord() {
        assertEquals(
                "Invalid protocol message input, example id: in2",
                batchError(ctx("c", varLen(INT64)), new byte[0], new byte[] {0x0a, 0x05, 0x0a}));
        assertEquals(
                "Invalid protocol message input, example id: <unknown>",
                assertThrows(
                                ExampleParseException.class,
                                () ->
                                        SequenceExampleBatchParser.create(
                                                        ctx("c", varLen(STRING)),
                                                        ParseLimits.defaults())
                                                .parse(RecordBatch.of(new byte[] {0x0b})))
                        .getMessage());
    }

    @Test
    void pythonSpecChecks() {
        FixedLenSequenceFeature withDefault =
                new FixedLenSequenceFeature(
                        shape(2), INT64, true, Optional.of(DefaultValue.ofInt64(0)));
        assertEquals(
                "Value feature_list.dense_defaults[a] must be None",
                assertThrows(
                                IllegalArgumentException.class,
                                () ->
                                        SequenceExampleBatchParser.create(
                                                lists("a", withDefault), ParseLimits.defaults()))
                        .getMessage());
        assertEquals(
                "Both `context_features` and `sequence_features` argument are None, but at least"
                        + " one should have values.",
                assertThrows(
                                IllegalArgumentException.class,
                                () ->
                                        SequenceExampleBatchParser.create(
                                                specs(FeatureSpecs.empty(), FeatureSpecs.empty()),
                                                ParseLimits.defaults()))
                        .getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> specs(dict("a", seq(INT64, true, 2)), FeatureSpecs.empty()));
        assertThrows(
                IllegalArgumentException.class,
                () -> specs(FeatureSpecs.empty(), dict("a", fixed(INT64, 2))));
        assertEquals(
                "Dense and ragged keys must not intersect; intersection: {'a'}",
                assertThrows(
                                IllegalArgumentException.class,
                                () ->
                                        SequenceExampleBatchParser.create(
                                                ctx(
                                                        "a",
                                                        fixed(INT64),
                                                        "b",
                                                        ragged(INT64, "a", RowSplitsDType.INT32)),
                                                ParseLimits.defaults()))
                        .getMessage());
    }

    @Test
    void limitsAreNamed() {
        SequenceFeatureSpecs s = lists("a", varLen(STRING));
        byte[] rec = a(stringFeature("abc", "defgh"), stringFeature("x"));
        ParseLimits tight = ParseLimits.defaults().withMaxValuesPerFeature(2);
        ParseLimitException e =
                assertThrows(
                        ParseLimitException.class,
                        () ->
                                SequenceExampleBatchParser.create(s, tight)
                                        .parse(RecordBatch.of(rec)));
        assertEquals("maxValuesPerFeature", e.setting());
        assertEquals(
                "record 0: feature 'a' has 3 values, exceeds maxValuesPerFeature (2)",
                e.getMessage());
        ParseLimitException bytes =
                assertThrows(
                        ParseLimitException.class,
                        () ->
                                SequenceExampleBatchParser.create(
                                                s, ParseLimits.defaults().withMaxBytesPerValue(4))
                                        .parse(RecordBatch.of(rec)));
        assertEquals(
                "record 0: feature 'a' has a value of 5 bytes, exceeds maxBytesPerValue (4)",
                bytes.getMessage());
        ParseLimitException size =
                assertThrows(
                        ParseLimitException.class,
                        () ->
                                SequenceExampleBatchParser.create(
                                                s, ParseLimits.defaults().withMaxRecordBytes(8))
                                        .parse(RecordBatch.of(rec)));
        assertEquals("maxRecordBytes", size.setting());
        ParseLimitException entries =
                assertThrows(
                        ParseLimitException.class,
                        () ->
                                SequenceExampleBatchParser.create(
                                                s,
                                                ParseLimits.defaults().withMaxFeaturesPerExample(1))
                                        .parse(
                                                RecordBatch.of(
                                                        featureLists(
                                                                entry("a", featureList()),
                                                                entry("b", featureList())))));
        assertEquals(
                "record 0 has 2 features, exceeds maxFeaturesPerExample (1)", entries.getMessage());
    }
}
