package io.tfstream.parse;

import static io.tfstream.testing.FeatureWire.entry;
import static io.tfstream.testing.FeatureWire.example;
import static io.tfstream.testing.FeatureWire.int64Feature;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.parse.example.ParsedBatch;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.MalformedSpecFileException;
import io.tfstream.spec.json.SpecJsonReader;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Found by {@code ExampleParserFuzzTest}: a SparseFeature (or ragged partition) whose parts do not
 * agree is only detected when the batch is assembled, so {@code parseLenient} threw {@code
 * IllegalStateException("composite assembly failed in lenient mode")} instead of rejecting the
 * record TensorFlow refuses on its own. It now finds those records by parsing them one by one.
 */
class ParseLenientCompositeRegressionTest {
    private static final String SPARSE_SPEC =
            """
            {"sp": {"type": "sparse", "index_keys": ["ix"], "value_key": "i",
                    "dtype": "int64", "size": [10], "already_sorted": false},
             "sp2": {"type": "sparse", "index_keys": ["ix", "iy"], "value_key": "f",
                     "dtype": "float32", "size": [4, 3], "already_sorted": true},
             "sp3": {"type": "sparse", "index_keys": ["ix"], "value_key": "s",
                     "dtype": "string", "size": [5], "already_sorted": false}}
            """;

    /** The fuzzer's batch: index key {@code iy} has two values where {@code ix} has three. */
    private static final byte[] CRASH_89A0C893_RECORD0 =
            HexFormat.of()
                    .parseHex(
                            "0a550a0d0a02697812071a050a030003040a0d0a02697912071a050a03e701020a"
                                    + "0c0a016912071a050a030102030a150a01661210120e0a0c0000803f0000"
                                    + "0040000040400a100a0173120b0a090a01610a015d0a0163");

    /** The fuzzer's batch: a truncated Example, rejected on its own. */
    private static final byte[] CRASH_89A0C893_RECORD1 =
            HexFormat.of()
                    .parseHex(
                            "0a550a0d0a02697812071a050a030003040a0d0a02697912071a0040000040400a"
                                    + "100a0173120b0a090a0161ff0a01620a0163");

    @Test
    void fuzzerBatchRejectsBothRecordsInsteadOfThrowing() throws Exception {
        ExampleBatchParser parser = ExampleBatchParser.create(spec(SPARSE_SPEC));
        SerializedRecords batch =
                SerializedRecords.of(List.of(CRASH_89A0C893_RECORD0, CRASH_89A0C893_RECORD1));
        assertThrows(ExampleParseException.class, () -> parser.parse(batch));

        List<ExampleParseException> rejected = new ArrayList<>();
        ParsedBatch lenient = parser.parseLenient(batch, rejected::add);

        assertEquals(0, lenient.rows());
        assertEquals(2, rejected.size());
        assertEquals(1, rejected.get(0).recordIndex());
        assertEquals(ParseErrorKind.MALFORMED, rejected.get(0).kind());
        assertEquals(0, rejected.get(1).recordIndex());
        assertEquals(ParseErrorKind.INCONSISTENT_BATCH, rejected.get(1).kind());
    }

    @Test
    void keepsTheConsistentRecordsAroundAnInconsistentOne() throws Exception {
        ExampleBatchParser parser =
                ExampleBatchParser.create(
                        spec(
                                """
                                {"sp": {"type": "sparse", "index_keys": ["ix"], "value_key": "v",
                                        "dtype": "int64", "size": [10],
                                        "already_sorted": false}}
                                """));
        byte[] good0 = example(entry("ix", int64Feature(1)), entry("v", int64Feature(5)));
        byte[] bad = example(entry("ix", int64Feature(0, 1)), entry("v", int64Feature(5)));
        byte[] good2 = example(entry("ix", int64Feature(3, 4)), entry("v", int64Feature(6, 7)));

        List<ExampleParseException> rejected = new ArrayList<>();
        ParsedBatch lenient =
                parser.parseLenient(
                        SerializedRecords.of(List.of(good0, bad, good2)), rejected::add);

        assertEquals(1, rejected.size());
        assertEquals(1, rejected.get(0).recordIndex());
        assertEquals(ParseErrorKind.INCONSISTENT_BATCH, rejected.get(0).kind());
        assertEquals(2, lenient.rows());
        assertEquals(0, lenient.recordIndex(0));
        assertEquals(2, lenient.recordIndex(1));
        ParsedBatch strict = parser.parse(SerializedRecords.of(List.of(good0, good2)));
        assertEquals(strict.features(), lenient.features());
    }

    private static FeatureSpecs spec(String json) throws MalformedSpecFileException {
        return (FeatureSpecs) SpecJsonReader.read(json, "test");
    }
}
