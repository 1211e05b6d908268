package io.tfstream.convert;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.ByteString;
import io.tfstream.spec.DType;
import io.tfstream.testing.ExampleJson;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;

/**
 * Property: a random Example of the schema's features, written as JSON (lists as arrays, floats in
 * their shortest exact form, bytes as UTF-8 text or base64), converts back to the same Example.
 */
class ExampleJsonRoundTripTest {
    @Test
    void exampleToJsonAndBackIsTheSameExample() throws Exception {
        SplittableRandom rnd = new SplittableRandom(34);
        for (boolean base64 : new boolean[] {false, true}) {
            for (int round = 0; round < 2000; round++) {
                Map<String, DType> types = new TreeMap<>();
                int n = 1 + rnd.nextInt(6);
                for (int k = 0; k < n; k++) {
                    types.put("f" + k, DType.values()[rnd.nextInt(3)]);
                }
                ConvertFeatures features = ConvertFeatures.of(types);
                Example e = randomExample(rnd, types, base64);
                byte[] json = ExampleJson.of(e, base64);
                JsonToExample c =
                        new JsonToExample(features, new ConvertOptions(base64, false, null));
                byte[] back = c.convert(json, 0, json.length);
                assertEquals(e, Example.parseFrom(back), new String(json, StandardCharsets.UTF_8));
            }
        }
    }

    private static Example randomExample(
            SplittableRandom rnd, Map<String, DType> types, boolean base64) {
        Example.Builder b = Example.newBuilder();
        for (Map.Entry<String, DType> t : types.entrySet()) {
            if (rnd.nextInt(5) == 0) {
                continue; // absent
            }
            int count = rnd.nextInt(5) == 0 ? 0 : rnd.nextInt(1, 6);
            Feature.Builder f = Feature.newBuilder();
            for (int i = 0; i < count; i++) {
                switch (t.getValue()) {
                    case INT64 ->
                            f.getInt64ListBuilder()
                                    .addValue(
                                            rnd.nextBoolean()
                                                    ? rnd.nextLong()
                                                    : rnd.nextInt(-5, 300));
                    case FLOAT32 -> {
                        float v = Float.intBitsToFloat(rnd.nextInt());
                        f.getFloatListBuilder()
                                .addValue(Float.isFinite(v) ? v : (float) rnd.nextGaussian());
                    }
                    case STRING -> f.getBytesListBuilder().addValue(randomBytes(rnd, base64));
                }
            }
            switch (t.getValue()) {
                case INT64 -> f.getInt64ListBuilder();
                case FLOAT32 -> f.getFloatListBuilder();
                case STRING -> f.getBytesListBuilder();
            }
            b.getFeaturesBuilder().putFeature(t.getKey(), f.build());
        }
        return b.build();
    }

    private static ByteString randomBytes(SplittableRandom rnd, boolean base64) {
        int len = rnd.nextInt(12);
        if (base64) {
            byte[] b = new byte[len];
            for (int i = 0; i < len; i++) {
                b[i] = (byte) rnd.nextInt(256);
            }
            return ByteString.copyFrom(b);
        }
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < len; i++) {
            int cp = rnd.nextInt(4) == 0 ? rnd.nextInt(0x80, 0x2FFFF) : rnd.nextInt(0, 0x80);
            if (cp >= 0xD800 && cp <= 0xDFFF) {
                cp = 'x';
            }
            s.appendCodePoint(cp);
        }
        return ByteString.copyFromUtf8(s.toString());
    }
}
