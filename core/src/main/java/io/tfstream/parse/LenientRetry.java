package io.tfstream.parse;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Lenient parsing when the batch as a whole cannot be built although a first pass accepted its
 * records (a SparseFeature or RaggedFeature partition inconsistent across the batch; for
 * SequenceExamples, any error, since the kernel reports errors per batch): each candidate record is
 * parsed again on its own, those that fail alone are rejected with that error (and their record
 * index), and the rest are parsed as one batch. When the rest exceeds a batch-wide limit together
 * ({@link ParseLimits#maxRaggedRows()}), the longest prefix that fits is kept and each later record
 * is rejected as not fitting, naming the limit. TensorFlow itself would fail the whole batch.
 */
public final class LenientRetry {
    private LenientRetry() {}

    /** A strict batch parse. */
    public interface BatchParse<T> {
        T parse(SerializedRecords records) throws ExampleParseException;
    }

    /** The same result with its rows mapped to the original records. */
    public interface RowMapping<T> {
        T withRows(T parsed, int[] rowToRecord);
    }

    public static <T> T retry(
            BatchParse<T> parser,
            RowMapping<T> mapping,
            SerializedRecords records,
            int[] candidates,
            int count,
            Consumer<ExampleParseException> rejected) {
        int[] keep = new int[count];
        int kept = 0;
        for (int j = 0; j < count; j++) {
            int i = candidates[j];
            try {
                parser.parse(RecordSubset.single(records, i));
                keep[kept++] = i;
            } catch (ExampleParseException e) {
                rejected.accept(alone(e, i));
            }
        }
        int[] rows = Arrays.copyOf(keep, kept);
        ExampleParseException together;
        try {
            return mapping.withRows(parser.parse(RecordSubset.of(records, rows, kept)), rows);
        } catch (ExampleParseException e) {
            together = e;
        }
        // Records that parse one by one but not together exceed a batch-wide limit (the rows of
        // value_rowids partitions, ParseLimits.maxRaggedRows), which grows with every record:
        // keep the longest prefix that parses and reject the rest, naming the limit.
        int lo = 0;
        int hi = kept;
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            try {
                parser.parse(RecordSubset.of(records, rows, mid));
                lo = mid;
            } catch (ExampleParseException e) {
                hi = mid;
                together = e;
            }
        }
        for (int j = lo; j < kept; j++) {
            rejected.accept(doesNotFit(together, rows[j]));
        }
        int[] prefix = Arrays.copyOf(rows, lo);
        try {
            return mapping.withRows(parser.parse(RecordSubset.of(records, prefix, lo)), prefix);
        } catch (ExampleParseException e) {
            throw new IllegalStateException(
                    "a prefix that parsed failed again: " + e.getMessage(), e);
        }
    }

    /**
     * The strict parse's error when the batch's composition failed with {@code failure} for a
     * record ({@link ExampleParseException#recordIndex()} ≥ 0, a per-record limit): the error of
     * the first record up to that one that fails alone, as {@link #retry} rejects it, so that
     * {@code parse} names the record {@code parseLenient} rejects first. A batch of composites is
     * only checked as a whole (a uniform_row_length reshape sees every record's values), so an
     * earlier record can fail alone although the batch got past it. Runs on failed batches only.
     */
    public static ExampleParseException firstAloneFailure(
            BatchParse<?> parser, SerializedRecords records, ExampleParseException failure) {
        int last = failure.recordIndex();
        if (last < 0 || records.size() == 1) {
            return failure;
        }
        for (int i = 0; i <= last; i++) {
            try {
                parser.parse(RecordSubset.single(records, i));
            } catch (ExampleParseException e) {
                return alone(e, i);
            }
        }
        return failure;
    }

    /** Record {@code index}'s error from a batch of that record alone, renumbered. */
    private static ExampleParseException alone(ExampleParseException e, int index) {
        return e instanceof ParseLimitException l
                ? new ParseLimitException(index, e.featureKey(), l.setting(), renumber(e, index))
                : new ExampleParseException(e.kind(), index, e.featureKey(), e.getMessage());
    }

    /** Record {@code index} parses alone but not with the records before it. */
    private static ExampleParseException doesNotFit(ExampleParseException e, int index) {
        String message = "record " + index + ": does not fit in this batch: " + e.getMessage();
        return e instanceof ParseLimitException l
                ? new ParseLimitException(index, e.featureKey(), l.setting(), message)
                : new ExampleParseException(e.kind(), index, e.featureKey(), message);
    }

    /** A limit message names the record: the one-record batch's 0 becomes {@code index}. */
    private static String renumber(ExampleParseException e, int index) {
        String m = e.getMessage();
        return m.startsWith("record 0") ? "record " + index + m.substring("record 0".length()) : m;
    }
}
