package io.tfstream.parse.sequence;

import static io.tfstream.spec.DType.FLOAT32;
import static io.tfstream.spec.DType.INT64;
import static io.tfstream.spec.DType.STRING;
import static io.tfstream.spec.RowSplitsDType.INT32;
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
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.RecordBatch;
import io.tfstream.spec.DefaultValue;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.RaggedTensor;
import io.tfstream.tensor.SparseTensor;
import io.tfstream.tensor.Tensor;
import io.tfstream.testing.sequence.SequenceGoldenRecords;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The SequenceExample golden cases Q01-Q05 and Q07-Q09 of the parsing reference (outputs of
 * TensorFlow 2.18's {@code ParseSequenceExampleV2}, copied verbatim); error cases are in {@link
 * SequenceExampleErrorTest}.
 */
class SequenceExampleGoldenTest {
    static ParsedSequenceBatch batch(SequenceFeatureSpecs s, byte[]... records)
            throws ExampleParseException {
        return SequenceExampleBatchParser.create(s, ParseLimits.defaults())
                .parse(RecordBatch.of(records));
    }

    static ParsedSequenceBatch single(SequenceFeatureSpecs s, byte[] record)
            throws ExampleParseException {
        return SequenceExampleBatchParser.create(s, ParseLimits.defaults())
                .parseSingle(record, 0, record.length);
    }

    static DenseTensor dense(Column values, long... shape) {
        return new DenseTensor(shape, values);
    }

    static SparseTensor sparse(long[] indices, Column values, long... shape) {
        return new SparseTensor(indices, values, shape);
    }

    static RaggedTensor ragged1(Column values, RowSplitsDType t, long[]... splits) {
        return new RaggedTensor(values, new long[] {values.size()}, List.of(splits), t);
    }

    static Column str(String... s) {
        byte[][] b = new byte[s.length][];
        for (int i = 0; i < s.length; i++) {
            b[i] = s[i].getBytes(StandardCharsets.UTF_8);
        }
        return Column.strings(b);
    }

    static long[] l(long... v) {
        return v;
    }

    @Test
    void q01Single() throws Exception {
        SequenceFeatureSpecs s =
                specs(
                        dict(
                                "c", fixed(FLOAT32, 2),
                                "st_a", varLen(FLOAT32),
                                "d", fixed(INT64, DefaultValue.ofInt64(1, 2, 3), 1, 3)),
                        dict(
                                "a", seq(INT64, false, 1, 3),
                                "s", varLen(FLOAT32),
                                "r", ragged(STRING, "r", INT32),
                                "m", seq(FLOAT32, true, 5)));
        ParsedSequenceBatch p = single(s, SequenceGoldenRecords.Q01_EX0);
        assertEquals(-1, p.batchSize());
        assertEquals(dense(Column.float32s(3, 4), 2), p.context().get("c"));
        assertEquals(sparse(l(0, 1), Column.float32s(3, 4), 2), p.context().get("st_a"));
        assertEquals(dense(Column.int64s(1, 2, 3), 1, 3), p.context().get("d"));
        assertEquals(dense(Column.int64s(-1, 0, 1, 2, 3, 4), 2, 1, 3), p.featureLists().get("a"));
        assertEquals(dense(Column.float32s(), 0, 5), p.featureLists().get("m"));
        assertEquals(
                sparse(l(0, 0, 0, 1, 1, 0), Column.float32s(3, 4, 5), 3, 2),
                p.featureLists().get("s"));
        assertEquals(ragged1(str("x", "y", "z"), INT32, l(0, 1, 3)), p.featureLists().get("r"));
        assertEquals(dense(Column.int64s(2)), p.featureListLengths().get("a"));
        assertEquals(dense(Column.int64s(0)), p.featureListLengths().get("m"));
    }

    @Test
    void q01Batch() throws Exception {
        SequenceFeatureSpecs s =
                specs(
                        dict(
                                "c", fixed(FLOAT32, 2),
                                "st_a", varLen(FLOAT32),
                                "cr", ragged(INT64, "cr", RowSplitsDType.INT64)),
                        dict(
                                "a", seq(INT64, false, 1, 3),
                                "s", varLen(FLOAT32),
                                "r", ragged(STRING, "r", INT32),
                                "m", seq(FLOAT32, true, 5)));
        ParsedSequenceBatch p =
                batch(s, SequenceGoldenRecords.Q01_EX0, SequenceGoldenRecords.Q01_EX1);
        assertEquals(2, p.batchSize());
        assertEquals(dense(Column.float32s(3, 4, 5, 6), 2, 2), p.context().get("c"));
        assertEquals(sparse(l(0, 0, 0, 1), Column.float32s(3, 4), 2, 2), p.context().get("st_a"));
        assertEquals(
                ragged1(Column.int64s(), RowSplitsDType.INT64, l(0, 0, 0)), p.context().get("cr"));
        assertEquals(
                dense(Column.int64s(-1, 0, 1, 2, 3, 4, 7, 8, 9, 0, 0, 0), 2, 2, 1, 3),
                p.featureLists().get("a"));
        assertEquals(dense(Column.int64s(2, 1), 2), p.featureListLengths().get("a"));
        assertEquals(dense(Column.float32s(), 2, 0, 5), p.featureLists().get("m"));
        assertEquals(dense(Column.int64s(0, 0), 2), p.featureListLengths().get("m"));
        assertEquals(
                sparse(l(0, 0, 0, 0, 0, 1, 0, 1, 0), Column.float32s(3, 4, 5), 2, 3, 2),
                p.featureLists().get("s"));
        assertEquals(
                ragged1(str("x", "y", "z"), INT32, l(0, 2, 2), l(0, 1, 3)),
                p.featureLists().get("r"));
    }

    @Test
    void q02BatchPadding() throws Exception {
        SequenceFeatureSpecs s =
                specs(
                        dict("c", fixed(FLOAT32, DefaultValue.ofFloat32(-1))),
                        dict(
                                "a", seq(INT64, false, 1, 3),
                                "b", seq(INT64, true),
                                "d", seq(FLOAT32, true, 5)));
        byte[] ex0 =
                featureLists(
                        entry(
                                "a",
                                featureList(
                                        int64Feature(-1, 0, 1),
                                        int64Feature(2, 3, 4),
                                        int64Feature(5, 6, 7),
                                        int64Feature(8, 9, 10))));
        byte[] ex1 =
                concat(
                        context(entry("c", floatFeature(7))),
                        featureLists(
                                entry("a", featureList(int64Feature(21, 2, 11))),
                                entry("b", featureList(int64Feature(5)))));
        ParsedSequenceBatch p = batch(s, ex0, ex1);
        assertEquals(dense(Column.float32s(-1, 7), 2), p.context().get("c"));
        assertEquals(
                dense(
                        Column.int64s(
                                -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 21, 2, 11, 0, 0, 0, 0, 0, 0,
                                0, 0, 0),
                        2,
                        4,
                        1,
                        3),
                p.featureLists().get("a"));
        assertEquals(dense(Column.int64s(0, 5), 2, 1), p.featureLists().get("b"));
        assertEquals(dense(Column.float32s(), 2, 0, 5), p.featureLists().get("d"));
        assertEquals(dense(Column.int64s(4, 1), 2), p.featureListLengths().get("a"));
        assertEquals(dense(Column.int64s(0, 1), 2), p.featureListLengths().get("b"));
        assertEquals(dense(Column.int64s(0, 0), 2), p.featureListLengths().get("d"));
    }

    @Test
    void q02ScalarStepsAndMissingStringList() throws Exception {
        SequenceFeatureSpecs s =
                specs(FeatureSpecs.empty(), dict("b", seq(INT64, true), "t", seq(STRING, true)));
        ParsedSequenceBatch p =
                batch(
                        s,
                        featureLists(
                                entry(
                                        "b",
                                        featureList(
                                                int64Feature(1),
                                                int64Feature(2),
                                                int64Feature(3)))),
                        featureLists(entry("b", featureList(int64Feature(4)))),
                        new byte[0]);
        assertEquals(
                dense(Column.int64s(1, 2, 3, 4, 0, 0, 0, 0, 0), 3, 3), p.featureLists().get("b"));
        assertEquals(dense(Column.int64s(3, 1, 0), 3), p.featureListLengths().get("b"));
        assertEquals(dense(str(), 3, 0), p.featureLists().get("t"));
    }

    @Test
    void q04EmptyFeatureInFeatureList() throws Exception {
        SequenceFeatureSpecs s = specs(FeatureSpecs.empty(), dict("st_a", varLen(FLOAT32)));
        byte[] ex =
                featureLists(
                        entry(
                                "st_a",
                                featureList(floatFeature(3, 4), emptyFeature(), floatFeature(5))));
        assertEquals(
                sparse(l(0, 0, 0, 1, 2, 0), Column.float32s(3, 4, 5), 3, 2),
                single(s, ex).featureLists().get("st_a"));
        assertEquals(
                sparse(l(0, 0, 0, 0, 0, 1, 0, 2, 0), Column.float32s(3, 4, 5), 1, 3, 2),
                batch(s, ex).featureLists().get("st_a"));
    }

    @Test
    void q04WithoutDebugName() throws Exception {
        SequenceFeatureSpecs s =
                specs(FeatureSpecs.empty(), dict("st_b", varLen(STRING), "st_c", varLen(FLOAT32)));
        byte[] ex =
                featureLists(
                        entry(
                                "st_b",
                                featureList(
                                        stringFeature("a"),
                                        stringFeature(),
                                        stringFeature(),
                                        stringFeature("b", "c"))));
        ParsedSequenceBatch p = single(s, ex);
        assertEquals(
                sparse(l(0, 0, 3, 0, 3, 1), str("a", "b", "c"), 4, 2),
                p.featureLists().get("st_b"));
        assertEquals(sparse(l(), Column.float32s(), 0, 0), p.featureLists().get("st_c"));
    }

    @Test
    void q05RaggedContextAndSequence() throws Exception {
        SequenceFeatureSpecs s =
                specs(
                        dict("a", ragged(FLOAT32, "a", INT32)),
                        dict(
                                "b", ragged(FLOAT32, "b", INT32),
                                "c", ragged(INT64, "c", RowSplitsDType.INT64)));
        ParsedSequenceBatch p = batch(s, SequenceGoldenRecords.Q05);
        assertEquals(
                ragged1(Column.float32s(3, 4, 9), INT32, l(0, 2, 3, 3, 3)), p.context().get("a"));
        assertEquals(
                ragged1(
                        Column.float32s(5, 3, 1, 1, 2, 1, 2, 3),
                        INT32,
                        l(0, 2, 2, 5, 6),
                        l(0, 1, 2, 3, 5, 8, 8)),
                p.featureLists().get("b"));
        assertEquals(
                ragged1(
                        Column.int64s(6, 7, 8, 9, 1, 2, 3, 3, 3, 3),
                        RowSplitsDType.INT64,
                        l(0, 1, 3, 3, 4),
                        l(0, 4, 4, 7, 10)),
                p.featureLists().get("c"));
        ParsedSequenceBatch one = single(s, SequenceGoldenRecords.Q05[0]);
        assertEquals(dense(Column.float32s(3, 4), 2), one.context().get("a"));
        assertEquals(
                ragged1(Column.float32s(5, 3), INT32, l(0, 1, 2)), one.featureLists().get("b"));
        assertEquals(
                ragged1(Column.int64s(6, 7, 8, 9), RowSplitsDType.INT64, l(0, 4)),
                one.featureLists().get("c"));
    }

    @Test
    void q07DuplicatesLastWinsAndListsAreReplaced() throws Exception {
        SequenceFeatureSpecs ctx =
                specs(
                        dict("c", varLen(INT64), "d", fixed(INT64, DefaultValue.ofInt64(5))),
                        FeatureSpecs.empty());
        byte[] rec =
                concat(
                        context(entry("c", int64Feature(1, 2))),
                        context(entry("c", emptyFeature())));
        ParsedSequenceBatch p = batch(ctx, rec);
        assertEquals(sparse(l(), Column.int64s(), 1, 0), p.context().get("c"));
        assertEquals(dense(Column.int64s(5), 1), p.context().get("d"));

        SequenceFeatureSpecs fl = specs(FeatureSpecs.empty(), dict("f", varLen(INT64)));
        byte[] lists =
                concat(
                        featureLists(entry("f", featureList(int64Feature(1)))),
                        featureLists(entry("f", featureList(int64Feature(2), int64Feature(3)))));
        assertEquals(
                sparse(l(0, 0, 0, 0, 1, 0), Column.int64s(2, 3), 1, 2, 1),
                batch(fl, lists).featureLists().get("f"));
    }

    @Test
    void q08ExampleParsedAsSequenceExample() throws Exception {
        SequenceFeatureSpecs s = specs(dict("c", varLen(INT64)), dict("f", varLen(INT64)));
        byte[] example = field(1, entry("c", int64Feature(1, 2)));
        ParsedSequenceBatch p = batch(s, example);
        assertEquals(sparse(l(0, 0, 0, 1), Column.int64s(1, 2), 1, 2), p.context().get("c"));
        assertEquals(sparse(l(), Column.int64s(), 1, 0, 0), p.featureLists().get("f"));
    }

    @Test
    void q09EmptyBatch() throws Exception {
        SequenceFeatureSpecs s =
                specs(
                        dict(
                                "c", varLen(INT64),
                                "d", fixed(FLOAT32, DefaultValue.ofFloat32(1, 2), 2),
                                "r", ragged(INT64, "r", INT32)),
                        dict(
                                "f", varLen(INT64),
                                "g", seq(FLOAT32, true, 3),
                                "h", ragged(STRING, "h", RowSplitsDType.INT64)));
        ParsedSequenceBatch p = batch(s);
        assertEquals(0, p.batchSize());
        assertEquals(sparse(l(), Column.int64s(), 0, 0), p.context().get("c"));
        assertEquals(dense(Column.float32s(), 0, 2), p.context().get("d"));
        assertEquals(ragged1(Column.int64s(), INT32, l(0)), p.context().get("r"));
        assertEquals(sparse(l(), Column.int64s(), 0, 0, 0), p.featureLists().get("f"));
        assertEquals(dense(Column.float32s(), 0, 0, 3), p.featureLists().get("g"));
        assertEquals(dense(Column.int64s(), 0), p.featureListLengths().get("g"));
        Tensor h = p.featureLists().get("h");
        assertEquals(ragged1(str(), RowSplitsDType.INT64, l(0), l(0)), h);
    }
}
