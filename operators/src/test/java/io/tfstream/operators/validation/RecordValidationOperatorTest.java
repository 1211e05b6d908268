package io.tfstream.operators.validation;

import static io.tfstream.operators.validation.ValidationFixtures.WINDOW;
import static io.tfstream.operators.validation.ValidationFixtures.record;
import static io.tfstream.operators.validation.ValidationFixtures.settings;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tfstream.operators.deadletter.DeadLetter;
import io.tfstream.operators.deadletter.DeadLetterReason;
import io.tfstream.operators.parse.BatchParseOperator;
import io.tfstream.operators.source.SourceRecord;
import io.tfstream.operators.source.SourceRecordSerializer;
import io.tfstream.testing.ProtoFeatures;
import io.tfstream.validation.ValidationSchema;
import io.tfstream.validation.WindowAccumulator;
import io.tfstream.validation.WindowAccumulatorSerializer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * {@link RecordValidationOperator} in Flink's operator test harness: actions per anomaly type,
 * partial accumulators per window and split at the watermark, open windows through a snapshot and
 * restore, late records counted, not aggregated.
 */
@SuppressWarnings("try") // the harness's close() may throw InterruptedException
class RecordValidationOperatorTest {

    private static OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> harness(
            ValidationSettings s, OperatorSubtaskState restored) throws Exception {
        OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h =
                new OneInputStreamOperatorTestHarness<>(
                        new RecordValidationOperator(s), SourceRecordSerializer.INSTANCE);
        if (restored != null) {
            h.initializeState(restored);
        }
        h.open();
        return h;
    }

    private static List<WindowPartial> partials(
            OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h) {
        List<WindowPartial> out = new ArrayList<>();
        var q = h.getSideOutput(RecordValidationOperator.PARTIALS);
        if (q != null) {
            q.forEach(r -> out.add(r.getValue()));
        }
        return out;
    }

    private static WindowAccumulator accumulator(WindowPartial p) throws Exception {
        ValidationSchema s = settings(1, List.of()).buildSchema();
        return new WindowAccumulatorSerializer(s).deserialize(p.version(), p.accumulator());
    }

    @Test
    void marksDivertsAndPassesByAnomalyType() throws Exception {
        ValidationSettings s =
                settings(
                        1,
                        List.of(
                                "INT_TYPE_BIG_INT=mark",
                                "ENUM_TYPE_UNEXPECTED_STRING_VALUES=divert"));
        try (var h = harness(s, null)) {
            h.processElement(new StreamRecord<>(record(1, 30, "US"), 1000));
            h.processElement(new StreamRecord<>(record(2, 500, "US"), 2000));
            h.processElement(new StreamRecord<>(record(3, 30, "Mars"), 3000));
            List<SourceRecord> out = new ArrayList<>(h.extractOutputValues());
            assertEquals(2, out.size());
            assertNull(out.get(0).lastHeader(RecordValidationOperator.ANOMALIES_HEADER));
            assertEquals(2, out.get(1).offset());
            assertArrayEquals(
                    "INT_TYPE_BIG_INT".getBytes(StandardCharsets.UTF_8),
                    out.get(1).lastHeader(RecordValidationOperator.ANOMALIES_HEADER));
            List<DeadLetter> dlq = new ArrayList<>();
            h.getSideOutput(BatchParseOperator.DEAD_LETTERS).forEach(r -> dlq.add(r.getValue()));
            assertEquals(1, dlq.size());
            assertEquals(DeadLetterReason.VALIDATION, dlq.get(0).reason());
            assertEquals(3, dlq.get(0).source().offset());
            assertArrayEquals(record(3, 30, "Mars").value(), dlq.get(0).source().value());
            assertEquals(
                    true,
                    dlq.get(0).error().startsWith("country: ENUM_TYPE_UNEXPECTED_STRING_VALUES"),
                    dlq.get(0).error());
        }
    }

    @Test
    void sequenceExamplesAreValidatedAsSuch() throws Exception {
        String schema =
                "feature { name: \"ctx\" type: BYTES value_count { min: 1 max: 1 } }\n"
                        + "feature { name: \"##SEQUENCE##\" type: STRUCT struct_domain {\n"
                        + "  feature { name: \"clicks\" type: INT int_domain { min: 0 } }\n"
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
        try (var h = harness(s, null)) {
            h.processElement(new StreamRecord<>(SourceRecord.of(bad, "in", 0, 1, 1), 1000));
            SourceRecord out = h.extractOutputValues().get(0);
            assertArrayEquals(
                    "INT_TYPE_SMALL_INT".getBytes(StandardCharsets.UTF_8),
                    out.lastHeader(RecordValidationOperator.ANOMALIES_HEADER));
        }
    }

    @Test
    void emitsOnePartialPerSplitWhenTheWatermarkPassesTheWindowEnd() throws Exception {
        try (var h = harness(settings(3, List.of()), null)) {
            h.processElement(new StreamRecord<>(record(1, 30, "US"), 1000));
            h.processElement(new StreamRecord<>(record(2, 31, "DE"), WINDOW + 5));
            h.processWatermark(new Watermark(WINDOW - 2));
            assertEquals(0, partials(h).size());
            h.processWatermark(new Watermark(WINDOW - 1));
            List<WindowPartial> p = partials(h);
            assertEquals(3, p.size());
            for (int s = 0; s < 3; s++) {
                assertEquals(s, p.get(s).split());
                assertEquals(0, p.get(s).windowStart());
                assertEquals(WINDOW, p.get(s).windowEnd());
                assertEquals(1, accumulator(p.get(s)).numExamples());
            }
            assertEquals(1, ((RecordValidationOperator) h.getOperator()).openWindows());
        }
    }

    @Test
    void openWindowsSurviveASnapshotAndRestore() throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = harness(settings(1, List.of()), null)) {
            h.processElement(new StreamRecord<>(record(1, 30, "US"), 1000));
            h.processElement(new StreamRecord<>(record(2, 500, "US"), 2000));
            snapshot = h.snapshot(1, 1);
        }
        try (var h = harness(settings(1, List.of()), snapshot)) {
            h.processElement(new StreamRecord<>(record(3, 30, "DE"), 3000));
            h.processWatermark(new Watermark(WINDOW));
            List<WindowPartial> p = partials(h);
            assertEquals(1, p.size());
            assertEquals(3, accumulator(p.get(0)).numExamples());
        }
    }

    @Test
    void aRecordOfAnEmittedWindowIsLateAndCountedInTheNextOne() throws Exception {
        try (var h = harness(settings(1, List.of()), null)) {
            h.processElement(new StreamRecord<>(record(1, 30, "US"), 1000));
            h.processWatermark(new Watermark(WINDOW));
            h.processElement(new StreamRecord<>(record(2, 30, "US"), 2000));
            h.processWatermark(new Watermark(2 * WINDOW));
            List<WindowPartial> p = partials(h);
            assertEquals(2, p.size());
            assertEquals(1, accumulator(p.get(0)).numExamples());
            assertEquals(0, p.get(0).lateCount());
            assertEquals(WINDOW, p.get(1).windowStart());
            assertEquals(0, accumulator(p.get(1)).numExamples());
            assertEquals(1, p.get(1).lateCount());
        }
    }
}
