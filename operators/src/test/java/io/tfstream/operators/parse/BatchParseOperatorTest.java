package io.tfstream.operators.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.DeadLetterGuard;
import io.tfstream.api.model.DeadLetterReason;
import io.tfstream.api.model.EventTimeSettings;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.deadletter.DeadLetterOutput;
import io.tfstream.operators.source.SourceRecordSerializer;
import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.RecordBatch;
import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.payload.EncodedTensorBatch;
import io.tfstream.payload.TensorBatchCodec;
import io.tfstream.proto.v1.SourceRange;
import io.tfstream.proto.v1.TensorBatch;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.VarLenFeature;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.testing.Seed001Corpus;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.example.Int64List;

/** {@link BatchParseOperator} in Flink's operator test harness. */
@SuppressWarnings("try") // the harness's close() may throw InterruptedException
class BatchParseOperatorTest {
    private static final List<byte[]> GOOD = Seed001Corpus.records(50, 3);

    /** An optional int64 event-time feature {@code ts} and a required {@code x}. */
    private static final FeatureSpecs TS_SPEC =
            FeatureSpecs.of(
                    Map.<String, FeatureSpec>of(
                            "ts",
                            new VarLenFeature(DType.INT64),
                            "x",
                            FixedLenFeature.required(List.of(), DType.INT64)));

    private static ParseSettings settings(
            FeatureSpecs spec,
            ParseLimits limits,
            BatchTriggers t,
            EventTimeSettings et,
            DeadLetterGuard g) {
        return new ParseSettings(
                SpecJsonWriter.write(spec).getBytes(StandardCharsets.UTF_8),
                "spec.json",
                false,
                limits,
                t,
                et,
                g);
    }

    private static ParseSettings seed(BatchTriggers t) {
        return settings(
                Seed001Corpus.spec(),
                ParseLimits.defaults(),
                t,
                EventTimeSettings.kafkaTimestamp(),
                DeadLetterGuard.off());
    }

    private static OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> harness(
            ParseSettings s) throws Exception {
        OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h =
                new OneInputStreamOperatorTestHarness<>(
                        new BatchParseOperator(s), SourceRecordSerializer.INSTANCE);
        h.setup(SourceRecordSerializer.INSTANCE);
        return h;
    }

    private static SourceRecord rec(byte[] value, long offset) {
        return SourceRecord.of(value, "in", 0, offset, 1000 + offset);
    }

    private static List<Long> offsets(List<SourceRecord> records) {
        List<Long> out = new ArrayList<>();
        for (SourceRecord r : records) {
            out.add(r.offset());
        }
        return out;
    }

    private static List<DeadLetter> deadLetters(
            OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h) {
        List<DeadLetter> out = new ArrayList<>();
        if (h.getSideOutput(DeadLetterOutput.TAG) != null) {
            for (StreamRecord<DeadLetter> r : h.getSideOutput(DeadLetterOutput.TAG)) {
                out.add(r.getValue());
            }
        }
        return out;
    }

    @Test
    void closesABatchAtMaxRecords() throws Exception {
        try (var h = harness(seed(new BatchTriggers(3, 1 << 20, Duration.ofSeconds(10))))) {
            h.open();
            h.processElement(rec(GOOD.get(0), 0), 1000);
            h.processElement(rec(GOOD.get(1), 1), 1001);
            assertEquals(List.of(), h.extractOutputValues());
            h.processElement(rec(GOOD.get(2), 2), 1002);
            assertEquals(List.of(0L, 1L, 2L), offsets(h.extractOutputValues()));
        }
    }

    @Test
    void closesABatchAtMaxBytes() throws Exception {
        long twoRecords = GOOD.get(0).length + GOOD.get(1).length;
        try (var h = harness(seed(new BatchTriggers(1000, twoRecords, Duration.ofSeconds(10))))) {
            h.open();
            h.processElement(rec(GOOD.get(0), 0), 1000);
            assertEquals(List.of(), h.extractOutputValues());
            h.processElement(rec(GOOD.get(1), 1), 1001);
            assertEquals(List.of(0L, 1L), offsets(h.extractOutputValues()));
        }
    }

    @Test
    void closesABatchAfterMaxDelayOfProcessingTime() throws Exception {
        try (var h = harness(seed(new BatchTriggers(1000, 1 << 20, Duration.ofMillis(200))))) {
            h.open();
            h.setProcessingTime(1_000);
            h.processElement(rec(GOOD.get(0), 0), 1000);
            h.setProcessingTime(1_150);
            h.processElement(rec(GOOD.get(1), 1), 1001);
            h.setProcessingTime(1_199);
            assertEquals(List.of(), h.extractOutputValues());
            h.setProcessingTime(1_200);
            assertEquals(List.of(0L, 1L), offsets(h.extractOutputValues()));
            // The next batch gets its own deadline, counted from its first record.
            h.processElement(rec(GOOD.get(2), 2), 1002);
            h.setProcessingTime(1_399);
            assertEquals(2, h.extractOutputValues().size());
            h.setProcessingTime(1_400);
            assertEquals(List.of(0L, 1L, 2L), offsets(h.extractOutputValues()));
        }
    }

    @Test
    void emitsPendingRecordsBeforeTheBarrierAndRestoresWithoutRepeatingThem() throws Exception {
        OperatorSubtaskState state;
        try (var h = harness(seed(BatchTriggers.defaults()))) {
            h.open();
            h.processElement(rec(GOOD.get(0), 0), 1000);
            h.processElement(rec(GOOD.get(1), 1), 1001);
            h.prepareSnapshotPreBarrier(1);
            assertEquals(List.of(0L, 1L), offsets(h.extractOutputValues()));
            state = h.snapshot(1, 5_000);
        }
        try (var h = harness(seed(BatchTriggers.defaults()))) {
            h.initializeState(state);
            h.open();
            h.processElement(rec(GOOD.get(2), 2), 1002);
            h.prepareSnapshotPreBarrier(2);
            assertEquals(List.of(2L), offsets(h.extractOutputValues()));
        }
    }

    @Test
    void finishEmitsWhatIsPending() throws Exception {
        try (var h = harness(seed(BatchTriggers.defaults()))) {
            h.open();
            h.processElement(rec(GOOD.get(0), 0), 1000);
            h.getOneInputOperator().finish();
            assertEquals(List.of(0L), offsets(h.extractOutputValues()));
        }
    }

    @Test
    void rejectedRecordsGoToTheDeadLettersWithReasonAndTheirOwnMessage() throws Exception {
        ParseSettings s =
                settings(
                        Seed001Corpus.spec(),
                        ParseLimits.defaults().withMaxRecordBytes(200),
                        BatchTriggers.defaults(),
                        EventTimeSettings.kafkaTimestamp(),
                        DeadLetterGuard.off());
        byte[] truncated = Arrays.copyOf(GOOD.get(4), GOOD.get(4).length - 2);
        byte[] tooBig = new byte[300];
        try (var h = harness(s)) {
            h.open();
            for (int i = 0; i < 8; i++) {
                byte[] v = i == 2 ? truncated : i == 5 ? tooBig : GOOD.get(i);
                h.processElement(rec(v, i), 1000 + i);
            }
            h.prepareSnapshotPreBarrier(1);
            List<StreamRecord<? extends SourceRecord>> out = h.extractOutputStreamRecords();
            List<Long> accepted = new ArrayList<>();
            for (StreamRecord<? extends SourceRecord> r : out) {
                accepted.add(r.getValue().offset());
                assertEquals(1000 + r.getValue().offset(), r.getTimestamp());
            }
            assertEquals(List.of(0L, 1L, 3L, 4L, 6L, 7L), accepted);
            List<DeadLetter> dead = deadLetters(h);
            assertEquals(2, dead.size());
            assertEquals(2, dead.get(0).source().offset());
            assertEquals(DeadLetterReason.PARSE_ERROR, dead.get(0).reason());
            assertEquals(aloneMessage(truncated), dead.get(0).error());
            assertTrue(Arrays.equals(truncated, dead.get(0).source().value()));
            assertEquals(5, dead.get(1).source().offset());
            assertEquals(DeadLetterReason.LIMIT_EXCEEDED, dead.get(1).reason());
            assertEquals(
                    "record 0 has 300 bytes, exceeds maxRecordBytes (200)", dead.get(1).error());
        }
    }

    private static String aloneMessage(byte[] record) {
        try {
            ExampleBatchParser.create(Seed001Corpus.spec()).parse(RecordBatch.of(record));
        } catch (ExampleParseException e) {
            return e.getMessage();
        }
        throw new AssertionError("the record parses");
    }

    @Test
    void eventTimeFromAFeatureInSecondsAndBadValuesDeadLettered() throws Exception {
        FeatureSpecs spec = TS_SPEC;
        ParseSettings s =
                settings(
                        spec,
                        ParseLimits.defaults(),
                        BatchTriggers.defaults(),
                        EventTimeSettings.feature("ts", EventTimeSettings.Unit.SECONDS),
                        DeadLetterGuard.off());
        try (var h = harness(s)) {
            h.open();
            h.processElement(rec(example(1_700_000_000L), 0), 5);
            h.processElement(rec(example(), 1), 6);
            h.processElement(rec(example(-3L), 2), 7);
            h.processElement(rec(example(Long.MAX_VALUE), 3), 8);
            h.prepareSnapshotPreBarrier(1);
            List<StreamRecord<? extends SourceRecord>> out = h.extractOutputStreamRecords();
            assertEquals(1, out.size());
            assertEquals(1_700_000_000_000L, out.get(0).getTimestamp());
            List<DeadLetter> dead = deadLetters(h);
            assertEquals(3, dead.size());
            assertEquals("event-time feature 'ts' has no value", dead.get(0).error());
            assertEquals(
                    "event-time feature 'ts' has value -3, not epoch seconds in [0, 253402300799]",
                    dead.get(1).error());
            assertEquals(DeadLetterReason.PARSE_ERROR, dead.get(2).reason());
        }
    }

    private static byte[] example(long... ts) {
        Features.Builder f =
                Features.newBuilder()
                        .putFeature(
                                "x",
                                Feature.newBuilder()
                                        .setInt64List(Int64List.newBuilder().addValue(7))
                                        .build());
        if (ts.length > 0) {
            Int64List.Builder l = Int64List.newBuilder();
            for (long t : ts) {
                l.addValue(t);
            }
            f.putFeature("ts", Feature.newBuilder().setInt64List(l).build());
        }
        return Example.newBuilder().setFeatures(f).build().toByteArray();
    }

    @Test
    void aWatermarkWaitsForTheRecordsBufferedBeforeIt() throws Exception {
        try (var h = harness(seed(BatchTriggers.defaults()))) {
            h.open();
            h.processElement(rec(GOOD.get(0), 0), 1000);
            h.processWatermark(new Watermark(1500));
            assertEquals(List.of(), new ArrayList<>(h.getOutput()));
            h.prepareSnapshotPreBarrier(1);
            List<Object> out = new ArrayList<>(h.getOutput());
            assertEquals(2, out.size());
            assertInstanceOf(StreamRecord.class, out.get(0));
            assertEquals(new Watermark(1500), out.get(1));
            // With nothing buffered a watermark passes straight through.
            h.processWatermark(new Watermark(1600));
            assertEquals(new Watermark(1600), new ArrayList<>(h.getOutput()).get(2));
        }
    }

    @Test
    void theCircuitBreakerStopsTheJobWithoutRestartsNamingTheFraction() throws Exception {
        ParseSettings s =
                settings(
                        Seed001Corpus.spec(),
                        ParseLimits.defaults(),
                        new BatchTriggers(10, 1 << 20, Duration.ofSeconds(1)),
                        EventTimeSettings.kafkaTimestamp(),
                        DeadLetterGuard.builder()
                                .setMaxFraction(0.5)
                                .setWindow(Duration.ofMinutes(1))
                                .setMinRecords(10)
                                .build());
        try (var h = harness(s)) {
            h.open();
            for (int i = 0; i < 9; i++) {
                h.processElement(rec(i < 4 ? new byte[] {1} : GOOD.get(i), i), i);
            }
            h.processElement(rec(GOOD.get(9), 9), 9); // 4 of 10: under the limit
            assertEquals(6, h.extractOutputValues().size());
            for (int i = 10; i < 19; i++) {
                h.processElement(rec(new byte[] {1}, i), i);
            }
            SuppressRestartsException e =
                    assertThrows(
                            SuppressRestartsException.class,
                            () -> h.processElement(rec(new byte[] {1}, 19), 19));
            assertTrue(
                    e.getCause()
                            .getMessage()
                            .startsWith(
                                    "14 of the last 20 records (0.7000) went to the dead-letter output"),
                    e.getCause().getMessage());
            assertTrue(e.getCause().getMessage().contains("dlq.max-fraction (0.5)"));
        }
    }

    @Test
    void parsedBatchesAreEmittedAsTensorBatchesOnlyWhenAsked() throws Exception {
        byte[] truncated = Arrays.copyOf(GOOD.get(2), GOOD.get(2).length - 2);
        List<byte[]> good = new ArrayList<>();
        String firstId = null;
        for (int run = 0; run < 2; run++) {
            ParseSettings s = seed(BatchTriggers.defaults());
            try (var h = harness(run == 0 ? s : s.withTensorBatches("fp", Integer.MAX_VALUE))) {
                h.open();
                for (int i = 0; i < 6; i++) {
                    byte[] v = i == 2 ? truncated : GOOD.get(i);
                    h.processElement(
                            new StreamRecord<>(SourceRecord.of(v, "in", i % 2, 100 + i, 5)));
                    if (run == 1 && i != 2) {
                        good.add(v);
                    }
                }
                h.prepareSnapshotPreBarrier(1);
                if (run == 0) {
                    assertEquals(null, h.getSideOutput(BatchParseOperator.TENSOR_BATCHES));
                    continue;
                }
                List<StreamRecord<EncodedTensorBatch>> out =
                        new ArrayList<>(h.getSideOutput(BatchParseOperator.TENSOR_BATCHES));
                assertEquals(1, out.size());
                TensorBatch b = out.get(0).getValue().toMessage();
                assertEquals(5, b.getRows());
                assertEquals("fp", b.getSchemaFingerprint());
                assertEquals(
                        ExampleBatchParser.create(Seed001Corpus.spec())
                                .parse(RecordBatch.of(good))
                                .features(),
                        TensorBatchCodec.decode(b, ""));
                assertEquals(2, b.getSourcesCount());
                assertEquals(
                        SourceRange.newBuilder()
                                .setTopic("in")
                                .setPartition(0)
                                .setFirstOffset(100)
                                .setLastOffset(104)
                                .build(),
                        b.getSources(0));
                assertEquals(101, b.getSources(1).getFirstOffset());
                assertEquals(105, b.getSources(1).getLastOffset());
                assertEquals(32, b.getBatchId().length());
                firstId = b.getBatchId();
            }
        }
        // The same records after a restart: the same batch id.
        try (var h =
                harness(
                        seed(BatchTriggers.defaults())
                                .withTensorBatches("fp", Integer.MAX_VALUE))) {
            h.open();
            for (int i = 0; i < 6; i++) {
                byte[] v = i == 2 ? truncated : GOOD.get(i);
                h.processElement(new StreamRecord<>(SourceRecord.of(v, "in", i % 2, 100 + i, 5)));
            }
            h.prepareSnapshotPreBarrier(1);
            assertEquals(
                    firstId,
                    h.getSideOutput(BatchParseOperator.TENSOR_BATCHES)
                            .peek()
                            .getValue()
                            .meta()
                            .getBatchId());
        }
    }

    @Test
    void aTensorBatchLeavesOutRowsRejectedForTheirEventTime() throws Exception {
        FeatureSpecs spec = TS_SPEC;
        ParseSettings s =
                settings(
                                spec,
                                ParseLimits.defaults(),
                                BatchTriggers.defaults(),
                                EventTimeSettings.feature("ts", EventTimeSettings.Unit.MILLIS),
                                DeadLetterGuard.off())
                        .withTensorBatches("fp", Integer.MAX_VALUE);
        try (var h = harness(s)) {
            h.open();
            h.processElement(rec(example(10L), 0), 1);
            h.processElement(rec(example(), 1), 1);
            h.processElement(rec(example(30L), 2), 1);
            h.prepareSnapshotPreBarrier(1);
            TensorBatch b =
                    h.getSideOutput(BatchParseOperator.TENSOR_BATCHES)
                            .peek()
                            .getValue()
                            .toMessage();
            assertEquals(2, b.getRows());
            assertEquals(
                    ExampleBatchParser.create(spec)
                            .parse(RecordBatch.of(example(10L), example(30L)))
                            .features(),
                    TensorBatchCodec.decode(b, ""));
            assertEquals(1, deadLetters(h).size());
        }
    }

    @Test
    void anOversizedBatchIsSplitAndARecordTooBigAloneIsDeadLettered() throws Exception {
        ParseSettings s =
                settings(
                                TS_SPEC,
                                ParseLimits.defaults(),
                                BatchTriggers.defaults(),
                                EventTimeSettings.kafkaTimestamp(),
                                DeadLetterGuard.off())
                        .withTensorBatches("fp", 4096);
        long[] many = new long[3000];
        java.util.Arrays.fill(many, 5L);
        List<byte[]> kept = new ArrayList<>();
        try (var h = harness(s)) {
            h.open();
            for (int i = 0; i < 200; i++) {
                byte[] v = i == 120 ? example(many) : example(i, i + 1);
                if (i != 120) {
                    kept.add(v);
                }
                h.processElement(rec(v, i), 1);
            }
            h.prepareSnapshotPreBarrier(1);
            List<DeadLetter> dead = deadLetters(h);
            assertEquals(1, dead.size());
            assertEquals(DeadLetterReason.TOO_LARGE, dead.get(0).reason());
            assertEquals(120, dead.get(0).source().offset());
            assertTrue(
                    dead.get(0).error().contains("over the payload limit of 4096 bytes"),
                    dead.get(0).error());
            assertEquals(199, h.extractOutputValues().size());
            List<TensorBatch> parts = new ArrayList<>();
            for (StreamRecord<EncodedTensorBatch> r :
                    h.getSideOutput(BatchParseOperator.TENSOR_BATCHES)) {
                parts.add(r.getValue().toMessage());
            }
            assertTrue(parts.size() >= 2, parts.size() + " parts");
            int row = 0;
            for (int p = 0; p < parts.size(); p++) {
                TensorBatch b = parts.get(p);
                assertTrue(b.getSerializedSize() <= 4096, b.getSerializedSize() + " bytes");
                assertEquals(p, b.getPart());
                assertEquals(parts.size(), b.getParts());
                assertEquals(parts.get(0).getBatchId(), b.getBatchId());
                List<byte[]> own = kept.subList(row, row + (int) b.getRows());
                assertEquals(
                        ExampleBatchParser.create(TS_SPEC).parse(RecordBatch.of(own)).features(),
                        TensorBatchCodec.decode(b, ""));
                assertEquals(
                        own.isEmpty() ? -1 : offsetOf(kept, own.get(0)),
                        b.getSources(0).getFirstOffset());
                row += (int) b.getRows();
            }
            assertEquals(199, row);
        }
    }

    /** The offset {@code record} was given above: its index among all 200, skipping none. */
    private static long offsetOf(List<byte[]> kept, byte[] record) {
        int i = kept.indexOf(record);
        return i < 120 ? i : i + 1;
    }

    @Test
    void aDamagedFileRegionGoesStraightToTheDeadLetters() throws Exception {
        try (var h = harness(seed(BatchTriggers.defaults()))) {
            h.open();
            h.processElement(
                    new StreamRecord<>(
                            SourceRecord.fromFile(GOOD.get(0), null, null, "f.tfrecord", 0, 7)));
            SourceRecord region =
                    SourceRecord.fromFile(
                            new byte[] {9, 9},
                            new String[] {
                                io.tfstream.operators.files.TfRecordFileFormat.CORRUPT_HEADER
                            },
                            new byte[][] {
                                "f.tfrecord: damaged at byte 40: bad"
                                        .getBytes(StandardCharsets.UTF_8)
                            },
                            "f.tfrecord",
                            40,
                            7);
            h.processElement(new StreamRecord<>(region));
            h.prepareSnapshotPreBarrier(1);
            List<DeadLetter> dead = deadLetters(h);
            assertEquals(1, dead.size());
            assertEquals(DeadLetterReason.CORRUPT_INPUT, dead.get(0).reason());
            assertEquals("f.tfrecord: damaged at byte 40: bad", dead.get(0).error());
            assertEquals(region, dead.get(0).source());
            assertEquals(1, h.extractOutputValues().size());
        }
    }
}
