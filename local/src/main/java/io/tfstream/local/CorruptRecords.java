package io.tfstream.local;

import com.google.protobuf.InvalidProtocolBufferException;
import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.LenientBatchParser;
import io.tfstream.parse.RecordBatch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import org.tensorflow.example.BytesList;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.example.FloatList;
import org.tensorflow.example.Int64List;
import org.tensorflow.example.SequenceExample;

/**
 * Broken records mixed into the sample input of {@code tfstream local} at reproducible positions:
 * truncated, with flipped bytes, or with a feature of the wrong type. Every broken record is
 * checked against the parser on its own: each is one TensorFlow rejects, so the run's dead-letter
 * count is known in advance.
 */
public final class CorruptRecords {
    /** How a record was broken. */
    public enum Kind {
        TRUNCATED,
        FLIPPED_BYTES,
        WRONG_TYPE
    }

    /** The records with broken ones in place, and where and how each was broken. */
    public record Result(List<byte[]> records, int[] positions, Kind[] kinds) {}

    /** A record in another type; null when there is none. */
    public interface Retyper {
        byte[] retype(byte[] record, Random rnd);
    }

    private final Predicate<byte[]> rejected;
    private final Retyper retyper;
    private final Random rnd;

    private CorruptRecords(Predicate<byte[]> rejected, Retyper retyper, long seed) {
        this.rejected = rejected;
        this.retyper = retyper;
        this.rnd = new Random(seed);
    }

    /**
     * Replaces {@code round(fraction * records.size())} records, at positions chosen by {@code
     * seed}, with broken versions of themselves that {@code parser} rejects.
     */
    public static Result mix(
            List<byte[]> records, double fraction, long seed, LenientBatchParser parser) {
        return mix(
                records,
                fraction,
                seed,
                r -> rejected(parser, r),
                (r, rnd) -> wrongType(parser, r, rnd));
    }

    /**
     * Replaces {@code round(fraction * records.size())} records, at positions chosen by {@code
     * seed}, with broken versions of themselves (truncated, flipped bytes, or {@code retyper}'s)
     * that {@code rejected} accepts: how the input's own format is broken (JSON, Avro, Examples).
     */
    public static Result mix(
            List<byte[]> records,
            double fraction,
            long seed,
            Predicate<byte[]> rejected,
            Retyper retyper) {
        if (!(fraction >= 0 && fraction <= 1)) {
            throw new IllegalArgumentException("fraction must be in [0, 1], got " + fraction);
        }
        CorruptRecords c = new CorruptRecords(rejected, retyper, seed);
        int n = records.size();
        int broken = (int) Math.round(fraction * n);
        List<Integer> order = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            order.add(i);
        }
        Collections.shuffle(order, c.rnd);
        int[] positions = new int[broken];
        for (int i = 0; i < broken; i++) {
            positions[i] = order.get(i);
        }
        Arrays.sort(positions);
        List<byte[]> out = new ArrayList<>(records);
        Kind[] kinds = new Kind[broken];
        for (int i = 0; i < broken; i++) {
            Kind k = Kind.values()[c.rnd.nextInt(Kind.values().length)];
            byte[] original = records.get(positions[i]);
            byte[] bad = c.breakAs(k, original);
            if (bad == null) {
                k = Kind.TRUNCATED;
                bad = c.breakAs(k, original);
            }
            if (bad == null) {
                // Nothing of the record made it fail: a length prefix past the end always does.
                bad = new byte[] {0x0a, 0x7f};
            }
            kinds[i] = k;
            out.set(positions[i], bad);
        }
        return new Result(out, positions, kinds);
    }

    private byte[] breakAs(Kind kind, byte[] r) {
        for (int attempt = 0; attempt < 16; attempt++) {
            byte[] bad =
                    switch (kind) {
                        case TRUNCATED -> truncated(r);
                        case FLIPPED_BYTES -> flipped(r);
                        case WRONG_TYPE -> retyper.retype(r, rnd);
                    };
            if (bad != null && rejected.test(bad)) {
                return bad;
            }
        }
        return null;
    }

    private byte[] truncated(byte[] r) {
        if (r.length < 2) {
            return null;
        }
        return Arrays.copyOf(r, 1 + rnd.nextInt(r.length - 1));
    }

    private byte[] flipped(byte[] r) {
        if (r.length == 0) {
            return null;
        }
        byte[] b = r.clone();
        int flips = 1 + rnd.nextInt(3);
        for (int i = 0; i < flips; i++) {
            b[rnd.nextInt(b.length)] ^= (byte) (1 + rnd.nextInt(255));
        }
        return b;
    }

    /** One feature's values in another list type; for SequenceExamples a context feature. */
    private static byte[] wrongType(LenientBatchParser parser, byte[] r, Random rnd) {
        try {
            if (parser.sequence()) {
                SequenceExample s = SequenceExample.parseFrom(r);
                Features f = retyped(s.getContext(), rnd);
                return f == null ? null : s.toBuilder().setContext(f).build().toByteArray();
            }
            Example e = Example.parseFrom(r);
            Features f = retyped(e.getFeatures(), rnd);
            return f == null ? null : e.toBuilder().setFeatures(f).build().toByteArray();
        } catch (InvalidProtocolBufferException e) {
            return null;
        }
    }

    private static Features retyped(Features features, Random rnd) {
        List<String> names = new ArrayList<>(features.getFeatureMap().keySet());
        if (names.isEmpty()) {
            return null;
        }
        Collections.sort(names);
        String name = names.get(rnd.nextInt(names.size()));
        Feature f = features.getFeatureMap().get(name);
        Feature other =
                switch (f.getKindCase()) {
                    case INT64_LIST ->
                            Feature.newBuilder()
                                    .setFloatList(
                                            FloatList.newBuilder()
                                                    .addValue(1.5f)
                                                    .addValue(f.getInt64List().getValueCount()))
                                    .build();
                    case FLOAT_LIST ->
                            Feature.newBuilder()
                                    .setBytesList(
                                            BytesList.newBuilder()
                                                    .addValue(
                                                            com.google.protobuf.ByteString
                                                                    .copyFromUtf8("not a float")))
                                    .build();
                    default ->
                            Feature.newBuilder()
                                    .setInt64List(Int64List.newBuilder().addValue(7))
                                    .build();
                };
        return features.toBuilder().putFeature(name, other).build();
    }

    private static boolean rejected(LenientBatchParser parser, byte[] record) {
        List<ExampleParseException> errors = new ArrayList<>(1);
        parser.parse(RecordBatch.of(List.of(record)), errors::add);
        return !errors.isEmpty();
    }
}
