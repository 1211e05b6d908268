package io.tfstream.payload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.ParsedRows;
import io.tfstream.parse.SerializedRecords;
import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.parse.sequence.SequenceExampleBatchParser;
import io.tfstream.proto.v1.SourceRange;
import io.tfstream.proto.v1.TensorBatch;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testing.WideProfileCorpus;
import io.tfstream.testing.WireEdgeCaseGenerator;
import io.tfstream.testing.sequence.NestedRaggedRecords;
import io.tfstream.testing.sequence.RandomSequenceExamples;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link TensorBatchWriter}: the bytes written straight from the columns parse to exactly {@link
 * TensorBatchCodec#encode}'s message and have its size, for every kind of tensor; with the metadata
 * appended they are the whole message.
 */
class TensorBatchWriterTest {
    private static int checked;

    private static void check(ParsedRows rows) throws Exception {
        TensorBatch expected = TensorBatchCodec.encode(rows).build();
        byte[] written = TensorBatchWriter.write(rows);
        assertEquals(expected.getSerializedSize(), written.length, "size");
        assertEquals(expected, TensorBatch.parseFrom(written));
        TensorBatch meta =
                TensorBatch.newBuilder()
                        .setSchemaFingerprint("fp")
                        .setBatchId("id")
                        .addSources(
                                SourceRange.newBuilder()
                                        .setTopic("t")
                                        .setPartition(1)
                                        .setFirstOffset(5)
                                        .setLastOffset(9))
                        .setPart(1)
                        .setParts(2)
                        .build();
        byte[] whole = new byte[written.length + meta.getSerializedSize()];
        System.arraycopy(written, 0, whole, 0, written.length);
        System.arraycopy(meta.toByteArray(), 0, whole, written.length, meta.getSerializedSize());
        assertEquals(expected.toBuilder().mergeFrom(meta).build(), TensorBatch.parseFrom(whole));
        checked++;
    }

    @Test
    void randomExampleBatchesOfEveryKind() throws Exception {
        WireEdgeCaseGenerator gen = new WireEdgeCaseGenerator(29);
        for (int round = 0; round < 300; round++) {
            FeatureSpecs spec = gen.randomSpec();
            ExampleBatchParser parser;
            try {
                parser = ExampleBatchParser.create(spec, ParseLimits.none());
            } catch (IllegalArgumentException rejectedSpec) {
                continue;
            }
            try {
                check(parser.parse(SerializedRecords.of(gen.batch(spec, round % 9, 0))));
            } catch (ExampleParseException e) {
                continue;
            }
        }
        check(
                ExampleBatchParser.create(Seed001Corpus.spec())
                        .parse(SerializedRecords.of(Seed001Corpus.records(300, 1))));
        check(
                ExampleBatchParser.create(WideProfileCorpus.spec())
                        .parse(SerializedRecords.of(WideProfileCorpus.records(100, 1))));
        assertTrue(checked > 150, "batches checked: " + checked);
    }

    @Test
    void randomSequenceBatchesAndNestedRaggedPartitions() throws Exception {
        RandomSequenceExamples gen = new RandomSequenceExamples(31);
        for (int round = 0; round < 100; round++) {
            SequenceFeatureSpecs spec = gen.spec();
            List<byte[]> records = new ArrayList<>();
            for (int i = 0; i < 1 + round % 5; i++) {
                records.add(gen.record(spec));
            }
            check(
                    SequenceExampleBatchParser.create(spec, ParseLimits.none())
                            .parse(SerializedRecords.of(records)));
        }
        check(
                SequenceExampleBatchParser.create(NestedRaggedRecords.specs(), ParseLimits.none())
                        .parse(
                                SerializedRecords.of(
                                        List.of(
                                                NestedRaggedRecords.EX0,
                                                NestedRaggedRecords.EX1,
                                                NestedRaggedRecords.EX2))));
    }
}
