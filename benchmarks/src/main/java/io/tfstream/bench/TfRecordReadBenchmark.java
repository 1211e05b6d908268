package io.tfstream.bench;

import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import io.tfstream.tfrecord.TfRecordWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Reads one file of {@link RecordCorpus#DATA_BYTES} of records per operation with tfstream's {@link
 * TfRecordReader} (compression auto-detected, both CRCs checked, records viewed in place). Compare
 * with {@link RawFileChannelBenchmark#read}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class TfRecordReadBenchmark {
    @Param({"100", "1024"})
    public int recordSize;

    @Param({"NONE", "GZIP"})
    public Compression compression;

    private Path dir;
    private Path file;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("tfrecord-read-bench");
        file = dir.resolve("in.tfrecord");
        try (TfRecordWriter w = TfRecordFiles.newWriter(file, compression)) {
            for (byte[] r : new RecordCorpus(recordSize).records()) {
                w.write(r);
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        Files.deleteIfExists(file);
        Files.deleteIfExists(dir);
    }

    @Benchmark
    public long tfstream() throws IOException {
        long total = 0;
        try (TfRecordReader r = TfRecordFiles.openReader(file, TfRecordReadOptions.defaults())) {
            while (r.next()) {
                total += r.length() + r.buffer()[r.offset()];
            }
        }
        return total;
    }
}
