package io.tfstream.bench.parse;

import com.google.protobuf.ByteString;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.tensorflow.example.BytesList;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.example.FloatList;
import org.tensorflow.example.Int64List;

/**
 * Examples with 200 scalar features ({@code p000..p199}: int64, float and short bytes in turn) for
 * the projection benchmark: the same records parsed for all 200 features or for 4 of them.
 */
final class Wide200Corpus {
    static final int FEATURES = 200;

    /** The features a projection asks for, spread over the record and over the three dtypes. */
    static final int[] PROJECTED = {3, 61, 122, 197};

    private Wide200Corpus() {}

    static String name(int i) {
        return String.format("p%03d", i);
    }

    static DType dtype(int i) {
        switch (i % 3) {
            case 0:
                return DType.INT64;
            case 1:
                return DType.FLOAT32;
            default:
                return DType.STRING;
        }
    }

    static FeatureSpecs all() {
        Map<String, FeatureSpec> m = new LinkedHashMap<>();
        for (int i = 0; i < FEATURES; i++) {
            m.put(name(i), FixedLenFeature.required(List.of(), dtype(i)));
        }
        return FeatureSpecs.of(m);
    }

    static FeatureSpecs projection() {
        Map<String, FeatureSpec> m = new LinkedHashMap<>();
        for (int i : PROJECTED) {
            m.put(name(i), FixedLenFeature.required(List.of(), dtype(i)));
        }
        return FeatureSpecs.of(m);
    }

    static List<byte[]> records(int n, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<byte[]> out = new ArrayList<>(n);
        for (int r = 0; r < n; r++) {
            Features.Builder f = Features.newBuilder();
            for (int i = 0; i < FEATURES; i++) {
                Feature.Builder v = Feature.newBuilder();
                switch (dtype(i)) {
                    case INT64:
                        v.setInt64List(Int64List.newBuilder().addValue(rnd.nextInt(100_000)));
                        break;
                    case FLOAT32:
                        v.setFloatList(FloatList.newBuilder().addValue((float) rnd.nextDouble()));
                        break;
                    default:
                        byte[] b = new byte[4 + rnd.nextInt(12)];
                        rnd.nextBytes(b);
                        v.setBytesList(BytesList.newBuilder().addValue(ByteString.copyFrom(b)));
                }
                f.putFeature(name(i), v.build());
            }
            out.add(Example.newBuilder().setFeatures(f).build().toByteArray());
        }
        return out;
    }
}
