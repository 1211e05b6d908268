package io.tfstream.bench.operators;

import io.tfstream.api.model.SourceRecord;
import io.tfstream.bench.parse.ExampleProfile;
import io.tfstream.operators.parse.BatchParseOperator;
import io.tfstream.operators.parse.ParseSettings;
import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.RecordBatch;
import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.parse.example.ParsedBatch;
import io.tfstream.payload.TensorBatchCodec;
import io.tfstream.payload.TensorBatchWriter;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What tensor payloads cost: encoding one parsed batch of {@code batch} records into a serialized
 * {@code TensorBatch} ({@code encode}) against parsing it ({@code parse}), and the batch-and-parse
 * operator with payloads on ({@code operatorWithPayloads}: buffering, the one parse, records and
 * the payload emitted) against the same operator without ({@code operator}). One op = one batch.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = "-Xmx2g")
@State(Scope.Thread)
public class TensorBatchEncodeBenchmark {
    @Param({"SEED001", "WIDE"})
    public ExampleProfile profile;

    @Param({"1024"})
    public int batch;

    List<byte[]> records;
    SourceRecord[] sourceRecords;
    ExampleBatchParser parser;
    RecordBatch gathered;
    ParsedBatch parsed;
    OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> plain;
    OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> withPayloads;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        records = profile.records(batch);
        sourceRecords = OperatorBench.sourceRecords(records);
        parser = ExampleBatchParser.create(profile.spec(), ParseLimits.defaults());
        gathered = new RecordBatch(batch, 1 << 20);
        for (byte[] r : records) {
            gathered.add(r, 0, r.length);
        }
        parsed = parser.parse(gathered);
        ParseSettings settings = OperatorBench.settings(profile, batch);
        plain = OperatorBench.harness(settings);
        withPayloads = OperatorBench.harness(settings.withTensorBatches("fp", 64 << 20));
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        plain.close();
        withPayloads.close();
    }

    /** The parse of the batch (records already gathered). */
    @Benchmark
    public ParsedBatch parse() throws ExampleParseException {
        return parser.parse(gathered);
    }

    /** Encoding the parsed batch into the serialized payload. */
    @Benchmark
    public byte[] encode() {
        return TensorBatchCodec.encode(parsed).build().toByteArray();
    }

    /** The same bytes written straight from the columns ({@link TensorBatchWriter}). */
    @Benchmark
    public byte[] encodeDirect() {
        return TensorBatchWriter.write(parsed);
    }

    /** The operator without payloads: buffer, parse, emit every record. */
    @Benchmark
    public int operator() throws Exception {
        return run(plain);
    }

    /** The operator with payloads: as {@link #operator} plus the encoded payload. */
    @Benchmark
    public int operatorWithPayloads() throws Exception {
        int n = run(withPayloads);
        withPayloads.getSideOutput(BatchParseOperator.TENSOR_BATCHES).clear();
        return n;
    }

    private int run(OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h)
            throws Exception {
        return OperatorBench.run(h, sourceRecords);
    }
}
