package io.tfstream.bench.operators;

import io.tfstream.api.model.SourceRecord;
import io.tfstream.bench.parse.ExampleProfile;
import io.tfstream.operators.parse.BatchParseOperator;
import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.RecordBatch;
import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.parse.example.ParsedBatch;
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
 * The batch-and-parse operator against the bare parser on the same batches: one op is one batch of
 * {@code batch} records, either handed to {@link BatchParseOperator} record by record in Flink's
 * operator test harness (buffering, lenient parse, emitting every accepted record) or gathered into
 * a {@link RecordBatch} and parsed with {@link ExampleBatchParser#parse}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = "-Xmx2g")
@State(Scope.Thread)
public class BatchParseOperatorBenchmark {
    @Param({"SEED001", "WIDE"})
    public ExampleProfile profile;

    @Param({"1024"})
    public int batch;

    List<byte[]> records;
    SourceRecord[] sourceRecords;
    ExampleBatchParser parser;
    RecordBatch gathered;
    OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> harness;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        records = profile.records(batch);
        sourceRecords = OperatorBench.sourceRecords(records);
        parser = ExampleBatchParser.create(profile.spec(), ParseLimits.defaults());
        gathered = new RecordBatch(batch, 1 << 20);
        harness = OperatorBench.harness(OperatorBench.settings(profile, batch));
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        harness.close();
    }

    /** The operator: buffer each record, parse the batch on the last, emit every record. */
    @Benchmark
    public int operator() throws Exception {
        return OperatorBench.run(harness, sourceRecords);
    }

    /** The bare parser over the same records, gathered into one batch as the operator does. */
    @Benchmark
    public ParsedBatch parser() throws ExampleParseException {
        RecordBatch b = gathered;
        b.clear();
        for (int i = 0; i < records.size(); i++) {
            byte[] r = records.get(i);
            b.add(r, 0, r.length);
        }
        return parser.parse(b);
    }
}
