package io.tfstream.operators.window;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.model.BatchKeySelector;
import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.DeadLetterGuard;
import io.tfstream.api.model.DeadLetterReason;
import io.tfstream.api.model.EventTimeSettings;
import io.tfstream.api.model.LateRecords;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.api.model.WindowSettings;
import io.tfstream.operators.deadletter.DeadLetterOutput;
import io.tfstream.operators.parse.BatchParseOperator;
import io.tfstream.operators.parse.BatchTriggers;
import io.tfstream.operators.parse.ParseSettings;
import io.tfstream.operators.source.SourceRecordSerializer;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.RecordBatch;
import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.payload.EncodedTensorBatch;
import io.tfstream.payload.TensorBatchCodec;
import io.tfstream.proto.v1.TensorBatch;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.tensor.Tensor;
import io.tfstream.testing.Seed001Corpus;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/** {@link WindowBatchParseOperator} in Flink's keyed operator test harness. */
@SuppressWarnings("try")
class WindowBatchParseOperatorTest {
    private static final List<byte[]> GOOD = Seed001Corpus.records(100, 5);

    private static ParseSettings settings(int maxRecords) {
        return new ParseSettings(
                        SpecJsonWriter.write(Seed001Corpus.spec()).getBytes(StandardCharsets.UTF_8),
                        "spec.json",
                        false,
                        ParseLimits.defaults(),
                        new BatchTriggers(maxRecords, 1L << 30, Duration.ofSeconds(1)),
                        EventTimeSettings.kafkaTimestamp(),
                        DeadLetterGuard.off())
                .withTensorBatches("fp", 1 << 20);
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, SourceRecord, SourceRecord>
            harness(int maxRecords, long lateness, boolean lateToDlq) throws Exception {
        return harness(maxRecords, lateness, lateToDlq, 1L << 30);
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, SourceRecord, SourceRecord>
            harness(int maxRecords, long lateness, boolean lateToDlq, long maxBufferedBytes)
                    throws Exception {
        var h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new WindowBatchParseOperator(
                                settings(maxRecords),
                                WindowSettings.builder(java.time.Duration.ofMillis(1000))
                                        .setAllowedLateness(java.time.Duration.ofMillis(lateness))
                                        .setLateRecords(
                                                lateToDlq
                                                        ? LateRecords.DEAD_LETTER
                                                        : LateRecords.DROP)
                                        .setMaxBufferedBytes(maxBufferedBytes)
                                        .build(),
                                BatchKeySelector.kafkaKey()),
                        BatchKeySelector.kafkaKey(),
                        Types.STRING);
        h.setup(SourceRecordSerializer.INSTANCE);
        return h;
    }

    private static SourceRecord rec(int i, String key, long ts) {
        return new SourceRecord(
                GOOD.get(i), key.getBytes(StandardCharsets.UTF_8), null, null, "in", 0, i, ts);
    }

    private static List<TensorBatch> payloads(
            KeyedOneInputStreamOperatorTestHarness<String, SourceRecord, SourceRecord> h) {
        List<TensorBatch> out = new ArrayList<>();
        for (EncodedTensorBatch b : encoded(h)) {
            out.add(b.toMessage());
        }
        return out;
    }

    private static List<EncodedTensorBatch> encoded(
            KeyedOneInputStreamOperatorTestHarness<String, SourceRecord, SourceRecord> h) {
        List<EncodedTensorBatch> out = new ArrayList<>();
        var q = h.getSideOutput(BatchParseOperator.TENSOR_BATCHES);
        if (q != null) {
            for (StreamRecord<EncodedTensorBatch> r : q) {
                out.add(r.getValue());
            }
        }
        return out;
    }

    @Test
    void aWindowClosesAtTheWatermarkPerKeyAndNeverMixesKeys() throws Exception {
        try (var h = harness(1000, 0, true)) {
            h.open();
            // key a: records 0..9 in window [0, 1000); key b: 10..14 in [0, 1000) and 15 in [1000,
            // 2000).
            for (int i = 0; i < 10; i++) {
                h.processElement(new StreamRecord<>(rec(i, "a", 100 + i), 100 + i));
            }
            for (int i = 10; i < 15; i++) {
                h.processElement(new StreamRecord<>(rec(i, "b", 500 + i), 500 + i));
            }
            h.processElement(new StreamRecord<>(rec(15, "b", 1500), 1500));
            assertEquals(0, h.extractOutputValues().size(), "nothing before the watermark");
            h.processWatermark(new Watermark(999));
            List<TensorBatch> p = payloads(h);
            assertEquals(2, p.size(), "one payload per key for window [0, 1000)");
            Map<Long, List<byte[]>> expected = new HashMap<>();
            expected.put(10L, GOOD.subList(0, 10));
            expected.put(5L, GOOD.subList(10, 15));
            Map<Long, String> keyOf = Map.of(10L, "a", 5L, "b");
            for (EncodedTensorBatch e : encoded(h)) {
                assertArrayEquals(
                        keyOf.get(e.rows()).getBytes(StandardCharsets.UTF_8),
                        e.key(),
                        "the payload carries its window's grouping key");
            }
            for (TensorBatch b : p) {
                assertEquals(0, b.getWindowStartMs());
                assertEquals(1000, b.getWindowEndMs());
                assertEquals(
                        ExampleBatchParser.create(Seed001Corpus.spec())
                                .parse(RecordBatch.of(expected.get(b.getRows())))
                                .features(),
                        TensorBatchCodec.decode(b, ""));
            }
            assertEquals(15, h.extractOutputValues().size());
            // A record for the closed window is late: dead-lettered.
            h.processElement(new StreamRecord<>(rec(16, "a", 900), 900));
            var dead = h.getSideOutput(DeadLetterOutput.TAG);
            assertEquals(1, dead.size());
            DeadLetter d = dead.peek().getValue();
            assertEquals(DeadLetterReason.LATE, d.reason());
            assertTrue(d.error().contains("window [0, 1000)"), d.error());
            h.processWatermark(new Watermark(1999));
            assertEquals(3, payloads(h).size());
            assertEquals(1000, payloads(h).get(2).getWindowStartMs());
        }
    }

    @Test
    void aLargeWindowIsSeveralNumberedPayloadsAndSurvivesARestore() throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = harness(4, 0, false)) {
            h.open();
            for (int i = 0; i < 10; i++) {
                h.processElement(new StreamRecord<>(rec(i, "k", 2000 + i), 2000 + i));
            }
            snapshot = h.snapshot(1, 1);
        }
        try (var h = harness(4, 0, false)) {
            h.initializeState(snapshot);
            h.open();
            h.processWatermark(new Watermark(2999));
            List<TensorBatch> p = payloads(h);
            assertEquals(3, p.size(), "10 records, at most 4 per batch");
            int row = 0;
            for (int i = 0; i < 3; i++) {
                TensorBatch b = p.get(i);
                assertEquals(i, b.getPart());
                assertEquals(3, b.getParts());
                assertEquals(p.get(0).getBatchId(), b.getBatchId());
                assertEquals(
                        ExampleBatchParser.create(Seed001Corpus.spec())
                                .parse(RecordBatch.of(GOOD.subList(row, row + (int) b.getRows())))
                                .features(),
                        TensorBatchCodec.decode(b, ""));
                row += (int) b.getRows();
            }
            assertEquals(10, row);
            // Late and dropped: no dead letter.
            h.processElement(new StreamRecord<>(rec(20, "k", 2500), 2500));
            assertEquals(null, h.getSideOutput(DeadLetterOutput.TAG));
        }
    }

    private static Map<String, Tensor> parsed(List<byte[]> rows) throws Exception {
        return ExampleBatchParser.create(Seed001Corpus.spec())
                .parse(RecordBatch.of(rows))
                .features();
    }

    private static long bytes(List<byte[]> records) {
        return records.stream().mapToLong(r -> r.length).sum();
    }

    @Test
    void aWindowAtItsBufferLimitIsEmittedEarlyAndItsCloseTellsTheTotal() throws Exception {
        long limit = bytes(GOOD.subList(0, 4));
        OperatorSubtaskState snapshot;
        TensorBatch early;
        try (var h = harness(1000, 0, true, limit)) {
            h.open();
            for (int i = 0; i < 3; i++) {
                h.processElement(new StreamRecord<>(rec(i, "k", 100 + i), 100 + i));
            }
            assertEquals(List.of(), payloads(h), "under the limit: buffered");
            h.processElement(new StreamRecord<>(rec(3, "k", 103), 103));
            List<TensorBatch> p = payloads(h);
            assertEquals(1, p.size(), "the record reaching the limit emits the window so far");
            assertEquals(4, h.extractOutputValues().size(), "its records are emitted with it");
            early = p.get(0);
            assertEquals(0, early.getWindowStartMs());
            assertEquals(1000, early.getWindowEndMs());
            assertEquals(0, early.getPart());
            assertEquals(0, early.getParts(), "the total is not known before the close");
            assertEquals(parsed(GOOD.subList(0, 4)), TensorBatchCodec.decode(early, ""));
            assertArrayEquals(
                    "k".getBytes(StandardCharsets.UTF_8), encoded(h).get(0).key(), "grouping key");
            h.processElement(new StreamRecord<>(rec(4, "k", 104), 104));
            assertEquals(1, payloads(h).size(), "the buffer starts again from empty");
            snapshot = h.snapshot(1, 1);
        }
        try (var h = harness(1000, 0, true, limit)) {
            h.initializeState(snapshot);
            h.open();
            h.processWatermark(new Watermark(999));
            List<TensorBatch> p = payloads(h);
            assertEquals(1, p.size());
            TensorBatch last = p.get(0);
            assertEquals(early.getBatchId(), last.getBatchId(), "one batch id across the restore");
            assertEquals(1, last.getPart(), "numbering goes on after the early payload");
            assertEquals(2, last.getParts(), "the close tells the total");
            assertEquals(1, last.getRows());
            assertEquals(parsed(GOOD.subList(4, 5)), TensorBatchCodec.decode(last, ""));
            assertEquals(1, h.extractOutputValues().size());
        }
    }

    @Test
    void aWindowThatEmittedEarlyClosesWithAnEmptyPayloadWhenNothingIsLeft() throws Exception {
        try (var h = harness(1000, 0, true, bytes(GOOD.subList(0, 2)))) {
            h.open();
            h.processElement(new StreamRecord<>(rec(0, "k", 10), 10));
            h.processElement(new StreamRecord<>(rec(1, "k", 11), 11));
            assertEquals(1, payloads(h).size());
            // The only record left at the close is rejected: no row remains.
            byte[] good = GOOD.get(2);
            SourceRecord broken =
                    new SourceRecord(
                            Arrays.copyOf(good, good.length - 3),
                            "k".getBytes(StandardCharsets.UTF_8),
                            null,
                            null,
                            "in",
                            0,
                            2,
                            12);
            h.processElement(new StreamRecord<>(broken, 12));
            h.processWatermark(new Watermark(999));
            var dead = h.getSideOutput(DeadLetterOutput.TAG);
            assertEquals(1, dead.size());
            assertEquals(DeadLetterReason.PARSE_ERROR, dead.peek().getValue().reason());
            List<TensorBatch> p = payloads(h);
            assertEquals(2, p.size());
            TensorBatch last = p.get(1);
            assertEquals(p.get(0).getBatchId(), last.getBatchId());
            assertEquals(0, last.getRows());
            assertEquals(0, last.getSourcesCount());
            assertEquals(1, last.getPart());
            assertEquals(2, last.getParts());
            assertEquals("fp", last.getSchemaFingerprint());
            assertEquals(parsed(List.of()), TensorBatchCodec.decode(last, ""));
            assertArrayEquals("k".getBytes(StandardCharsets.UTF_8), encoded(h).get(1).key());
        }
    }

    @Test
    void aWindowUnderItsLimitIsOnePayloadOfOnePart() throws Exception {
        try (var h = harness(1000, 0, true, bytes(GOOD.subList(0, 3)))) {
            h.open();
            h.processElement(new StreamRecord<>(rec(0, "k", 10), 10));
            h.processElement(new StreamRecord<>(rec(1, "k", 11), 11));
            h.processWatermark(new Watermark(999));
            List<TensorBatch> p = payloads(h);
            assertEquals(1, p.size());
            assertEquals(0, p.get(0).getPart());
            assertEquals(1, p.get(0).getParts(), "a window's payloads always tell their total");
        }
    }

    @Test
    void aRecordWithinTheAllowedLatenessJoinsItsWindowAndOneAfterItIsLate() throws Exception {
        // Window [0, 1000) with 500 ms allowed lateness closes at watermark 1499.
        try (var h = harness(1000, 500, true)) {
            h.open();
            for (int i = 0; i < 3; i++) {
                h.processElement(new StreamRecord<>(rec(i, "k", 100 + i), 100 + i));
            }
            h.processWatermark(new Watermark(999));
            assertEquals(List.of(), payloads(h), "past the end, within the lateness: still open");
            h.processElement(new StreamRecord<>(rec(3, "k", 900), 900));
            h.processWatermark(new Watermark(1498));
            assertEquals(List.of(), payloads(h));
            assertEquals(null, h.getSideOutput(DeadLetterOutput.TAG), "not late");
            h.processWatermark(new Watermark(1499));
            List<TensorBatch> p = payloads(h);
            assertEquals(1, p.size());
            assertEquals(0, p.get(0).getWindowStartMs());
            assertEquals(1000, p.get(0).getWindowEndMs());
            assertEquals(
                    parsed(GOOD.subList(0, 4)),
                    TensorBatchCodec.decode(p.get(0), ""),
                    "the record within the lateness is a row of its window");
            h.processElement(new StreamRecord<>(rec(4, "k", 950), 950));
            var dead = h.getSideOutput(DeadLetterOutput.TAG);
            assertEquals(1, dead.size());
            DeadLetter d = dead.peek().getValue();
            assertEquals(DeadLetterReason.LATE, d.reason());
            assertEquals(4, d.source().offset());
            assertEquals(
                    "event time 950 falls in window [0, 1000) which closed at watermark 1499",
                    d.error());
            assertEquals(1, payloads(h).size(), "a late record is in no payload");
            assertEquals(4, h.extractOutputValues().size(), "nor among the accepted records");
        }
    }

    @Test
    void aRecordAfterTheAllowedLatenessIsDroppedWhenSoConfigured() throws Exception {
        try (var h = harness(1000, 500, false)) {
            h.open();
            h.processElement(new StreamRecord<>(rec(0, "k", 100), 100));
            h.processWatermark(new Watermark(1200));
            h.processElement(new StreamRecord<>(rec(1, "k", 800), 800));
            h.processWatermark(new Watermark(1499));
            assertEquals(2, payloads(h).get(0).getRows(), "within the lateness: kept");
            h.processElement(new StreamRecord<>(rec(2, "k", 999), 999));
            h.processWatermark(new Watermark(5000));
            assertEquals(1, payloads(h).size());
            assertEquals(2, h.extractOutputValues().size());
            assertEquals(null, h.getSideOutput(DeadLetterOutput.TAG), "dropped");
        }
    }

    @Test
    void keysFromAFeatureAndTheSourcePartition() throws Exception {
        BatchKeySelector byFeature = BatchKeySelector.feature("feature2", Seed001Corpus.spec());
        String animal = byFeature.getKey(rec(0, "x", 0));
        assertTrue(List.of("cat", "dog", "chicken", "horse", "goat").contains(animal), animal);
        assertEquals("", byFeature.getKey(SourceRecord.of(new byte[] {0x0a, 0x7f}, "in", 0, 0, 0)));
        assertEquals("in-0", BatchKeySelector.sourcePartition().getKey(rec(0, "x", 0)));
        assertEquals("x", BatchKeySelector.kafkaKey().getKey(rec(0, "x", 0)));
    }

    @Test
    void keysTurnBackIntoTheBytesTheyCameFrom() {
        byte[] binary = {(byte) 0xc3, 0x28, 0, (byte) 0xff};
        SourceRecord r = new SourceRecord(GOOD.get(0), binary, null, null, "tö", 3, 0, 0);
        BatchKeySelector kafka = BatchKeySelector.kafkaKey();
        assertArrayEquals(binary, kafka.keyBytes(kafka.getKey(r)), "not valid UTF-8, kept as is");
        BatchKeySelector partition = BatchKeySelector.sourcePartition();
        assertArrayEquals(
                "tö-3".getBytes(StandardCharsets.UTF_8), partition.keyBytes(partition.getKey(r)));
        BatchKeySelector byFeature = BatchKeySelector.feature("feature1", Seed001Corpus.spec());
        String number = byFeature.getKey(r);
        assertTrue(number.matches("[0-4]"), number);
        assertArrayEquals(number.getBytes(StandardCharsets.US_ASCII), byFeature.keyBytes(number));
    }
}
