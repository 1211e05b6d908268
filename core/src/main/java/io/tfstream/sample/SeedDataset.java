package io.tfstream.sample;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.tensorflow.example.BytesList;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.example.FloatList;
import org.tensorflow.example.Int64List;

/**
 * The seed-001 sample dataset: four scalar features per Example, as in TensorFlow's TFRecord
 * tutorial ({@code feature0} a 0/1 int64, {@code feature1} an int64 in 0..4, {@code feature2} one
 * of five animal names, the one {@code feature1} picks, {@code feature3} a standard-normal float),
 * with its TFMD schema (four required scalars). Deterministic for a seed.
 */
public final class SeedDataset {
    /** The schema's resource name (text format). */
    public static final String SCHEMA_RESOURCE = "seed-001-schema.pbtxt";

    private static final String[] ANIMALS = {"cat", "dog", "chicken", "horse", "goat"};

    private SeedDataset() {}

    /** The TFMD schema of the dataset, as text-format bytes. */
    public static byte[] schemaPbtxt() {
        try (InputStream in = SeedDataset.class.getResourceAsStream(SCHEMA_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + SCHEMA_RESOURCE);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code n} serialized Examples. */
    public static List<byte[]> records(int n, long seed) {
        Random rnd = new Random(seed);
        List<byte[]> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int f1 = rnd.nextInt(ANIMALS.length);
            long f0 = rnd.nextBoolean() ? 1 : 0;
            float f3 = (float) rnd.nextGaussian();
            Features.Builder f =
                    Features.newBuilder()
                            .putFeature("feature0", int64(f0))
                            .putFeature("feature1", int64(f1))
                            .putFeature(
                                    "feature2",
                                    Feature.newBuilder()
                                            .setBytesList(
                                                    BytesList.newBuilder()
                                                            .addValue(
                                                                    ByteString.copyFromUtf8(
                                                                            ANIMALS[f1])))
                                            .build())
                            .putFeature(
                                    "feature3",
                                    Feature.newBuilder()
                                            .setFloatList(FloatList.newBuilder().addValue(f3))
                                            .build());
            out.add(Example.newBuilder().setFeatures(f).build().toByteArray());
        }
        return out;
    }

    private static Feature int64(long v) {
        return Feature.newBuilder().setInt64List(Int64List.newBuilder().addValue(v)).build();
    }
}
