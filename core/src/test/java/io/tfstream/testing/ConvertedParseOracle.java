package io.tfstream.testing;

import io.tfstream.convert.ConversionException;
import io.tfstream.convert.ConvertFeatures;
import io.tfstream.convert.ConvertOptions;
import io.tfstream.convert.ConverterDecoder;
import io.tfstream.convert.ExampleConverter;
import io.tfstream.convert.ExampleConverters;
import io.tfstream.convert.InputFormat;
import io.tfstream.parse.ConvertedExamples;
import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.InputRejectedException;
import io.tfstream.parse.LenientBatchParser;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.SerializedRecords;
import io.tfstream.parse.example.ParsedBatch;
import io.tfstream.parse.example.RawColumns;
import io.tfstream.spec.FeatureSpecs;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The oracle of JSON and Avro decoded straight into the parser's columns: the same batch parsed
 * that way and by converting each record to its Example and parsing those must give the same
 * rejected records (kinds and messages, conversion errors included), rows, tensors, row states,
 * ignored field counts and Example bytes. The parsers are kept across batches, as in a job.
 */
public final class ConvertedParseOracle {
    /** What one batch held: accepted rows, records that did not convert, parse rejections. */
    public record Counts(int rows, int conversionErrors, int parseRejections) {}

    private final ConvertFeatures features;
    private final ExampleConverter converter;
    private final LenientBatchParser viaExamples;
    private final LenientBatchParser direct;

    /** With {@code keep}, Examples are written while the batch is parsed. */
    public ConvertedParseOracle(
            InputFormat format,
            FeatureSpecs spec,
            ParseLimits limits,
            boolean keep,
            ConvertOptions options,
            String avroSchemaJson) {
        this.features = ConvertFeatures.of(spec);
        this.converter = ExampleConverters.create(format, features, options, avroSchemaJson);
        this.viaExamples = LenientBatchParser.create(spec, limits);
        viaExamples.trackRows();
        this.direct =
                LenientBatchParser.create(
                        spec,
                        limits,
                        ConverterDecoder.create(format, features, options, avroSchemaJson));
        direct.trackRows();
        direct.keepExamples(keep);
    }

    /**
     * Parses {@code records} both ways.
     *
     * @throws AssertionError naming the first difference
     */
    public Counts compare(List<byte[]> records) {
        List<String> expected = new ArrayList<>();
        List<byte[]> examples = new ArrayList<>();
        List<Integer> exampleOf = new ArrayList<>();
        long ignored = 0;
        int conversionErrors = 0;
        for (int i = 0; i < records.size(); i++) {
            byte[] in = records.get(i);
            try {
                examples.add(converter.convert(in, 0, in.length));
                exampleOf.add(i);
                ignored += converter.ignoredFields();
            } catch (ConversionException e) {
                expected.add(i + " conversion " + e.getMessage());
                conversionErrors++;
            }
        }
        List<ExampleParseException> parseRejected = new ArrayList<>();
        ParsedBatch want =
                (ParsedBatch) viaExamples.parse(SerializedRecords.of(examples), parseRejected::add);
        for (ExampleParseException e : parseRejected) {
            expected.add(describe(exampleOf.get(e.recordIndex()), e));
        }
        List<ExampleParseException> rejected = new ArrayList<>();
        ParsedBatch got = (ParsedBatch) direct.parse(SerializedRecords.of(records), rejected::add);
        List<String> actual = new ArrayList<>();
        for (ExampleParseException e : rejected) {
            actual.add(
                    e instanceof InputRejectedException
                            ? e.recordIndex() + " conversion " + e.getMessage()
                            : describe(e.recordIndex(), e));
        }
        expected.sort(ConvertedParseOracle::byIndex);
        actual.sort(ConvertedParseOracle::byIndex);
        check(expected.equals(actual), "rejections " + expected + " != " + actual);
        check(want.rows() == got.rows(), "rows " + want.rows() + " != " + got.rows());
        for (int r = 0; r < got.rows(); r++) {
            check(exampleOf.get(want.recordIndex(r)) == got.recordIndex(r), "row " + r + " moved");
        }
        check(want.features().equals(got.features()), "tensors differ");
        check(ignored == direct.ignoredFields(), "ignored fields " + direct.ignoredFields());
        sameRowStates(viaExamples.rawColumns(), direct.rawColumns());
        ConvertedExamples written = direct.convertedExamples();
        for (int k = 0; k < examples.size(); k++) {
            check(
                    Arrays.equals(examples.get(k), written.example(exampleOf.get(k))),
                    "the Example of record " + exampleOf.get(k) + " differs");
        }
        return new Counts(got.rows(), conversionErrors, parseRejected.size());
    }

    private void sameRowStates(RawColumns want, RawColumns got) {
        if (want == null) {
            return; // the batch went through its one-by-one retry: no columns to compare
        }
        check(got != null && got.rows() == want.rows(), "no row states");
        for (int s = 0; s < features.size(); s++) {
            int cw = want.column(features.name(s));
            int cg = got.column(features.name(s));
            for (int r = 0; r < want.rows(); r++) {
                check(
                        want.state(cw, r) == got.state(cg, r)
                                && want.from(cw, r) == got.from(cg, r)
                                && want.to(cw, r) == got.to(cg, r),
                        "row " + r + " of " + features.name(s));
            }
        }
        for (int r = 0; r < want.rows(); r++) {
            check(
                    want.irregular(r) == got.irregular(r)
                            && want.unrequested(r) == got.unrequested(r),
                    "row " + r + " flags");
        }
    }

    private static String describe(int index, ExampleParseException e) {
        return index + " " + e.kind() + " " + e.getClass().getSimpleName() + " " + e.getMessage();
    }

    private static int byIndex(String a, String b) {
        int ia = Integer.parseInt(a.substring(0, a.indexOf(' ')));
        int ib = Integer.parseInt(b.substring(0, b.indexOf(' ')));
        return ia != ib ? Integer.compare(ia, ib) : a.compareTo(b);
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }
}
