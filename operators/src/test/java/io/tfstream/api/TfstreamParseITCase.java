package io.tfstream.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.payload.EncodedTensorBatch;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.testing.Seed001Corpus;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;

/** A job of its own built on {@link TfstreamParse}, run on a local MiniCluster. */
@SuppressWarnings("try") // CloseableIterator.close() may throw InterruptedException
class TfstreamParseITCase {
    @Test
    void bytesInAcceptedBatchesAndDeadLettersOut() throws Exception {
        List<byte[]> input = new ArrayList<>(Seed001Corpus.records(50, 3));
        input.add(new byte[] {1, 2, 3}); // not an Example
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        ParseResult result =
                TfstreamParse.builder()
                        .setSchema(
                                SpecJsonWriter.write(Seed001Corpus.spec())
                                        .getBytes(StandardCharsets.UTF_8),
                                "spec.json")
                        .setMaxRecords(20)
                        .setTensorBatches("fp", 1 << 20)
                        .build()
                        .applyToBytes(
                                env.fromData(
                                        PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO,
                                        input.toArray(new byte[0][])),
                                "in");
        try (CloseableIterator<SourceRecord> accepted = result.accepted().collectAsync();
                CloseableIterator<EncodedTensorBatch> batches = result.batches().collectAsync();
                CloseableIterator<DeadLetter> dead = result.deadLetters().collectAsync()) {
            env.execute("parse");
            List<SourceRecord> a = new ArrayList<>();
            accepted.forEachRemaining(a::add);
            long rows = 0;
            int batchCount = 0;
            while (batches.hasNext()) {
                rows += batches.next().rows();
                batchCount++;
            }
            List<DeadLetter> d = new ArrayList<>();
            dead.forEachRemaining(d::add);
            assertEquals(50, a.size());
            assertEquals(49, a.get(49).offset());
            assertEquals("in", a.get(0).topic());
            assertEquals(50, rows);
            assertEquals(3, batchCount); // 20 + 20 + 10 (the last at end of input)
            assertEquals(1, d.size());
            assertEquals(50, d.get(0).source().offset());
        }
    }
}
