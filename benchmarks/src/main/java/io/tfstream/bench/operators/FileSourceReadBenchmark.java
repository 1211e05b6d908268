package io.tfstream.bench.operators;

import io.tfstream.api.model.OnCorruption;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.bench.parse.ExampleProfile;
import io.tfstream.operators.files.TfRecordFileFormat;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import io.tfstream.tfrecord.TfRecordWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.RecordAndPosition;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * The TFRecord file source's format ({@link TfRecordFileFormat}: open the split, read every record
 * into a {@link SourceRecord} with its file and offset, hand them out in batches with positions)
 * against the {@code core/} reader alone over the same uncompressed file (every record copied out,
 * as a consumer of the reader needs). One op = the whole file (16 384 records).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = "-Xmx2g")
@State(Scope.Thread)
public class FileSourceReadBenchmark {
    @Param({"SEED001", "WIDE"})
    public ExampleProfile profile;

    Path dir;
    Path file;
    FileSourceSplit split;
    TfRecordFileFormat format;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("tfstream-bench-files");
        file = dir.resolve("shard.tfrecord");
        List<byte[]> records = profile.records(16_384);
        try (TfRecordWriter w = TfRecordFiles.newWriter(file, Compression.NONE)) {
            for (byte[] r : records) {
                w.write(r);
            }
        }
        long size = Files.size(file);
        split =
                new FileSourceSplit(
                        "0",
                        new org.apache.flink.core.fs.Path(file.toUri()),
                        0,
                        size,
                        Files.getLastModifiedTime(file).toMillis(),
                        size);
        format =
                new TfRecordFileFormat(
                        OnCorruption.DEAD_LETTER,
                        TfRecordReadOptions.DEFAULT_MAX_RECORD_LENGTH,
                        64 << 10);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        Files.deleteIfExists(file);
        Files.deleteIfExists(dir);
    }

    /** The core reader alone, each record copied out. */
    @Benchmark
    public long reader(Blackhole bh) throws IOException {
        long n = 0;
        try (TfRecordReader r = TfRecordFiles.openReader(file, TfRecordReadOptions.defaults())) {
            while (r.next()) {
                bh.consume(r.copy());
                n++;
            }
        }
        return n;
    }

    /** The file source's format: SourceRecords in batches with positions. */
    @Benchmark
    public long fileSource(Blackhole bh) throws IOException {
        long n = 0;
        try (BulkFormat.Reader<SourceRecord> r = format.createReader(new Configuration(), split)) {
            for (BulkFormat.RecordIterator<SourceRecord> batch = r.readBatch();
                    batch != null;
                    batch = r.readBatch()) {
                for (RecordAndPosition<SourceRecord> rec = batch.next();
                        rec != null;
                        rec = batch.next()) {
                    bh.consume(rec.getRecord());
                    n++;
                }
                batch.releaseBatch();
            }
        }
        return n;
    }
}
