package io.tfstream.operators.parse;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.DeadLetterGuard;
import io.tfstream.api.model.EventTimeSettings;
import io.tfstream.api.model.SchemaCompatibility;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.deadletter.DeadLetterOutput;
import io.tfstream.operators.source.SourceRecordSerializer;
import io.tfstream.parse.ParseLimits;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.SchemaFingerprint;
import io.tfstream.spec.json.SpecJsonWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.example.Int64List;

/**
 * What the live-schema operator tests share: SPEC.json files of a test's specs, their fingerprints,
 * polled settings, count-batch harnesses and barriers until a switch.
 */
public final class LiveSchemaTesting {
    private LiveSchemaTesting() {}

    /** {@code spec} as SPEC.json bytes. */
    /**
     * Writes {@code bytes} to {@code file} as one rename: the poller, reading every few
     * milliseconds, never sees the file emptied and half written.
     */
    public static void replace(Path file, byte[] bytes) throws java.io.IOException {
        Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
        java.nio.file.Files.write(tmp, bytes);
        java.nio.file.Files.move(
                tmp,
                file,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    public static byte[] specJson(FeatureSpecs spec) {
        return SpecJsonWriter.write(spec).getBytes(StandardCharsets.UTF_8);
    }

    /** The fingerprint of {@code spec} read from a file named {@code spec.json}. */
    public static String fingerprint(FeatureSpecs spec) throws Exception {
        return SchemaFingerprint.of(specJson(spec), "spec.json");
    }

    /** An Example of int64 scalars. */
    public static byte[] int64Example(Map<String, Long> features) {
        Features.Builder f = Features.newBuilder();
        features.forEach(
                (k, v) ->
                        f.putFeature(
                                k,
                                Feature.newBuilder()
                                        .setInt64List(Int64List.newBuilder().addValue(v))
                                        .build()));
        return Example.newBuilder().setFeatures(f).build().toByteArray();
    }

    /** Lenient settings of the SPEC.json {@code spec} (file name {@code spec.json}), defaults. */
    public static ParseSettings specSettings(byte[] spec) {
        return new ParseSettings(
                spec,
                "spec.json",
                false,
                ParseLimits.defaults(),
                BatchTriggers.defaults(),
                EventTimeSettings.kafkaTimestamp(),
                DeadLetterGuard.off());
    }

    /** Updates polling {@code file} every 5 ms. */
    public static SchemaUpdates polling(Path file, SchemaCompatibility c) {
        return new SchemaUpdates(file.toUri().toString(), 5, c);
    }

    /** A count-batch operator's harness, set up, not opened. */
    public static OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> harness(
            ParseSettings s) throws Exception {
        var h =
                new OneInputStreamOperatorTestHarness<>(
                        new BatchParseOperator(s), SourceRecordSerializer.INSTANCE);
        h.setup(SourceRecordSerializer.INSTANCE);
        return h;
    }

    /** The fingerprint of the schema in force in {@code h}'s count-batch operator. */
    public static String inForce(OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h) {
        return ((BatchParseOperator) h.getOneInputOperator()).schemaFingerprint();
    }

    /**
     * Checkpoints (barrier only) from {@code checkpoint + 1} until {@code done}, at most 10 s;
     * returns the last checkpoint id.
     */
    public static long barriersUntil(
            OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h,
            BooleanSupplier done,
            long checkpoint)
            throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "nothing happened within 10 s");
            Thread.sleep(10);
            h.prepareSnapshotPreBarrier(++checkpoint);
        }
        return checkpoint;
    }

    /** The dead letters {@code h} emitted since the last call, taken out of its side output. */
    public static List<DeadLetter> deadLetters(
            OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h) {
        List<DeadLetter> out = new ArrayList<>();
        var q = h.getSideOutput(DeadLetterOutput.TAG);
        if (q != null) {
            q.forEach(r -> out.add(r.getValue()));
            q.clear();
        }
        return out;
    }
}
