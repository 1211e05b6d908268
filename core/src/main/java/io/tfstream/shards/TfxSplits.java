package io.tfstream.shards;

import com.google.protobuf.InvalidProtocolBufferException;
import io.tfstream.text.Quoted;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.SequenceExample;

/**
 * Data splits by TFX ExampleGen's rule ({@code _PartitionFn} of {@code
 * base_example_gen_executor.py}): the splits have hash buckets ({@code train:2,eval:1}); a record
 * goes to split {@code bisect_right(cumulative, int(sha256(key).hexdigest(), 16) % total)}, where
 * the key is the record's bytes as stored, or, with a partition feature, that feature of the
 * Example (of a SequenceExample's context) serialized again by protobuf. So a record lands in the
 * split TFX would put it in, and a TFX pipeline reading both agrees on which records are train.
 */
public final class TfxSplits implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    /** A split's name (the directory is {@code Split-<name>}) and its share of hash buckets. */
    public record Split(String name, int hashBuckets) implements java.io.Serializable {}

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]*");

    private final List<Split> splits;
    private final long[] cumulative;
    private final long total;

    private TfxSplits(List<Split> splits) {
        this.splits = List.copyOf(splits);
        this.cumulative = new long[splits.size()];
        long sum = 0;
        for (int i = 0; i < splits.size(); i++) {
            sum += splits.get(i).hashBuckets();
            cumulative[i] = sum;
        }
        this.total = sum;
    }

    /**
     * The splits of {@code spec}: {@code name:buckets} entries separated by ',' (e.g. {@code
     * train:2,eval:1}, TFX's default 2:1), in order.
     *
     * @throws IllegalArgumentException naming the entry that is wrong
     */
    public static TfxSplits parse(String spec) {
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException("no splits: expected name:buckets entries");
        }
        List<Split> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (String entry : spec.split(",")) {
            String e = entry.trim();
            int colon = e.lastIndexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException(
                        "split '" + Quoted.cut(e) + "': expected name:buckets, e.g. train:2");
            }
            String name = e.substring(0, colon).trim();
            if (!NAME.matcher(name).matches()) {
                throw new IllegalArgumentException(
                        "split '"
                                + Quoted.cut(name)
                                + "': a name of letters, digits, '_', '.' and '-' (it names the"
                                + " directory Split-<name>)");
            }
            if (!names.add(name)) {
                throw new IllegalArgumentException(
                        "split '" + Quoted.cut(name) + "' is named twice");
            }
            int buckets;
            try {
                buckets = Integer.parseInt(e.substring(colon + 1).trim());
            } catch (NumberFormatException x) {
                buckets = 0;
            }
            if (buckets < 1) {
                throw new IllegalArgumentException(
                        "split '"
                                + Quoted.cut(name)
                                + "': hash buckets must be a positive integer");
            }
            out.add(new Split(name, buckets));
        }
        long sum = out.stream().mapToLong(Split::hashBuckets).sum();
        if (sum > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("splits: more than 2^31 hash buckets in all");
        }
        return new TfxSplits(out);
    }

    public List<Split> splits() {
        return splits;
    }

    /** The index of the split of partition key {@code key}. */
    public int indexOf(byte[] key) {
        // int(hexdigest, 16) % total, digit by digit (Horner): total < 2^31, so no step overflows
        long bucket = 0;
        for (byte b : sha256(key)) {
            bucket = ((bucket << 8) | (b & 0xff)) % total;
        }
        // bisect.bisect (bisect_right): the first boundary above the bucket
        for (int i = 0; i < cumulative.length; i++) {
            if (bucket < cumulative[i]) {
                return i;
            }
        }
        throw new IllegalStateException("bucket " + bucket + " beyond " + total);
    }

    /** The split of partition key {@code key}. */
    public Split of(byte[] key) {
        return splits.get(indexOf(key));
    }

    /**
     * The split of {@code record}: by its bytes, or by its partition feature {@code feature} (the
     * context's for a SequenceExample when {@code sequence}) when not null.
     *
     * @throws SplitKeyException when the record has no usable partition feature
     */
    public Split of(byte[] record, String feature, boolean sequence) throws SplitKeyException {
        return splits.get(indexOf(record, feature, sequence));
    }

    /**
     * The index of the split of {@code record}, as {@link #of(byte[], String, boolean)}.
     *
     * @throws SplitKeyException when the record has no usable partition feature
     */
    public int indexOf(byte[] record, String feature, boolean sequence) throws SplitKeyException {
        return indexOf(feature == null ? record : featureKey(record, sequence, feature));
    }

    /** The directory of a split in a bucket: {@code Split-<name>}, as TFX names it. */
    public static String directory(Split split) {
        return "Split-" + split.name();
    }

    /** The splits as written: {@code name:buckets,...}. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (Split s : splits) {
            b.append(b.length() == 0 ? "" : ",")
                    .append(s.name())
                    .append(':')
                    .append(s.hashBuckets());
        }
        return b.toString();
    }

    /**
     * The partition key of {@code record} with partition feature {@code feature}: the feature of
     * the Example (the context of a SequenceExample when {@code sequence}) serialized again, as
     * TFX's {@code feature.SerializeToString(deterministic=True)}.
     *
     * @throws SplitKeyException as TFX refuses the record: not parseable, the feature absent,
     *     without a value, or neither an int64 nor a bytes list
     */
    public static byte[] featureKey(byte[] record, boolean sequence, String feature)
            throws SplitKeyException {
        Map<String, Feature> features;
        try {
            features =
                    sequence
                            ? SequenceExample.parseFrom(record).getContext().getFeatureMap()
                            : Example.parseFrom(record).getFeatures().getFeatureMap();
        } catch (InvalidProtocolBufferException e) {
            throw new SplitKeyException("the record is not a valid " + kind(sequence));
        }
        Feature f = features.get(feature);
        if (f == null) {
            throw new SplitKeyException("Feature name `" + feature + "` does not exist.");
        }
        if (f.getKindCase() == Feature.KindCase.KIND_NOT_SET) {
            throw new SplitKeyException("Partition feature does not contain any value.");
        }
        if (!f.hasBytesList() && !f.hasInt64List()) {
            throw new SplitKeyException(
                    "Only `bytes_list` and `int64_list` features are supported for partition.");
        }
        return f.toByteArray();
    }

    private static String kind(boolean sequence) {
        return sequence ? "SequenceExample" : "Example";
    }

    private static byte[] sha256(byte[] key) {
        return SHA256.get().digest(key); // digest() resets it for the next key
    }

    /** One digest per thread: getting a new one per record costs a provider lookup. */
    private static final ThreadLocal<MessageDigest> SHA256 =
            ThreadLocal.withInitial(
                    () -> {
                        try {
                            return MessageDigest.getInstance("SHA-256");
                        } catch (NoSuchAlgorithmException e) {
                            throw new IllegalStateException("every JVM has SHA-256", e);
                        }
                    });

    /** A record TFX would not split by its partition feature; the message is TFX's. */
    public static final class SplitKeyException extends Exception {
        private static final long serialVersionUID = 1L;

        public SplitKeyException(String message) {
            super(message);
        }
    }
}
