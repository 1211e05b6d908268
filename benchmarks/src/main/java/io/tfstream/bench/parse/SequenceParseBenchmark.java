package io.tfstream.bench.parse;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.RecordBatch;
import io.tfstream.parse.sequence.ParsedSequenceBatch;
import io.tfstream.parse.sequence.SequenceExampleBatchParser;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
import org.tensorflow.types.TString;

/**
 * One batch of serialized SequenceExamples ({@link SequenceProfile}) parsed side by side, as {@link
 * ExampleParseBenchmark} does for Examples: this project's parser, {@code ParseSequenceExampleV2},
 * protobuf-java, and a plain copy.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = "-Xmx2g")
@State(Scope.Thread)
public class SequenceParseBenchmark {
    @Param({"1", "128", "1024"})
    public int batch;

    List<byte[]> records;
    RecordBatch serialized;
    byte[] copyTarget;
    SequenceExampleBatchParser parser;
    ProtobufSequenceColumns protobuf;

    @Setup
    public void setUp() {
        records = SequenceProfile.records(batch);
        serialized = RecordBatch.of(records);
        copyTarget = new byte[(int) serialized.totalBytes()];
        parser = SequenceExampleBatchParser.create(SequenceProfile.spec(), ParseLimits.defaults());
        protobuf = new ProtobufSequenceColumns();
    }

    /** TensorFlow's session and input tensor, created only for the benchmark that uses them. */
    @State(Scope.Thread)
    public static class TensorFlow {
        TfSequenceParseGraph graph;
        TString input;

        @Setup(Level.Trial)
        public void setUp(SequenceParseBenchmark b) {
            graph = new TfSequenceParseGraph(SequenceProfile.spec());
            input = TfExampleParseGraph.batch(b.records);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            input.close();
            graph.close();
        }
    }

    @Benchmark
    public ParsedSequenceBatch tfstream(ByteCounter counter) throws ExampleParseException {
        counter.bytes += serialized.totalBytes();
        return parser.parse(serialized);
    }

    @Benchmark
    public void tensorflow(TensorFlow tf, ByteCounter counter) {
        counter.bytes += serialized.totalBytes();
        tf.graph.run(tf.input);
    }

    @Benchmark
    public long protobufJava(ByteCounter counter) throws Exception {
        counter.bytes += serialized.totalBytes();
        return protobuf.parse(records);
    }

    final WireWalk walk = new WireWalk();

    /** The physical limit: the framing walked and every byte touched once ({@link WireWalk}). */
    @Benchmark
    public long walk(ByteCounter counter) {
        counter.bytes += serialized.totalBytes();
        return walk.sequenceExamples(records);
    }

    @Benchmark
    public byte[] copy(ByteCounter counter) {
        byte[] dst = copyTarget;
        int at = 0;
        for (int i = 0; i < records.size(); i++) {
            byte[] r = records.get(i);
            System.arraycopy(r, 0, dst, at, r.length);
            at += r.length;
        }
        counter.bytes += at;
        return dst;
    }
}
