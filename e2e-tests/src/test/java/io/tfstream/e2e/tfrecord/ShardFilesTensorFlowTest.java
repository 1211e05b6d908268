package io.tfstream.e2e.tfrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tfstream.operators.shards.TfRecordBulkWriter;
import io.tfstream.operators.shards.TfRecordShardSink;
import io.tfstream.operators.source.SourceRecord;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.tfrecord.Compression;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.connector.file.sink.compactor.OutputStreamBasedFileCompactor;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * TensorFlow's own TFRecord reader ({@code TFRecordReaderV2}) reads the shard sink's files of every
 * compression: part files as the bulk writer leaves them, and compacted shards laid out as FileSink
 * compaction lays them out (the compacted file opened through the writer factory, then the
 * compactor's bytes: concatenated parts, several gzip members, or one recompressed zlib stream).
 */
class ShardFilesTensorFlowTest {
    @TempDir Path dir;

    private static org.apache.flink.core.fs.Path flink(Path p) {
        return new org.apache.flink.core.fs.Path(p.toUri());
    }

    private Path part(String name, Compression c, List<byte[]> records) throws Exception {
        Path file = dir.resolve(name);
        try (FSDataOutputStream out =
                flink(file).getFileSystem().create(flink(file), FileSystem.WriteMode.OVERWRITE)) {
            BulkWriter<SourceRecord> w = new TfRecordBulkWriter.Factory(c).create(out);
            for (byte[] r : records) {
                w.addElement(SourceRecord.of(r, "t", 0, 0, 0));
            }
            w.finish();
        }
        return file;
    }

    private static void assertTensorFlowReads(List<byte[]> expected, Path file, Compression c) {
        TensorFlowRecordIo.ReadResult r = TensorFlowRecordIo.read(file, c);
        assertNull(r.error(), "TensorFlow's reader on " + file);
        assertEquals(expected.size(), r.records().size(), file.toString());
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), r.records().get(i), "record " + i + " of " + file);
        }
    }

    @ParameterizedTest
    @EnumSource(Compression.class)
    void tensorFlowReadsPartsAndCompactedShards(Compression c) throws Exception {
        List<byte[]> all = Seed001Corpus.records(3000, 9);
        List<List<byte[]>> parts =
                List.of(all.subList(0, 1000), all.subList(1000, 1001), all.subList(1001, 3000));
        List<org.apache.flink.core.fs.Path> inputs = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            Path p = part("part-" + i, c, parts.get(i));
            assertTensorFlowReads(parts.get(i), p, c);
            inputs.add(flink(p));
        }
        Path shard = dir.resolve("compacted-part-0");
        try (FSDataOutputStream out =
                flink(shard).getFileSystem().create(flink(shard), FileSystem.WriteMode.OVERWRITE)) {
            // FileSink opens the compacted file through the bulk writer factory, lets the compactor
            // write into its stream, and finishes the (record-less) writer at commit.
            BulkWriter<SourceRecord> opened = new TfRecordBulkWriter.Factory(c).create(out);
            OutputStream shield =
                    new java.io.FilterOutputStream(out) {
                        @Override
                        public void close() {}
                    };
            ((OutputStreamBasedFileCompactor) TfRecordShardSink.compactor(c))
                    .compact(inputs, shield);
            opened.finish();
        }
        assertTensorFlowReads(all, shard, c);
    }
}
