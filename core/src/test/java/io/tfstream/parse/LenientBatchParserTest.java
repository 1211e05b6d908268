package io.tfstream.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.parse.example.ParsedBatch;
import io.tfstream.parse.sequence.ParsedSequenceBatch;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testing.sequence.SequenceEdgeCases;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link LenientBatchParser}: a rejected record's message is the one it gets parsed alone, whatever
 * its position in the batch, so dead-letter messages do not depend on batching.
 */
class LenientBatchParserTest {

    @Test
    void exampleRejectionsCarryTheMessageOfTheRecordAlone() {
        List<byte[]> records = new ArrayList<>(Seed001Corpus.records(5, 1));
        byte[] truncated = Arrays.copyOf(records.get(3), records.get(3).length - 3);
        records.set(3, truncated);
        LenientBatchParser parser =
                LenientBatchParser.create(Seed001Corpus.spec(), ParseLimits.defaults());
        assertFalse(parser.sequence());
        List<ExampleParseException> rejected = new ArrayList<>();
        ParsedRows rows = parser.parse(SerializedRecords.of(records), rejected::add);
        assertInstanceOf(ParsedBatch.class, rows);
        assertEquals(4, rows.rows());
        assertEquals(4, rows.recordIndex(3));
        assertEquals(1, rejected.size());
        assertEquals(3, rejected.get(0).recordIndex());
        String alone = null;
        try {
            ExampleBatchParser.create(Seed001Corpus.spec()).parse(RecordBatch.of(truncated));
        } catch (ExampleParseException e) {
            alone = e.getMessage();
        }
        assertEquals(alone, rejected.get(0).getMessage());
    }

    @Test
    void limitRejectionsKeepTheirSettingAndNameTheRecordAlone() {
        List<byte[]> records = new ArrayList<>(Seed001Corpus.records(3, 2));
        LenientBatchParser parser =
                LenientBatchParser.create(
                        Seed001Corpus.spec(), ParseLimits.defaults().withMaxRecordBytes(99));
        records.set(2, new byte[100]);
        List<ExampleParseException> rejected = new ArrayList<>();
        ParsedRows rows = parser.parse(SerializedRecords.of(records), rejected::add);
        assertEquals(2, rows.rows());
        ParseLimitException e = assertInstanceOf(ParseLimitException.class, rejected.get(0));
        assertEquals(2, e.recordIndex());
        assertEquals("maxRecordBytes", e.setting());
        assertEquals("record 0 has 100 bytes, exceeds maxRecordBytes (99)", e.getMessage());
    }

    @Test
    void sequenceSpecsGetTheSequenceParser() {
        LenientBatchParser parser =
                LenientBatchParser.create(SequenceEdgeCases.REQUIRED_SPEC, ParseLimits.defaults());
        assertTrue(parser.sequence());
        List<ExampleParseException> rejected = new ArrayList<>();
        ParsedRows rows =
                parser.parse(
                        SerializedRecords.of(List.of(new byte[] {(byte) 0xff})), rejected::add);
        assertInstanceOf(ParsedSequenceBatch.class, rows);
        assertEquals(0, rows.rows());
        assertEquals(1, rejected.size());
        assertEquals(0, rejected.get(0).recordIndex());
    }
}
