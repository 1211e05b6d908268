package io.tfstream.parse;

import java.util.Arrays;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Lenient parsing when a composite feature (SparseFeature, RaggedFeature partitions) cannot be
 * built for the batch as a whole, e.g. index and value counts that differ in some record: each
 * accepted record is parsed again on its own, those whose own composition fails are rejected with
 * that error (and their record index), and the rest are parsed as one batch. When the rest exceeds
 * a batch-wide limit together ({@link ParseLimits#maxRaggedRows()}), the longest prefix that fits
 * is kept and each later record is rejected as not fitting, naming the limit. TensorFlow itself
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
        ExampleParseException together;
        try {
            return batch(parser, records, rows, kept);
        } catch (ExampleParseException e) {
            together = e;
        }
        // Records that compose one by one but not together exceed a batch-wide limit (the rows of
        // value_rowids partitions, ParseLimits.maxRaggedRows), which grows with every record:
        // keep the longest prefix that composes and reject the rest, naming the limit.
        int lo = 0;
        int hi = kept;
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            try {
                parser.parse(subset(records, rows, mid));
                lo = mid;
            } catch (ExampleParseException e) {
                hi = mid;
                together = e;
            }
        }
        for (int j = lo; j < kept; j++) {
            rejected.accept(doesNotFit(together, rows[j]));
        }
        try {
            return batch(parser, records, Arrays.copyOf(rows, lo), lo);
        } catch (ExampleParseException e) {
            throw new IllegalStateException(
                    "a prefix that composed failed again: " + e.getMessage(), e);
        }
    }

    private static ParsedBatch batch(
            ExampleBatchParser parser, SerializedRecords records, int[] rows, int n)
            throws ExampleParseException {
        ParsedBatch b = parser.parse(subset(records, rows, n));
        return new ParsedBatch(b.rows(), new TreeMap<>(b.features()), rows);
    }

    /** Record {@code index} composes alone but not with the records before it. */
    private static ExampleParseException doesNotFit(ExampleParseException e, int index) {
        String message = "record " + index + ": does not fit in this batch: " + e.getMessage();
        return e instanceof ParseLimitException l
                ? new ParseLimitException(index, e.featureKey(), l.setting(), message)
                : new ExampleParseException(e.kind(), index, e.featureKey(), message);
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
