package io.tfstream.e2e.soak;

import io.tfstream.testing.WideProfileCorpus;
import io.tfstream.testkit.ProtoFeatures;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;

/**
 * The soak's input, one record per sequence number, computed again from the number alone: the
 * checker holds counts, never records, however long the run. A good record is an Example of the
 * wide profile (20 int64, 20 float and 5 bytes scalars, 5 int64 lists, 2 float lists) whose {@code
 * i00} is the sequence number, so a shard record names itself; every {@link #BAD_EVERY}th record is
 * broken in one of three ways the parser rejects. The Kafka key is {@code s<seq>}.
 */
public final class SoakRecords {
    public static final int BAD_EVERY = 100;

    private SoakRecords() {}

    /** Whether record {@code seq} is one the job must dead-letter. */
    public static boolean broken(long seq) {
        return seq % BAD_EVERY == BAD_EVERY / 2;
    }

    public static byte[] key(long seq) {
        return ("s" + seq).getBytes(StandardCharsets.UTF_8);
    }

    /** The sequence number of key {@code s<seq>}, or -1 for a key the soak never produced. */
    public static long seqOfKey(byte[] key) {
        if (key == null || key.length < 2 || key[0] != 's') {
            return -1;
        }
        try {
            return Long.parseLong(new String(key, 1, key.length - 1, StandardCharsets.UTF_8));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The bytes of record {@code seq}. */
    public static byte[] value(long seq) {
        byte[] good = example(seq);
        if (!broken(seq)) {
            return good;
        }
        switch ((int) ((seq / BAD_EVERY) % 3)) {
            case 0:
                return Arrays.copyOf(good, good.length - 3); // truncated inside the last value
            case 1:
                return new byte[] {0x0a, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff};
            default:
                // a well-formed Example without the required features
                return Example.newBuilder()
                        .setFeatures(
                                Features.newBuilder().putFeature("i00", ProtoFeatures.int64s(seq)))
                        .build()
                        .toByteArray();
        }
    }

    /**
     * The sequence number a good record carries in {@code i00}, or -1 when {@code record} is not an
     * Example with one int64 there.
     */
    public static long seqOf(byte[] record) {
        try {
            Feature f = Example.parseFrom(record).getFeatures().getFeatureMap().get("i00");
            return f != null && f.getInt64List().getValueCount() == 1
                    ? f.getInt64List().getValue(0)
                    : -1;
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            return -1;
        }
    }

    private static byte[] example(long seq) {
        return WideProfileCorpus.record(new Random(0x50a4L * 1_000_003L + seq), seq);
    }
}
