package io.tfstream.bench.sql;

import io.tfstream.bench.parse.ExampleProfile;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.VarLenFeature;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.sql.TfRecordRowFormat;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.RecordAndPosition;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
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
 * What {@code 'format' = 'tfrecord'} costs per row: the format reading one uncompressed file into
 * rows of every feature of the profile (parsed in batches with the profile's spec as {@code
 * tfrecord.schema-path}) against the same format handing out the records unparsed ({@code
 * tfrecord.record-format = raw}). One op = the whole file (16 384 records); rows/s = ops/s × 16
 * 384.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = "-Xmx2g")
@State(Scope.Thread)
public class SqlFormatReadBenchmark {
    static final int RECORDS = 16_384;

    @Param({"SEED001", "WIDE"})
    public ExampleProfile profile;

    Path dir;
    FileSourceSplit split;
    TfRecordRowFormat rows;
    TfRecordRowFormat raw;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("tfstream-bench-sql");
        Path file = dir.resolve("part.tfrecord");
        try (TfRecordWriter w = TfRecordFiles.newWriter(file, Compression.NONE)) {
            for (byte[] r : profile.records(RECORDS)) {
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
        Path spec = dir.resolve("SPEC.json");
        Files.writeString(spec, SpecJsonWriter.write(profile.spec()));
        RowType rowType = columns(profile.spec());
        rows =
                TfRecordRowFormat.rows(
                        rowType, spec.toString(), false, InternalTypeInfo.of(rowType));
        RowType record =
                (RowType)
                        DataTypes.ROW(DataTypes.FIELD("record", DataTypes.BYTES()))
                                .getLogicalType();
        raw = TfRecordRowFormat.rawRecords(InternalTypeInfo.of(record));
    }

    /** One column per feature the SQL mapping has a type for (SparseFeatures are left out). */
    static RowType columns(FeatureSpecs specs) {
        List<DataTypes.Field> fields = new ArrayList<>();
        for (Map.Entry<String, FeatureSpec> e : specs.features().entrySet()) {
            FeatureSpec f = e.getValue();
            DataType leaf;
            switch (f.dtype()) {
                case INT64:
                    leaf = DataTypes.BIGINT();
                    break;
                case FLOAT32:
                    leaf = DataTypes.FLOAT();
                    break;
                default:
                    leaf = DataTypes.BYTES();
            }
            if (f instanceof FixedLenFeature x && x.shape().isEmpty()) {
                fields.add(DataTypes.FIELD(e.getKey(), leaf));
            } else if ((f instanceof FixedLenFeature x && x.shape().size() == 1)
                    || f instanceof VarLenFeature
                    || (f instanceof RaggedFeature r && r.partitions().isEmpty())) {
                fields.add(DataTypes.FIELD(e.getKey(), DataTypes.ARRAY(leaf)));
            }
        }
        return (RowType) DataTypes.ROW(fields.toArray(new DataTypes.Field[0])).getLogicalType();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        try (var files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private static long drain(TfRecordRowFormat format, FileSourceSplit split, Blackhole bh)
            throws IOException {
        long n = 0;
        try (BulkFormat.Reader<RowData> reader = format.createReader(new Configuration(), split)) {
            BulkFormat.RecordIterator<RowData> batch;
            while ((batch = reader.readBatch()) != null) {
                RecordAndPosition<RowData> r;
                while ((r = batch.next()) != null) {
                    bh.consume(r.getRecord());
                    n++;
                }
                batch.releaseBatch();
            }
        }
        return n;
    }

    @Benchmark
    public long tfExampleRows(Blackhole bh) throws IOException {
        return drain(rows, split, bh);
    }

    @Benchmark
    public long rawRecords(Blackhole bh) throws IOException {
        return drain(raw, split, bh);
    }
}
