package io.tfstream.testing;

import com.google.protobuf.ByteString;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.VarLenFeature;
import io.tfstream.testkit.ProtoFeatures;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.tensorflow.example.BytesList;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.example.FloatList;

/**
 * A wide Example profile: 20 int64, 20 float and 5 bytes scalars ({@code i00..i19}, {@code
 * f00..f19}, {@code s0..s4}), 5 int64 lists of length 0..10 parsed as VarLen ({@code v0..v4}) and 2
 * float lists of length 0..10 parsed as raw Ragged ({@code r0} int32 and {@code r1} int64 row
 * splits). Serialized with protobuf-java; deterministic for a seed.
 */
public final class WideProfileCorpus {
    private WideProfileCorpus() {}

    public static FeatureSpecs spec() {
        Map<String, FeatureSpec> m = new LinkedHashMap<>();
        for (int i = 0; i < 20; i++) {
            m.put(String.format("i%02d", i), FixedLenFeature.required(List.of(), DType.INT64));
            m.put(String.format("f%02d", i), FixedLenFeature.required(List.of(), DType.FLOAT32));
        }
        for (int i = 0; i < 5; i++) {
            m.put("s" + i, FixedLenFeature.required(List.of(), DType.STRING));
            m.put("v" + i, new VarLenFeature(DType.INT64));
        }
        m.put("r0", new RaggedFeature(DType.FLOAT32, "r0", List.of(), RowSplitsDType.INT32));
        m.put("r1", new RaggedFeature(DType.FLOAT32, "r1", List.of(), RowSplitsDType.INT64));
        return FeatureSpecs.of(m);
    }

    public static List<byte[]> records(int n, long seed) {
        Random rnd = new Random(seed);
        List<byte[]> out = new ArrayList<>(n);
        for (int r = 0; r < n; r++) {
            out.add(record(rnd, null));
        }
        return out;
    }

    /**
     * One record drawn from {@code rnd}; {@code i00}, when not null, replaces that feature's value
     * (the same draws are made, so the other features do not change).
     */
    public static byte[] record(Random rnd, Long i00) {
        Features.Builder f = Features.newBuilder();
        for (int i = 0; i < 20; i++) {
            long v = rnd.nextBoolean() ? rnd.nextInt(1000) : rnd.nextLong();
            f.putFeature(
                    String.format("i%02d", i),
                    ProtoFeatures.int64s(i == 0 && i00 != null ? i00 : v));
            f.putFeature(
                    String.format("f%02d", i),
                    Feature.newBuilder()
                            .setFloatList(
                                    FloatList.newBuilder()
                                            .addValue((float) (rnd.nextGaussian() * 100)))
                            .build());
        }
        for (int i = 0; i < 5; i++) {
            byte[] b = new byte[rnd.nextInt(24)];
            rnd.nextBytes(b);
            f.putFeature(
                    "s" + i,
                    Feature.newBuilder()
                            .setBytesList(BytesList.newBuilder().addValue(ByteString.copyFrom(b)))
                            .build());
            long[] list = new long[rnd.nextInt(11)];
            for (int j = 0; j < list.length; j++) {
                list[j] = rnd.nextInt(3) == 0 ? rnd.nextLong() : rnd.nextInt(100_000);
            }
            f.putFeature("v" + i, ProtoFeatures.int64s(list));
        }
        for (int i = 0; i < 2; i++) {
            FloatList.Builder fl = FloatList.newBuilder();
            for (int j = rnd.nextInt(11); j > 0; j--) {
                fl.addValue(rnd.nextFloat());
            }
            f.putFeature("r" + i, Feature.newBuilder().setFloatList(fl).build());
        }
        return Example.newBuilder().setFeatures(f).build().toByteArray();
    }
}
