package io.tfstream.parse;

import static io.tfstream.testing.FeatureWire.entry;
import static io.tfstream.testing.FeatureWire.example;
import static io.tfstream.testing.FeatureWire.int64Feature;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.parse.example.ParsedBatch;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.json.SpecJsonReader;
import io.tfstream.tensor.RaggedTensor;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Found by {@code ExampleParserFuzzTest} (OutOfMemoryError in {@code RaggedPartitions.apply}): a
 * RaggedFeature partitioned by value_rowids gets {@code max(id) + 1} rows per example, and the row
 * splits were allocated from that id, so one 8-byte varint could demand gigabytes. The row count is
 * now checked against {@link ParseLimits#maxRaggedRows()} before anything is allocated.
 */
class RaggedValueRowIdsLimitRegressionTest {
    private static final String SPEC =
            """
            {"r": {"type": "ragged", "dtype": "int64", "value_key": "i",
                   "partitions": [{"value_rowids": "vr"}], "row_splits_dtype": "int64"}}
            """;

    /** Minimised from the fuzzer's input: {@code i: [7], vr: [2^40]}. */
    private static final byte[] HUGE_ROW_ID =
            HexFormat.of()
                    .parseHex("0a1e0a0a0a016912051a030a01070a100a027672120a1a080a06808080808020");

    @Test
    void aHugeValueRowIdIsALimitViolationNotAnAllocation() throws Exception {
        ExampleBatchParser parser = parser(ParseLimits.defaults());
        ExampleParseException e =
                assertThrows(
                        ExampleParseException.class,
                        () -> parser.parse(SerializedRecords.of(List.of(HUGE_ROW_ID))));
        assertEquals(ParseErrorKind.LIMIT_EXCEEDED, e.kind());
        assertEquals("maxRaggedRows", ((ParseLimitException) e).setting());
        assertEquals(0, e.recordIndex());
        assertEquals("r", e.featureKey());
        assertEquals(
                "record 0: feature 'r' has 1099511627777 rows from its value_rowids partition,"
                        + " exceeds maxRaggedRows (16777216)",
                e.getMessage());
    }

    @Test
    void theRowBoundIsTheMaxRaggedRowsSetting() throws Exception {
        byte[] fourRows = example(entry("i", int64Feature(1, 2)), entry("vr", int64Feature(0, 3)));
        SerializedRecords batch = SerializedRecords.of(List.of(fourRows, fourRows));
        ParsedBatch b = parser(ParseLimits.defaults().withMaxRaggedRows(8)).parse(batch);
        assertEquals(8, ((RaggedTensor) b.feature("r")).rowSplits().get(0)[2]);

        ParseLimitException e =
                assertThrows(
                        ParseLimitException.class,
                        () -> parser(ParseLimits.defaults().withMaxRaggedRows(3)).parse(batch));
        assertEquals(
                "record 0: feature 'r' has 4 rows from its value_rowids partition, exceeds"
                        + " maxRaggedRows (3)",
                e.getMessage());
    }

    /**
     * Found by {@code ExampleParserFuzzTest} (allocation budget): a 46-byte input asked for 805,709
     * rows, within the default limit; the limit is what bounds it, per record and per batch.
     */
    @Test
    void aFewBytesAskForManyRowsOnlyWithinTheLimit() throws Exception {
        byte[] manyRows =
                example(entry("i", int64Feature(0, 1, 2)), entry("vr", int64Feature(805708)));
        SerializedRecords one = SerializedRecords.of(List.of(manyRows));
        ParsedBatch b = parser(ParseLimits.defaults()).parse(one);
        assertEquals(805709, ((RaggedTensor) b.feature("r")).rowSplits().get(0)[1]);

        ParseLimitException e =
                assertThrows(
                        ParseLimitException.class,
                        () -> parser(ParseLimits.defaults().withMaxRaggedRows(1 << 16)).parse(one));
        assertEquals(
                "record 0: feature 'r' has 805709 rows from its value_rowids partition, exceeds"
                        + " maxRaggedRows (65536)",
                e.getMessage());
    }

    @Test
    void theLimitHoldsForTheBatchAsAWhole() throws Exception {
        byte[] fortyRows = example(entry("i", int64Feature(5)), entry("vr", int64Feature(39)));
        SerializedRecords three = SerializedRecords.of(List.of(fortyRows, fortyRows, fortyRows));
        ExampleBatchParser parser = parser(ParseLimits.defaults().withMaxRaggedRows(100));

        ParseLimitException e = assertThrows(ParseLimitException.class, () -> parser.parse(three));
        assertEquals(-1, e.recordIndex());
        assertEquals(
                "the batch: feature 'r' has 120 rows from its value_rowids partition up to record"
                        + " 2, exceeds maxRaggedRows (100)",
                e.getMessage());

        // Lenient: the records that fit stay, the one that does not is rejected, naming the limit.
        List<ExampleParseException> rejected = new ArrayList<>();
        ParsedBatch b = parser.parseLenient(three, rejected::add);
        assertEquals(2, b.rows());
        assertEquals(1, b.recordIndex(1));
        assertEquals(80, ((RaggedTensor) b.feature("r")).rowSplits().get(0)[2]);
        assertEquals(1, rejected.size());
        ParseLimitException r = (ParseLimitException) rejected.get(0);
        assertEquals(2, r.recordIndex());
        assertEquals("maxRaggedRows", r.setting());
        assertEquals(
                "record 2: does not fit in this batch: the batch: feature 'r' has 120 rows from its"
                        + " value_rowids partition up to record 2, exceeds maxRaggedRows (100)",
                r.getMessage());
    }

    @Test
    void lenientParsingRejectsOnlyThatRecord() throws Exception {
        ExampleBatchParser parser = parser(ParseLimits.defaults().withMaxValuesPerFeature(4));
        byte[] ok = example(entry("i", int64Feature(1, 2)), entry("vr", int64Feature(0, 3)));
        List<ExampleParseException> rejected = new ArrayList<>();
        ParsedBatch b =
                parser.parseLenient(SerializedRecords.of(List.of(HUGE_ROW_ID, ok)), rejected::add);

        assertEquals(1, rejected.size());
        assertEquals(0, rejected.get(0).recordIndex());
        assertEquals(ParseErrorKind.LIMIT_EXCEEDED, rejected.get(0).kind());
        assertEquals("maxRaggedRows", ((ParseLimitException) rejected.get(0)).setting());
        assertEquals(1, b.rows());
        assertEquals(1, b.recordIndex(0));
        // Four rows (ids 0 and 3), the value_rowids maximum the limit allows.
        long[] outer = ((RaggedTensor) b.feature("r")).rowSplits().get(0);
        assertEquals(4, outer[1]);
    }

    private static ExampleBatchParser parser(ParseLimits limits) throws Exception {
        return ExampleBatchParser.create((FeatureSpecs) SpecJsonReader.read(SPEC, "test"), limits);
    }
}
