package io.tfstream.bench.parse;

import com.google.protobuf.ByteString;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.FixedLenSequenceFeature;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.spec.VarLenFeature;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.tensorflow.example.BytesList;
import org.tensorflow.example.Feature;
import org.tensorflow.example.FeatureList;
import org.tensorflow.example.FeatureLists;
import org.tensorflow.example.Features;
import org.tensorflow.example.FloatList;
import org.tensorflow.example.Int64List;
import org.tensorflow.example.SequenceExample;

/**
 * The SequenceExample profile: a session-like record with context {@code user} (int64), {@code
 * country} (bytes) and {@code score} (3 floats), and 4 to 24 steps of {@code clicks} (int64 per
 * step, FixedLenSequence), {@code emb} (4 floats per step, FixedLenSequence), {@code tokens} (0 to
 * 5 int64 per step, VarLen) and {@code words} (0 to 3 short strings per step, Ragged). About 500
 * bytes.
 */
final class SequenceProfile {
    private static final String[] WORDS = {"a", "play", "pause", "skip", "search", "home"};

    private SequenceProfile() {}

    static SequenceFeatureSpecs spec() {
        Map<String, FeatureSpec> context = new LinkedHashMap<>();
        context.put("user", FixedLenFeature.required(List.of(), DType.INT64));
        context.put("country", FixedLenFeature.required(List.of(), DType.STRING));
        context.put("score", FixedLenFeature.required(List.of(3L), DType.FLOAT32));
        Map<String, FeatureSpec> lists = new LinkedHashMap<>();
        lists.put(
                "clicks",
                new FixedLenSequenceFeature(List.of(), DType.INT64, true, Optional.empty()));
        lists.put(
                "emb",
                new FixedLenSequenceFeature(List.of(4L), DType.FLOAT32, true, Optional.empty()));
        lists.put("tokens", new VarLenFeature(DType.INT64));
        lists.put(
                "words", new RaggedFeature(DType.STRING, "words", List.of(), RowSplitsDType.INT64));
        return new SequenceFeatureSpecs(FeatureSpecs.of(context), FeatureSpecs.of(lists));
    }

    static List<byte[]> records(int n) {
        SplittableRandom rnd = new SplittableRandom(1);
        List<byte[]> out = new ArrayList<>(n);
        for (int r = 0; r < n; r++) {
            Features context =
                    Features.newBuilder()
                            .putFeature("user", int64(rnd.nextLong(1L << 40)))
                            .putFeature("country", bytes("country-" + rnd.nextInt(50)))
                            .putFeature(
                                    "score",
                                    floats(
                                            (float) rnd.nextDouble(),
                                            (float) rnd.nextDouble(),
                                            (float) rnd.nextDouble()))
                            .build();
            FeatureList.Builder clicks = FeatureList.newBuilder();
            FeatureList.Builder emb = FeatureList.newBuilder();
            FeatureList.Builder tokens = FeatureList.newBuilder();
            FeatureList.Builder words = FeatureList.newBuilder();
            for (int t = 4 + rnd.nextInt(21); t > 0; t--) {
                clicks.addFeature(int64(rnd.nextInt(3)));
                emb.addFeature(
                        floats(
                                (float) rnd.nextDouble(),
                                (float) rnd.nextDouble(),
                                (float) rnd.nextDouble(),
                                (float) rnd.nextDouble()));
                long[] tok = new long[rnd.nextInt(6)];
                for (int i = 0; i < tok.length; i++) {
                    tok[i] = rnd.nextInt(30_000);
                }
                tokens.addFeature(int64(tok));
                String[] w = new String[rnd.nextInt(4)];
                for (int i = 0; i < w.length; i++) {
                    w[i] = WORDS[rnd.nextInt(WORDS.length)];
                }
                words.addFeature(bytes(w));
            }
            FeatureLists lists =
                    FeatureLists.newBuilder()
                            .putFeatureList("clicks", clicks.build())
                            .putFeatureList("emb", emb.build())
                            .putFeatureList("tokens", tokens.build())
                            .putFeatureList("words", words.build())
                            .build();
            out.add(
                    SequenceExample.newBuilder()
                            .setContext(context)
                            .setFeatureLists(lists)
                            .build()
                            .toByteArray());
        }
        return out;
    }

    private static Feature int64(long... v) {
        Int64List.Builder b = Int64List.newBuilder();
        for (long x : v) {
            b.addValue(x);
        }
        return Feature.newBuilder().setInt64List(b).build();
    }

    private static Feature floats(float... v) {
        FloatList.Builder b = FloatList.newBuilder();
        for (float x : v) {
            b.addValue(x);
        }
        return Feature.newBuilder().setFloatList(b).build();
    }

    private static Feature bytes(String... v) {
        BytesList.Builder b = BytesList.newBuilder();
        for (String x : v) {
            b.addValue(ByteString.copyFromUtf8(x));
        }
        return Feature.newBuilder().setBytesList(b).build();
    }
}
