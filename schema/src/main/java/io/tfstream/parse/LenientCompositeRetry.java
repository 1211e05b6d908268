package io.tfstream.parse;

import java.util.Arrays;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Lenient parsing when a composite feature (SparseFeature, RaggedFeature partitions) cannot be
 * built for the batch as a whole, e.g. index and value counts that differ in some record: each
 * accepted record is parsed again on its own, those whose own composition fails are rejected with
 * that error (and their record index), and the rest are parsed as one batch. TensorFlow itself
 * would fail the whole batch.
 */
final class LenientCompositeRetry {
    private LenientCompositeRetry() {}

    static ParsedBatch retry(
            ExampleBatchParser parser,
            SerializedRecords records,
            int[] accepted,
            int count,
            Consumer<ExampleParseException> rejected) {
        int[] keep = new int[count];
        int kept = 0;
        for (int j = 0; j < count; j++) {
            int i = accepted[j];
            try {
                parser.parse(subset(records, new int[] {i}, 1));
                keep[kept++] = i;
            } catch (ExampleParseException e) {
                rejected.accept(
                        e instanceof ParseLimitException l
                                ? new ParseLimitException(
                                        i, e.featureKey(), l.setting(), renumber(e, i))
                                : new ExampleParseException(
                                        e.kind(), i, e.featureKey(), e.getMessage()));
            }
        }
        int[] rows = Arrays.copyOf(keep, kept);
        try {
            ParsedBatch b = parser.parse(subset(records, rows, kept));
            return new ParsedBatch(b.rows(), new TreeMap<>(b.features()), rows);
        } catch (ExampleParseException e) {
            throw new IllegalStateException(
                    "records that compose one by one failed together: " + e.getMessage(), e);
        }
    }

    /** A limit message names the record: the one-record batch's 0 becomes {@code index}. */
    private static String renumber(ExampleParseException e, int index) {
        String m = e.getMessage();
        return m.startsWith("record 0:") ? "record " + index + m.substring("record 0".length()) : m;
    }

    private static SerializedRecords subset(SerializedRecords all, int[] pick, int n) {
        return new SerializedRecords() {
            @Override
            public int size() {
                return n;
            }

            @Override
            public byte[] buffer(int i) {
                return all.buffer(pick[i]);
            }

            @Override
            public int offset(int i) {
                return all.offset(pick[i]);
            }

            @Override
            public int length(int i) {
                return all.length(pick[i]);
            }

            @Override
            public String name(int i) {
                return all.name(pick[i]);
            }
        };
    }
}
