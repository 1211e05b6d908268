package io.tfstream.bench.operators;

import io.tfstream.api.model.DeadLetterGuard;
import io.tfstream.api.model.EventTimeSettings;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.bench.parse.ExampleProfile;
import io.tfstream.operators.parse.BatchParseOperator;
import io.tfstream.operators.parse.BatchTriggers;
import io.tfstream.operators.parse.ParseSettings;
import io.tfstream.operators.source.SourceRecordSerializer;
import io.tfstream.parse.ParseLimits;
import io.tfstream.shards.ShardEncoder;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.tfrecord.Compression;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
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
 * What writing shards adds per record to the job of part 1: one op is one batch of 1024 records
 * through the batch-and-parse operator (as in {@link BatchParseOperatorBenchmark}), either alone or
 * followed by the shard writer's encoder ({@link ShardEncoder}: TFRecord framing, both CRCs, and
 * compression at level 6, a segment ended per op as a checkpoint would) for every accepted record,
 * into a sink that discards the bytes (the CPU cost, not the disk's).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = "-Xmx2g")
@State(Scope.Thread)
public class ShardWriteBenchmark {
    @Param({"WIDE"})
    public ExampleProfile profile;

    @Param({"NONE", "GZIP"})
    public Compression compression;

    SourceRecord[] records;
    OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> harness;
    ShardEncoder writer;
    long discarded;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        List<byte[]> values = profile.records(1024);
        records = new SourceRecord[values.size()];
        for (int i = 0; i < records.length; i++) {
            records[i] = SourceRecord.of(values.get(i), "in", 0, i, i);
        }
        harness =
                new OneInputStreamOperatorTestHarness<>(
                        new BatchParseOperator(
                                new ParseSettings(
                                        SpecJsonWriter.write(profile.spec())
                                                .getBytes(StandardCharsets.UTF_8),
                                        "spec.json",
                                        false,
                                        ParseLimits.defaults(),
                                        new BatchTriggers(
                                                records.length, 1L << 40, Duration.ofHours(1)),
                                        EventTimeSettings.kafkaTimestamp(),
                                        DeadLetterGuard.off())),
                        SourceRecordSerializer.INSTANCE);
        harness.setup(SourceRecordSerializer.INSTANCE);
        harness.open();
        writer = ShardEncoder.start(compression, 6, (b, off, len) -> discarded += len);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        writer.finish();
        harness.close();
    }

    @Benchmark
    public int parseOnly() throws Exception {
        for (SourceRecord r : records) {
            harness.processElement(r, r.timestamp());
        }
        int n = harness.getOutput().size();
        harness.getOutput().clear();
        return n;
    }

    @Benchmark
    public int parseAndWriteShards() throws Exception {
        for (SourceRecord r : records) {
            harness.processElement(r, r.timestamp());
        }
        int n = 0;
        for (Object o : harness.getOutput()) {
            @SuppressWarnings("unchecked")
            StreamRecord<SourceRecord> s = (StreamRecord<SourceRecord>) o;
            byte[] v = s.getValue().value();
            writer.write(v, 0, v.length);
            n++;
        }
        writer.endSegment();
        harness.getOutput().clear();
        return n;
    }

    /** The shard writer alone over the same records: framing, CRCs, compression. */
    @Benchmark
    public int writeOnly() throws Exception {
        for (SourceRecord r : records) {
            byte[] v = r.value();
            writer.write(v, 0, v.length);
        }
        writer.endSegment();
        return records.length;
    }
}
