package io.tfstream.parse;

import static io.tfstream.testing.FeatureWire.entry;
import static io.tfstream.testing.FeatureWire.example;
import static io.tfstream.testing.FeatureWire.int64Feature;
import static io.tfstream.testing.FeatureWire.stringFeature;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.parse.example.ParsedBatch;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.json.SpecJsonReader;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Found by {@code ExampleParserFuzzTest} (FUZZING.md finding 5): {@code parse} and {@code
 * parseLenient} named different first bad records. In a batch, a uniform_row_length reshape sees
 * the values of all records (two records of one value each reshape by 2), while each record alone
 * fails it; a later feature's value_rowids then exceeds {@link ParseLimits#maxRaggedRows()} for
 * record 1. {@code parseLenient} rejects the records TensorFlow refuses alone, record 0 first; the
 * strict parse reported record 1's limit. A record-level failure of the batch composition now
 * reports the first record that fails alone, with the lenient parse's index and message.
 */
class RaggedFirstBadRecordRegressionTest {
    /** The fuzz target's ragged spec ({@code FuzzSpecs.EXAMPLE}, configuration 4). */
    private static final String SPEC =
            """
            {"r0": {"type": "ragged", "dtype": "float32", "value_key": "f",
                    "partitions": [], "row_splits_dtype": "int32"},
             "r1": {"type": "ragged", "dtype": "int64", "value_key": "i",
                    "partitions": [{"row_lengths": "rl"}], "row_splits_dtype": "int64"},
             "r2": {"type": "ragged", "dtype": "string", "value_key": "s",
                    "partitions": [{"row_splits": "rs"}, {"uniform_row_length": 2}],
                    "row_splits_dtype": "int32"},
             "r3": {"type": "ragged", "dtype": "int64", "value_key": "i",
                    "partitions": [{"value_rowids": "vr"}], "row_splits_dtype": "int64"},
             "r4": {"type": "ragged", "dtype": "float32", "value_key": "f",
                    "partitions": [{"row_starts": "st"}, {"row_limits": "lm"}],
                    "row_splits_dtype": "int32"}}
            """;

    /** {@code s: ["a"]}: one value, which uniform_row_length 2 cannot reshape alone. */
    private static final byte[] RECORD0 = HexFormat.of().parseHex("0a0c0a0a0a017312050a030a0161");

    /** {@code s: ["b"], i: [7], vr: [804600]}: 804,601 value_rowids rows. */
    private static final byte[] RECORD1 =
            HexFormat.of()
                    .parseHex(
                            "0a270a0a0a017312050a030a01620a0a0a016912051a030a01070a0d0a0276721207"
                                    + "1a050a03f88d31");

    private static final String RESHAPE =
            "Input to reshape is a tensor with 1 values, but the requested shape requires a"
                    + " multiple of 2";

    private static final ParseLimits LIMITS =
            ParseLimits.defaults().withMaxValuesPerFeature(1 << 16).withMaxRaggedRows(1 << 16);

    @Test
    void strictParseNamesTheFirstRecordTheLenientParseRejects() throws Exception {
        ExampleBatchParser parser = parser();
        SerializedRecords batch = SerializedRecords.of(List.of(RECORD0, RECORD1));

        ExampleParseException strict =
                assertThrows(ExampleParseException.class, () -> parser.parse(batch));
        List<ExampleParseException> rejected = new ArrayList<>();
        ParsedBatch lenient = parser.parseLenient(batch, rejected::add);

        assertEquals(0, lenient.rows());
        assertEquals(2, rejected.size());
        for (int i = 0; i < 2; i++) {
            assertEquals(i, rejected.get(i).recordIndex());
            assertEquals(ParseErrorKind.INCONSISTENT_BATCH, rejected.get(i).kind());
            assertEquals(RESHAPE, rejected.get(i).getMessage());
        }
        assertEquals(0, strict.recordIndex());
        assertEquals(ParseErrorKind.INCONSISTENT_BATCH, strict.kind());
        assertEquals(RESHAPE, strict.getMessage());
    }

    /** The limit's record fails an earlier feature alone: its own error, as the lenient parse's. */
    @Test
    void theLimitRecordReportsWhatItFailsAlone() throws Exception {
        // Four values of s in all: the batch reshapes them by 2, records 1 and 2 alone do not.
        byte[] twoValues = example(entry("s", stringFeature("a", "b")));
        SerializedRecords batch = SerializedRecords.of(List.of(twoValues, RECORD1, RECORD0));
        ExampleBatchParser parser = parser();

        ExampleParseException strict =
                assertThrows(ExampleParseException.class, () -> parser.parse(batch));
        List<ExampleParseException> rejected = new ArrayList<>();
        ParsedBatch lenient = parser.parseLenient(batch, rejected::add);

        assertEquals(1, lenient.rows());
        assertEquals(2, rejected.size());
        assertEquals(1, rejected.get(0).recordIndex());
        assertEquals(RESHAPE, rejected.get(0).getMessage());
        assertEquals(1, strict.recordIndex());
        assertEquals(RESHAPE, strict.getMessage());
    }

    /** With nothing else wrong, the record's limit stays the error, named by both parses. */
    @Test
    void aRecordOverTheLimitAloneKeepsItsLimitError() throws Exception {
        byte[] good = example(entry("s", stringFeature("a", "b")));
        byte[] over =
                example(
                        entry("s", stringFeature("c", "d")),
                        entry("i", int64Feature(7)),
                        entry("vr", int64Feature(804600)));
        SerializedRecords batch = SerializedRecords.of(List.of(good, over));
        ExampleBatchParser parser = parser();

        ParseLimitException strict =
                assertThrows(ParseLimitException.class, () -> parser.parse(batch));
        List<ExampleParseException> rejected = new ArrayList<>();
        ParsedBatch lenient = parser.parseLenient(batch, rejected::add);

        String message =
                "record 1: feature 'r3' has 804601 rows from its value_rowids partition, exceeds"
                        + " maxRaggedRows (65536)";
        assertEquals(1, strict.recordIndex());
        assertEquals("maxRaggedRows", strict.setting());
        assertEquals(message, strict.getMessage());
        assertEquals(1, lenient.rows());
        assertEquals(1, rejected.size());
        assertEquals(1, rejected.get(0).recordIndex());
        assertEquals(message, rejected.get(0).getMessage());
    }

    /** After the failure the parser gives a fresh parser's tensors for a batch that composes. */
    @Test
    void theParserIsReusedAfterTheFailure() throws Exception {
        ExampleBatchParser parser = parser();
        parser.trackRows();
        SerializedRecords pair = SerializedRecords.of(List.of(RECORD0, RECORD1));
        assertThrows(ExampleParseException.class, () -> parser.parse(pair));
        // The records parsed alone to find the error leave no columns behind.
        assertNull(parser.rawColumns());

        byte[] two = example(entry("s", stringFeature("a", "b")));
        SerializedRecords good = SerializedRecords.of(List.of(two, RECORD0, RECORD0));
        ParsedBatch b = parser.parse(good);
        assertEquals(3, b.rows());
        assertEquals(parser().parse(good).features(), b.features());
    }

    private static ExampleBatchParser parser() throws Exception {
        return ExampleBatchParser.create((FeatureSpecs) SpecJsonReader.read(SPEC, "test"), LIMITS);
    }
}
