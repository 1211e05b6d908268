package io.tfstream.bench;

import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordWriter;
import java.io.IOException;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.TFRecordIO;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.util.MimeTypes;
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
 * Writes one file of {@link RecordCorpus#DATA_BYTES} of records per operation: with tfstream's
 * {@link TfRecordWriter} and with Beam's public {@code TFRecordIO.sink()} over the channel Beam's
 * own {@code FileSystems.create} gives for a local file. Compare with {@link
 * RawFileChannelBenchmark#write}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class TfRecordWriteBenchmark {
    @Param({"100", "1024"})
    public int recordSize;

    @Param({"NONE", "GZIP"})
    public Compression compression;

    private byte[][] records;
    private Path dir;
    private Path file;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        records = new RecordCorpus(recordSize).records();
        dir = Files.createTempDirectory("tfrecord-write-bench");
        file = dir.resolve("out.tfrecord");
        FileSystems.setDefaultPipelineOptions(PipelineOptionsFactory.create());
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        Files.deleteIfExists(file);
        Files.deleteIfExists(dir);
    }

    @Benchmark
    public long tfstream() throws IOException {
        try (TfRecordWriter w = TfRecordFiles.newWriter(file, compression)) {
            for (byte[] r : records) {
                w.write(r);
            }
            return w.bytesWritten();
        }
    }

    @Benchmark
    public long beamTfRecordIoSink() throws IOException {
        WritableByteChannel channel =
                FileSystems.create(
                        FileSystems.matchNewResource(file.toString(), false), MimeTypes.BINARY);
        if (compression == Compression.GZIP) {
            channel = org.apache.beam.sdk.io.Compression.GZIP.writeCompressed(channel);
        }
        try (WritableByteChannel ch = channel) {
            TFRecordIO.Sink sink = TFRecordIO.sink();
            sink.open(ch);
            for (byte[] r : records) {
                sink.write(r);
            }
            sink.flush();
        }
        return records.length;
    }
}
