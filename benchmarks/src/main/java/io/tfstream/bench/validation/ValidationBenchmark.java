package io.tfstream.bench.validation;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.RecordBatch;
import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.parse.example.ParsedBatch;
import io.tfstream.stats.ExampleStatistics;
import io.tfstream.stats.StatsOptions;
import io.tfstream.testing.WideProfileCorpus;
import io.tfstream.validation.BatchValidator;
import io.tfstream.validation.RecordRef;
import io.tfstream.validation.RecordResult;
import io.tfstream.validation.RecordValidator;
import io.tfstream.validation.ValidationOptions;
import io.tfstream.validation.ValidationSchema;
import io.tfstream.validation.WindowAccumulator;
import io.tfstream.validation.WindowAccumulatorSerializer;
import io.tfstream.validation.WindowEvaluator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What validation adds to the streaming job's parse, per batch of the wide profile ({@link
 * WideValidationProfile}, a domain on every feature): {@code parse} is the job's batch parser
 * ({@link ExampleBatchParser} into columns), {@code validate} is {@link RecordValidator} plus
 * {@link WindowAccumulator#add} per record (from the records' bytes, as {@code tfstream validate}
 * does), {@code parseAndValidate} both, and {@code parseAndValidateColumns} the job's way: the
 * parse keeping row states ({@link ExampleBatchParser#trackRows()}), then {@link BatchValidator}
 * over the parser's columns (same findings and window state); {@code parse} is without row states,
 * as the job parses with validation off. One op = one batch; average time per op. The window
 * accumulator is fresh each iteration (one window per iteration). Allocation per record: {@code
 * -prof gc}, {@code gc.alloc.rate.norm} / batch.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
@State(Scope.Thread)
public class ValidationBenchmark {
    @Param({"1024"})
    public int batch;

    RecordBatch serialized;
    ExampleBatchParser parser;
    ExampleBatchParser trackingParser;
    ValidationSchema schema;
    RecordValidator validator;
    RecordResult result;
    RecordRef ref;
    WindowAccumulator window;
    BatchValidator columns;
    BatchValidator.Rows rows;

    List<byte[]> records;
    BatchValidator statsColumns;
    BatchValidator.Rows statsRows;
    WindowAccumulatorSerializer statsSerializer;
    ValidationSchema statsSchema;
    WindowAccumulator statsWindow;
    WindowAccumulator partial;
    ExampleStatistics bucket;

    @Setup(Level.Trial)
    public void setUp() {
        records = WideValidationProfile.records(batch);
        serialized = RecordBatch.of(records);
        parser = ExampleBatchParser.create(WideProfileCorpus.spec());
        // The job's parser keeps row states only when validation is on.
        trackingParser = ExampleBatchParser.create(WideProfileCorpus.spec());
        trackingParser.trackRows();
        schema =
                ValidationSchema.build(
                        WideValidationProfile.schema(), ValidationOptions.defaults());
        validator = new RecordValidator(schema);
        result = new RecordResult();
        ref = new RecordRef();
        columns = new BatchValidator(schema, false);
        rows = rowsInto(() -> window, schema);
        statsSchema =
                ValidationSchema.build(
                        WideValidationProfile.schema(),
                        ValidationOptions.defaults().withStatistics(StatsOptions.DEFAULTS));
        statsColumns = new BatchValidator(statsSchema, false);
        statsSerializer = new WindowAccumulatorSerializer(statsSchema);
        statsRows = rowsInto(() -> partial, statsSchema);
        checkClean();
    }

    /** Every row into the accumulator {@code window} gives at the time; no row may be anomalous. */
    private static BatchValidator.Rows rowsInto(
            Supplier<WindowAccumulator> window, ValidationSchema schema) {
        return new BatchValidator.Rows() {
            @Override
            public WindowAccumulator window(int row) {
                return window.get();
            }

            @Override
            public void ref(int row, RecordRef r) {
                r.set("bench", 0, row, row);
            }

            @Override
            public void anomalous(int row, RecordResult r) {
                throw new IllegalStateException("row " + row + ": " + r.findings(schema));
            }
        };
    }

    @Setup(Level.Iteration)
    public void newWindow() {
        window = new WindowAccumulator(schema);
        statsWindow = new WindowAccumulator(statsSchema);
        bucket =
                ExampleStatistics.lenient(
                        StatsOptions.DEFAULTS.withSketchTopValues(true), null, Map.of());
    }

    /** The corpus must pass the schema: a benchmark of the clean path, not of anomaly roll-ups. */
    private void checkClean() {
        WindowAccumulator w = new WindowAccumulator(schema);
        for (int i = 0; i < serialized.size(); i++) {
            validator.validateExample(
                    serialized.buffer(i), serialized.offset(i), serialized.length(i), result);
            if (result.status() != RecordResult.Status.OK || result.count() != 0) {
                throw new IllegalStateException(
                        "record " + i + ": " + result.status() + " " + result.findings(schema));
            }
            w.add(validator, result, ref.set("bench", 0, i, i));
        }
        if (!WindowEvaluator.evaluate(w).isEmpty()) {
            throw new IllegalStateException("window findings: " + WindowEvaluator.evaluate(w));
        }
        // The columns path must decide every row from the columns (none read again).
        window = new WindowAccumulator(schema);
        try {
            parseAndValidateColumns();
        } catch (ExampleParseException e) {
            throw new IllegalStateException(e);
        }
        if (columns.rowsFromBytes() != 0 || columns.rowsFromColumns() != serialized.size()) {
            throw new IllegalStateException(
                    "columns path read "
                            + columns.rowsFromBytes()
                            + " rows again, "
                            + columns.rowsFromColumns()
                            + " from columns");
        }
    }

    @Benchmark
    public ParsedBatch parse() throws ExampleParseException {
        return parser.parse(serialized);
    }

    @Benchmark
    public long validate() {
        return validateBatch();
    }

    @Benchmark
    public ParsedBatch parseAndValidate() throws ExampleParseException {
        ParsedBatch parsed = parser.parse(serialized);
        validateBatch();
        return parsed;
    }

    @Benchmark
    public ParsedBatch parseAndValidateColumns() throws ExampleParseException {
        ParsedBatch parsed = trackingParser.parse(serialized);
        columns.validate(trackingParser.rawColumns(), serialized, r -> r, parsed.rows(), rows);
        return parsed;
    }

    /**
     * The job's window statistics: parse and validate from the columns into a batch's partial with
     * statistics, written and read back as the parse operator sends it, merged into the window.
     */
    @Benchmark
    public WindowAccumulator parseAndValidateColumnsWithStatistics() throws Exception {
        ParsedBatch parsed = trackingParser.parse(serialized);
        partial = new WindowAccumulator(statsSchema);
        statsColumns.validate(
                trackingParser.rawColumns(), serialized, r -> r, parsed.rows(), statsRows);
        byte[] bytes = statsSerializer.serialize(partial);
        statsWindow.merge(statsSerializer.deserialize(statsSerializer.getVersion(), bytes));
        return statsWindow;
    }

    /** A shard bucket's statistics: each record added from its bytes to the open shard's. */
    @Benchmark
    public ExampleStatistics bucketStatistics() throws Exception {
        for (byte[] r : records) {
            bucket.addSerialized(r);
        }
        return bucket;
    }

    private long validateBatch() {
        RecordBatch b = serialized;
        for (int i = 0; i < b.size(); i++) {
            validator.validateExample(b.buffer(i), b.offset(i), b.length(i), result);
            window.add(validator, result, ref.set("bench", 0, i, i));
        }
        return window.numExamples();
    }
}
