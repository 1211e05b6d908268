package io.tfstream.parse;

import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.parse.example.ParsedBatch;
import io.tfstream.parse.example.RawColumns;
import io.tfstream.parse.sequence.ParsedSequenceBatch;
import io.tfstream.parse.sequence.SequenceExampleBatchParser;
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

    /** Records are JSON or Avro read through this decoder, or null for serialized Examples. */
    private final RecordDecoder decoder;

    /** Parses rejected records alone, so that the batch parser keeps its columns. */
    private ExampleBatchParser alone;

    private LenientBatchParser(
            ExampleBatchParser e, SequenceExampleBatchParser s, RecordDecoder decoder) {
        this.examples = e;
        this.sequences = s;
        this.decoder = decoder;
    }

    /**
     * A parser for {@code spec}.
     *
     * @throws IllegalArgumentException with Python's text when TensorFlow rejects the spec
     */
    public static LenientBatchParser create(ParseSpec spec, ParseLimits limits) {
        Objects.requireNonNull(limits, "limits");
        if (spec instanceof FeatureSpecs f) {
            return new LenientBatchParser(ExampleBatchParser.create(f, limits), null, null);
        }
        if (spec instanceof SequenceFeatureSpecs s) {
            return new LenientBatchParser(null, SequenceExampleBatchParser.create(s, limits), null);
        }
        throw new IllegalArgumentException("unsupported spec " + spec);
    }

    /**
     * A parser of records that {@code decoder} converts to {@code spec}'s Examples ({@link
     * ExampleBatchParser#parseLenient(SerializedRecords, RecordDecoder, Consumer)}); a record that
     * does not convert is rejected with an {@link InputRejectedException}.
     *
     * @throws IllegalArgumentException when the spec is not an Example spec, or the decoder's
     *     features are not its keys
     */
    public static LenientBatchParser create(
            ParseSpec spec, ParseLimits limits, RecordDecoder decoder) {
        Objects.requireNonNull(decoder, "decoder");
        if (!(spec instanceof FeatureSpecs f)) {
            throw new IllegalArgumentException("converted records are Examples, not " + spec);
        }
        ExampleBatchParser p =
                ExampleBatchParser.create(f, Objects.requireNonNull(limits, "limits"));
        p.parseLenient(RecordBatch.of(List.of()), decoder, e -> {}); // checks the features
        return new LenientBatchParser(p, null, decoder);
    }

    /**
     * The Examples of the records of the last {@link #parse} or {@link #parseSubset}, for a parser
     * of converted records; null otherwise.
     */
    public ConvertedExamples convertedExamples() {
        return decoder == null ? null : examples.lastExamples();
    }

    /** {@link ExampleBatchParser#keepExamples}, for a parser of converted records. */
    public void keepExamples(boolean keep) {
        if (examples != null) {
            examples.keepExamples(keep);
        }
    }

    /** Input fields the converted records of the last parse ignored (0 for Examples). */
    public long ignoredFields() {
        return decoder == null ? 0 : examples.ignoredFields();
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
                decoder != null
                        ? examples.parseLenient(records, decoder, pending::add)
                        : examples != null
                                ? examples.parseLenient(records, pending::add)
                                : sequences.parseLenient(records, pending::add);
        // The parser is reused for the records alone only once the batch is done with it.
        SerializedRecords parsed = decoder != null ? examples.lastExamples() : records;
        for (ExampleParseException e : pending) {
            rejected.accept(e instanceof InputRejectedException ? e : alone(parsed, e));
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
