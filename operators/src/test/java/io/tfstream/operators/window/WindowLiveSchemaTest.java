package io.tfstream.operators.window;

import static io.tfstream.operators.parse.LiveSchemaTesting.fingerprint;
import static io.tfstream.operators.parse.LiveSchemaTesting.specJson;
import static io.tfstream.operators.parse.LiveSchemaTesting.specSettings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.model.BatchKeySelector;
import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.LateRecords;
import io.tfstream.api.model.SchemaCompatibility;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.api.model.WindowSettings;
import io.tfstream.operators.deadletter.DeadLetterOutput;
import io.tfstream.operators.parse.BatchParseOperator;
import io.tfstream.operators.parse.LiveSchemaTesting;
import io.tfstream.operators.parse.ParseSettings;
import io.tfstream.operators.parse.SchemaUpdates;
import io.tfstream.operators.source.SourceRecordSerializer;
import io.tfstream.parse.RecordBatch;
import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.payload.EncodedTensorBatch;
import io.tfstream.payload.TensorBatchCodec;
import io.tfstream.proto.v1.TensorBatch;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.VarLenFeature;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.example.Int64List;

/**
 * The window operator with schema updates: records buffered before a change are parsed, when their
 * window closes, with the schema in force then; the payload and dead letters name it.
 */
@SuppressWarnings("try")
class WindowLiveSchemaTest {
    @TempDir Path dir;

    private static final FeatureSpecs V1 =
            FeatureSpecs.of(
                    Map.<String, FeatureSpec>of(
                            "x",
                            FixedLenFeature.required(List.of(), DType.INT64),
                            "z",
                            new VarLenFeature(DType.INT64)));

    /** z required: records without it are refused. */
    private static final FeatureSpecs V2 =
            FeatureSpecs.of(
                    Map.<String, FeatureSpec>of(
                            "x",
                            FixedLenFeature.required(List.of(), DType.INT64),
                            "z",
                            FixedLenFeature.required(List.of(), DType.INT64)));

    private static byte[] example(long x, boolean withZ) {
        Features.Builder f =
                Features.newBuilder()
                        .putFeature(
                                "x",
                                Feature.newBuilder()
                                        .setInt64List(Int64List.newBuilder().addValue(x))
                                        .build());
        if (withZ) {
            f.putFeature(
                    "z",
                    Feature.newBuilder().setInt64List(Int64List.newBuilder().addValue(x)).build());
        }
        return Example.newBuilder().setFeatures(f).build().toByteArray();
    }

    @Test
    void aWindowIsParsedWithTheSchemaInForceWhenItCloses() throws Exception {
        Path file = dir.resolve("spec.json");
        Files.write(file, specJson(V1));
        ParseSettings s =
                specSettings(specJson(V1))
                        .withTensorBatches(fingerprint(V1), 1 << 20)
                        .withSchemaUpdates(
                                new SchemaUpdates(file.toString(), 5, SchemaCompatibility.ANY));
        WindowBatchParseOperator op =
                new WindowBatchParseOperator(
                        s,
                        WindowSettings.builder(java.time.Duration.ofMillis(1000))
                                .setAllowedLateness(java.time.Duration.ofMillis(0))
                                .setLateRecords(LateRecords.DEAD_LETTER)
                                .setMaxBufferedBytes(1L << 30)
                                .build(),
                        BatchKeySelector.kafkaKey());
        try (var h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        op, BatchKeySelector.kafkaKey(), Types.STRING)) {
            h.setup(SourceRecordSerializer.INSTANCE);
            h.open();
            List<byte[]> values = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                values.add(example(i, i % 2 == 0));
                h.processElement(
                        new StreamRecord<>(
                                new SourceRecord(
                                        values.get(i),
                                        "k".getBytes(StandardCharsets.UTF_8),
                                        null,
                                        null,
                                        "in",
                                        0,
                                        i,
                                        100 + i),
                                100 + i));
            }
            LiveSchemaTesting.replace(file, specJson(V2));
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            long cp = 0;
            while (!fingerprint(V2).equals(op.schemaFingerprint())) {
                assertTrue(System.nanoTime() < deadline, "V2 not taken up");
                Thread.sleep(10);
                h.prepareSnapshotPreBarrier(++cp);
            }
            h.processWatermark(new Watermark(999));
            List<EncodedTensorBatch> payloads = new ArrayList<>();
            h.getSideOutput(BatchParseOperator.TENSOR_BATCHES)
                    .forEach(r -> payloads.add(r.getValue()));
            assertEquals(1, payloads.size());
            TensorBatch b = payloads.get(0).toMessage();
            assertEquals(fingerprint(V2), b.getSchemaFingerprint());
            assertEquals(
                    ExampleBatchParser.create(V2)
                            .parse(
                                    RecordBatch.of(
                                            List.of(values.get(0), values.get(2), values.get(4))))
                            .features(),
                    TensorBatchCodec.decode(b, ""));
            List<DeadLetter> dead = new ArrayList<>();
            h.getSideOutput(DeadLetterOutput.TAG).forEach(r -> dead.add(r.getValue()));
            assertEquals(3, dead.size());
            for (DeadLetter d : dead) {
                assertEquals(1, d.source().offset() % 2);
                assertEquals(fingerprint(V2), d.schemaFingerprint());
            }
        }
    }
}
