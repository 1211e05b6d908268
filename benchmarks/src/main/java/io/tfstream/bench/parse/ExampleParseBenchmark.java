package io.tfstream.bench.parse;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.RecordBatch;
import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.parse.example.ParsedBatch;
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
 * One batch of serialized Examples parsed into columns, side by side: this project's parser,
 * TensorFlow's {@code ParseExampleV2} kernel, protobuf-java {@code Example.parseFrom} plus building
 * the same arrays, and a plain copy of the same bytes. One op = one batch; the {@code bytes}
 * secondary result is input bytes per second.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = "-Xmx2g")
@State(Scope.Thread)
public class ExampleParseBenchmark {
    @Param({"SEED001", "WIDE", "ALL_200", "PROJECT_4_OF_200"})
    public ExampleProfile profile;

    @Param({"1", "128", "1024"})
    public int batch;

    List<byte[]> records;
    RecordBatch serialized;
    byte[] copyTarget;
    ExampleBatchParser parser;
    ProtobufExampleColumns protobuf;

    @Setup
    public void setUp() {
        records = profile.records(batch);
        serialized = RecordBatch.of(records);
        copyTarget = new byte[(int) serialized.totalBytes()];
        parser = ExampleBatchParser.create(profile.spec());
        protobuf = new ProtobufExampleColumns(profile.spec());
    }

    /** TensorFlow's session and input tensor, created only for the benchmark that uses them. */
    @State(Scope.Thread)
    public static class TensorFlow {
        TfExampleParseGraph graph;
        TString input;

        @Setup(Level.Trial)
        public void setUp(ExampleParseBenchmark b) {
            graph = new TfExampleParseGraph(b.profile.spec());
            input = TfExampleParseGraph.batch(b.records);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            input.close();
            graph.close();
        }
    }

    @Benchmark
    public ParsedBatch tfstream(ByteCounter counter) throws ExampleParseException {
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
        return walk.examples(records);
    }

    /** Copies every record into one array: the memory traffic floor of touching the input. */
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
