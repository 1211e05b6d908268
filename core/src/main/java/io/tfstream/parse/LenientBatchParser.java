package io.tfstream.parse;

import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.SequenceFeatureSpecs;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * One lenient batch parser for either record type: {@link ExampleBatchParser#parseLenient} for a
 * {@link FeatureSpecs}, {@link SequenceExampleBatchParser#parseLenient} for a {@link
 * SequenceFeatureSpecs}. Each rejected record is reported with its index in the batch and the
 * message TensorFlow gives for that record parsed on its own ({@code parse_example([record])}), so
 * that the message does not depend on which batch the record happened to fall into. A record that
 * parses alone but not together with the records before it (a batch-wide limit) keeps the batch's
 * message, which says so.
 *
 * <p>Not thread-safe: one per thread.
 */
public final class LenientBatchParser {
    private final ExampleBatchParser examples;
    private final SequenceExampleBatchParser sequences;
    private final List<ExampleParseException> pending = new ArrayList<>();

    /** Parses rejected records alone, so that the batch parser keeps its columns. */
    private ExampleBatchParser alone;

    private LenientBatchParser(ExampleBatchParser e, SequenceExampleBatchParser s) {
        this.examples = e;
        this.sequences = s;
    }

    /**
     * A parser for {@code spec}.
     *
     * @throws IllegalArgumentException with Python's text when TensorFlow rejects the spec
     */
    public static LenientBatchParser create(ParseSpec spec, ParseLimits limits) {
        Objects.requireNonNull(limits, "limits");
        if (spec instanceof FeatureSpecs f) {
            return new LenientBatchParser(ExampleBatchParser.create(f, limits), null);
        }
        if (spec instanceof SequenceFeatureSpecs s) {
            return new LenientBatchParser(null, SequenceExampleBatchParser.create(s, limits));
        }
        throw new IllegalArgumentException("unsupported spec " + spec);
    }

    /**
     * The columns of the last {@link #parse} or {@link #parseSubset} of {@code Example}s ({@link
     * ExampleBatchParser#rawColumns()}); null for SequenceExamples or when not available.
     */
    public RawColumns rawColumns() {
        return examples == null ? null : examples.rawColumns();
    }

    /** {@link ExampleBatchParser#trackRows()}, for {@link #rawColumns()}; no-op for sequences. */
    public void trackRows() {
        if (examples != null) {
            examples.trackRows();
        }
    }

    /** Whether records are SequenceExamples. */
    public boolean sequence() {
        return sequences != null;
    }

    /**
     * Parses {@code records}; returns a {@link ParsedBatch} or a {@link ParsedSequenceBatch} over
     * the accepted records and reports every other record to {@code rejected}.
     */
    public ParsedRows parse(SerializedRecords records, Consumer<ExampleParseException> rejected) {
        pending.clear();
        ParsedRows rows =
                examples != null
                        ? examples.parseLenient(records, pending::add)
                        : sequences.parseLenient(records, pending::add);
        // The parser is reused for the records alone only once the batch is done with it.
        for (ExampleParseException e : pending) {
            rejected.accept(alone(records, e));
        }
        pending.clear();
        return rows;
    }

    /**
     * Parses records {@code pick[0..n)} of {@code records} again as one batch, rows in that order:
     * for when a caller rejects some accepted rows for reasons of its own after the parse. Records
     * that fail now (they did not before) are reported to {@code rejected} as in {@link #parse}.
     */
    public ParsedRows parseSubset(
            SerializedRecords records,
            int[] pick,
            int n,
            Consumer<ExampleParseException> rejected) {
        return parse(RecordSubset.of(records, pick, n), rejected);
    }

    private ExampleParseException alone(SerializedRecords records, ExampleParseException e) {
        int i = e.recordIndex();
        if (i < 0) {
            return e;
        }
        try {
            SerializedRecords one = RecordSubset.single(records, i);
            if (examples != null) {
                if (alone == null) {
                    alone = ExampleBatchParser.create(examples.specs(), examples.limits());
                }
                alone.parse(one);
            } else {
                sequences.parse(one);
            }
            return e;
        } catch (ExampleParseException own) {
            return own instanceof ParseLimitException l
                    ? new ParseLimitException(i, own.featureKey(), l.setting(), own.getMessage())
                    : new ExampleParseException(own.kind(), i, own.featureKey(), own.getMessage());
        }
    }
}
