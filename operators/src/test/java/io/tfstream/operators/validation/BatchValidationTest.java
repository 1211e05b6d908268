package io.tfstream.operators.validation;

import static io.tfstream.operators.validation.ValidationFixtures.SCHEMA;
import static io.tfstream.operators.validation.ValidationFixtures.WINDOW;
import static io.tfstream.operators.validation.ValidationFixtures.parse;
import static io.tfstream.operators.validation.ValidationFixtures.record;
import static io.tfstream.operators.validation.ValidationFixtures.settings;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.DeadLetterReason;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.api.model.ValidationActions;
import io.tfstream.operators.deadletter.DeadLetterOutput;
import io.tfstream.operators.parse.BatchParseOperator;
import io.tfstream.operators.parse.ParseSettings;
import io.tfstream.operators.source.SourceRecordSerializer;
import io.tfstream.payload.EncodedTensorBatch;
import io.tfstream.proto.v1.TensorBatch;
import io.tfstream.testkit.ProtoFeatures;
import io.tfstream.validation.ValidationSchema;
import io.tfstream.validation.WindowAccumulator;
import io.tfstream.validation.WindowAccumulatorSerializer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * Validation inside {@link BatchParseOperator} ({@link BatchValidation}) in Flink's operator test
 * harness: actions per anomaly type (a diverted record is a dead letter and in no tensor payload),
 * one window delta per window and split after every batch, nothing held across a checkpoint, late
 * records counted in the next window, SequenceExamples validated as such.
 */
@SuppressWarnings("try") // the harness's close() may throw InterruptedException
class BatchValidationTest {

    private static OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> harness(
            ParseSettings s) throws Exception {
        OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h =
                new OneInputStreamOperatorTestHarness<>(
                        new BatchParseOperator(s), SourceRecordSerializer.INSTANCE);
        h.setup(SourceRecordSerializer.INSTANCE);
        h.open();
        return h;
    }

    private static List<StreamRecord<WindowPartial>> partials(
            OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h) {
        List<StreamRecord<WindowPartial>> out = new ArrayList<>();
        var q = h.getSideOutput(BatchValidation.PARTIALS);
        if (q != null) {
            q.forEach(out::add);
        }
        return out;
    }

    private static WindowAccumulator accumulator(WindowPartial p) throws Exception {
        ValidationSchema s = settings(1, List.of()).buildSchema();
        return new WindowAccumulatorSerializer(s).deserialize(p.version(), p.accumulator());
    }

    private static List<DeadLetter> deadLetters(
            OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h) {
        List<DeadLetter> dlq = new ArrayList<>();
        var q = h.getSideOutput(DeadLetterOutput.TAG);
        if (q != null) {
            q.forEach(r -> dlq.add(r.getValue()));
        }
        return dlq;
    }

    @Test
    void marksDivertsAndPassesByAnomalyTypeAndDivertedRowsAreInNoPayload() throws Exception {
        ValidationSettings s =
                settings(
                        1,
                        List.of(
                                "INT_TYPE_BIG_INT=mark",
                                "ENUM_TYPE_UNEXPECTED_STRING_VALUES=divert"));
        try (var h = harness(parse(s, SCHEMA, 3, false))) {
            h.processElement(new StreamRecord<>(record(1, 30, "US"), 1000));
            h.processElement(new StreamRecord<>(record(2, 500, "US"), 2000));
            h.processElement(new StreamRecord<>(record(3, 30, "Mars"), 3000));
            List<SourceRecord> out = new ArrayList<>(h.extractOutputValues());
            assertEquals(2, out.size());
            assertNull(out.get(0).lastHeader(BatchValidation.ANOMALIES_HEADER));
            assertEquals(2, out.get(1).offset());
            assertArrayEquals(
                    "INT_TYPE_BIG_INT".getBytes(StandardCharsets.UTF_8),
                    out.get(1).lastHeader(BatchValidation.ANOMALIES_HEADER));
            List<DeadLetter> dlq = deadLetters(h);
            assertEquals(1, dlq.size());
            assertEquals(DeadLetterReason.VALIDATION, dlq.get(0).reason());
            assertEquals(3, dlq.get(0).source().offset());
            assertArrayEquals(record(3, 30, "Mars").value(), dlq.get(0).source().value());
            assertTrue(
                    dlq.get(0).error().startsWith("country: ENUM_TYPE_UNEXPECTED_STRING_VALUES"),
                    dlq.get(0).error());
            // The payload holds the two accepted rows, not the diverted one.
            List<EncodedTensorBatch> payloads = new ArrayList<>();
            h.getSideOutput(BatchParseOperator.TENSOR_BATCHES)
                    .forEach(r -> payloads.add(r.getValue()));
            assertEquals(1, payloads.size());
            TensorBatch b = payloads.get(0).toMessage();
            assertEquals(2, b.getRows());
            // The window still saw all three records, with the two anomalies rolled up.
            List<StreamRecord<WindowPartial>> p = partials(h);
            assertEquals(1, p.size());
            assertEquals(3000, p.get(0).getTimestamp());
            WindowAccumulator a = accumulator(p.get(0).getValue());
            assertEquals(3, a.numExamples());
        }
    }

    /** The circuit breaker judges unreadable records: diverting every record does not trip it. */
    @Test
    void divertedRecordsDoNotTripTheDeadLetterCircuitBreaker() throws Exception {
        ValidationSettings s = settings(1, List.of("INT_TYPE_BIG_INT=divert"));
        var guard =
                io.tfstream.api.model.DeadLetterGuard.builder()
                        .setMaxFraction(0.5)
                        .setMinRecords(1)
                        .build();
        try (var h = harness(parse(s, SCHEMA, 5, guard))) {
            for (int i = 0; i < 20; i++) {
                h.processElement(new StreamRecord<>(record(i, 500 + i, "US"), 1000 + i));
            }
            assertEquals(0, h.extractOutputValues().size());
            assertEquals(20, deadLetters(h).size());
        }
        // Unreadable records do trip it.
        try (var h = harness(parse(s, SCHEMA, 5, guard))) {
            org.junit.jupiter.api.Assertions.assertThrows(
                    Exception.class,
                    () -> {
                        for (int i = 0; i < 20; i++) {
                            h.processElement(
                                    new StreamRecord<>(
                                            SourceRecord.of(
                                                    new byte[] {(byte) 0xff}, "in", 0, i, i),
                                            1000 + i));
                        }
                    });
        }
    }

    @Test
    void sequenceExamplesAreValidatedAsSuch() throws Exception {
        String schema =
                "feature { name: \"ctx\" type: BYTES value_count { min: 1 max: 1 } }\n"
                        + "feature { name: \"##SEQUENCE##\" type: STRUCT struct_domain {\n"
                        + "  feature { name: \"clicks\" type: INT int_domain { min: 0 } }\n"
                        + "} }\n"
                        + "tensor_representation_group { key: \"\" value {\n"
                        + "  tensor_representation { key: \"ctx\""
                        + " value { varlen_sparse_tensor { column_name: \"ctx\" } } }\n"
                        + "  tensor_representation { key: \"clicks\" value { ragged_tensor {"
                        + " feature_path { step: \"##SEQUENCE##\" step: \"clicks\" } } } }\n"
                        + "} }\n";
        ValidationSettings s =
                new ValidationSettings(
                        schema.getBytes(StandardCharsets.UTF_8),
                        "seq.pbtxt",
                        true,
                        null,
                        WINDOW,
                        1,
                        5,
                        ValidationActions.parse(List.of("ERROR=mark")),
                        "test-job",
                        io.tfstream.parse.ParseLimits.defaults());
        byte[] bad =
                org.tensorflow.example.SequenceExample.newBuilder()
                        .setContext(
                                org.tensorflow.example.Features.newBuilder()
                                        .putFeature("ctx", ProtoFeatures.strings("a")))
                        .setFeatureLists(
                                org.tensorflow.example.FeatureLists.newBuilder()
                                        .putFeatureList(
                                                "clicks",
                                                org.tensorflow.example.FeatureList.newBuilder()
                                                        .addFeature(ProtoFeatures.int64s(-5))
                                                        .build()))
                        .build()
                        .toByteArray();
        try (var h = harness(parse(s, schema, 1, true))) {
            h.processElement(new StreamRecord<>(SourceRecord.of(bad, "in", 0, 1, 1), 1000));
            SourceRecord out = h.extractOutputValues().get(0);
            assertArrayEquals(
                    "INT_TYPE_SMALL_INT".getBytes(StandardCharsets.UTF_8),
                    out.lastHeader(BatchValidation.ANOMALIES_HEADER));
        }
    }

    @Test
    void eachBatchLeavesOneDeltaPerWindowAndSplit() throws Exception {
        try (var h = harness(parse(settings(3, List.of()), SCHEMA, 2, false))) {
            h.processElement(new StreamRecord<>(record(1, 30, "US"), 1000));
            assertEquals(0, partials(h).size()); // the batch is not full yet
            h.processElement(new StreamRecord<>(record(2, 31, "DE"), WINDOW + 5));
            List<StreamRecord<WindowPartial>> p = partials(h);
            assertEquals(6, p.size()); // two windows x three splits
            for (int k = 0; k < 6; k++) {
                WindowPartial w = p.get(k).getValue();
                assertEquals(k % 3, w.split());
                assertEquals(k < 3 ? 0 : WINDOW, w.windowStart());
                assertEquals(w.windowStart() + WINDOW, w.windowEnd());
                assertEquals(1, accumulator(w).numExamples());
                assertEquals(k < 3 ? 1000 : WINDOW + 5, p.get(k).getTimestamp());
            }
        }
    }

    @Test
    void aCheckpointFlushesTheBatchAndItsDeltas() throws Exception {
        try (var h = harness(parse(settings(1, List.of()), SCHEMA, 100, false))) {
            h.processElement(new StreamRecord<>(record(1, 30, "US"), 1000));
            h.processElement(new StreamRecord<>(record(2, 500, "US"), 2000));
            h.prepareSnapshotPreBarrier(1);
            List<StreamRecord<WindowPartial>> p = partials(h);
            assertEquals(1, p.size());
            assertEquals(2, accumulator(p.get(0).getValue()).numExamples());
        }
    }

    @Test
    void aRecordOfAClosedWindowIsLateAndCountedInTheNextOne() throws Exception {
        try (var h = harness(parse(settings(1, List.of()), SCHEMA, 1, false))) {
            h.processElement(new StreamRecord<>(record(1, 30, "US"), 1000));
            h.processWatermark(new Watermark(WINDOW));
            h.processElement(new StreamRecord<>(record(2, 30, "US"), 2000));
            List<StreamRecord<WindowPartial>> p = partials(h);
            assertEquals(2, p.size());
            assertEquals(1, accumulator(p.get(0).getValue()).numExamples());
            assertEquals(0, p.get(0).getValue().lateCount());
            assertEquals(WINDOW, p.get(1).getValue().windowStart());
            assertEquals(0, accumulator(p.get(1).getValue()).numExamples());
            assertEquals(1, p.get(1).getValue().lateCount());
            assertEquals(2, h.extractOutputValues().size()); // late, yet still emitted
        }
    }
}
