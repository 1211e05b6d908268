package io.tfstream.job;

import io.tfstream.api.model.DeadLetterReason;
import io.tfstream.operators.deadletter.ParseRejections;
import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.LenientBatchParser;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.SerializedRecords;
import io.tfstream.spec.ParseSpec;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testkit.ProtoFeatures;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.tensorflow.example.Example;
import org.tensorflow.example.FeatureList;
import org.tensorflow.example.FeatureLists;
import org.tensorflow.example.Features;
import org.tensorflow.example.SequenceExample;

/**
 * Input records for the streaming ITCases: good records with a share of broken ones (truncated,
 * wrong type for the spec, bad varint, over a limit) at reproducible positions, each with the
 * dead-letter reason and message the job must give it (the lenient parser's message for the record
 * alone, whose equality with TensorFlow's is proven by the parser's differential tests).
 */
public final class InputCorpus {
    /** One input record; {@code reason} is null for a record the job must accept. */
    public record Input(byte[] key, byte[] value, DeadLetterReason reason, String error) {}

    public static final int BAD_EVERY = 100;

    private InputCorpus() {}

    public static List<Input> examples(int n, long seed, ParseSpec spec, ParseLimits limits) {
        return examples(Seed001Corpus.records(n, seed), spec, limits);
    }

    /** {@code good} Examples with the same share of broken ones in their places, judged. */
    public static List<Input> examples(List<byte[]> good, ParseSpec spec, ParseLimits limits) {
        int n = good.size();
        List<byte[]> values = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            values.add(
                    i % BAD_EVERY == BAD_EVERY / 2
                            ? brokenExample(i / BAD_EVERY, good.get(i))
                            : good.get(i));
        }
        return judge("r-", values, spec, limits);
    }

    public static List<Input> sequenceExamples(
            int n, long seed, ParseSpec spec, ParseLimits limits) {
        Random rnd = new Random(seed);
        List<byte[]> values = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            byte[] good = sequenceExample(rnd, i, 1 + rnd.nextInt(4), false);
            values.add(
                    i % BAD_EVERY == BAD_EVERY / 2
                            ? brokenSequence(i / BAD_EVERY, good, rnd, i)
                            : good);
        }
        return judge("r-", values, spec, limits);
    }

    /**
     * {@code values} judged one by one by the lenient parser (accepted, or the reason and message
     * the job must dead-letter them with), keyed {@code keyPrefix + index}.
     */
    public static List<Input> judge(
            String keyPrefix, List<byte[]> values, ParseSpec spec, ParseLimits limits) {
        LenientBatchParser parser = LenientBatchParser.create(spec, limits);
        List<Input> out = new ArrayList<>(values.size());
        for (int i = 0; i < values.size(); i++) {
            byte[] v = values.get(i);
            List<ExampleParseException> rejected = new ArrayList<>();
            parser.parse(SerializedRecords.of(List.of(v)), rejected::add);
            byte[] key = (keyPrefix + i).getBytes(StandardCharsets.UTF_8);
            out.add(
                    rejected.isEmpty()
                            ? new Input(key, v, null, null)
                            : new Input(
                                    key,
                                    v,
                                    ParseRejections.reason(rejected.get(0)),
                                    rejected.get(0).getMessage()));
        }
        return out;
    }

    /** Four kinds of damage in turn; the over-limit kind exceeds 256 bytes. */
    private static byte[] brokenExample(int k, byte[] good) {
        switch (k % 4) {
            case 0:
                return Arrays.copyOf(good, good.length - 3);
            case 1:
                return Example.newBuilder()
                        .setFeatures(
                                Features.newBuilder()
                                        .putFeature("feature0", ProtoFeatures.floats(1.5f))
                                        .putFeature("feature1", ProtoFeatures.int64s(1))
                                        .putFeature("feature2", ProtoFeatures.strings("cat"))
                                        .putFeature("feature3", ProtoFeatures.floats(0.5f)))
                        .build()
                        .toByteArray();
            case 2:
                return new byte[] {0x0a, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff};
            default:
                return Example.newBuilder()
                        .setFeatures(
                                Features.newBuilder()
                                        .putFeature("feature0", ProtoFeatures.int64s(1))
                                        .putFeature("feature1", ProtoFeatures.int64s(1))
                                        .putFeature(
                                                "feature2", ProtoFeatures.strings("x".repeat(400)))
                                        .putFeature("feature3", ProtoFeatures.floats(0.5f)))
                        .build()
                        .toByteArray();
        }
    }

    private static byte[] brokenSequence(int k, byte[] good, Random rnd, int i) {
        switch (k % 3) {
            case 0:
                return Arrays.copyOf(good, good.length - 3);
            case 1:
                return sequenceExample(rnd, i, 2, true);
            default:
                return new byte[] {0x0a, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff};
        }
    }

    /** Context {@code id} (int64) and feature list {@code tokens} (int64 per step). */
    static byte[] sequenceExample(Random rnd, int id, int steps, boolean floatId) {
        FeatureList.Builder tokens = FeatureList.newBuilder();
        for (int s = 0; s < steps; s++) {
            tokens.addFeature(ProtoFeatures.int64s(rnd.nextInt(1000), rnd.nextInt(1000)));
        }
        return SequenceExample.newBuilder()
                .setContext(
                        Features.newBuilder()
                                .putFeature(
                                        "id",
                                        floatId
                                                ? ProtoFeatures.floats(id)
                                                : ProtoFeatures.int64s(id)))
                .setFeatureLists(FeatureLists.newBuilder().putFeatureList("tokens", tokens.build()))
                .build()
                .toByteArray();
    }
}
