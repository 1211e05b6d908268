package io.tfstream.operators.shards;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tfstream.operators.source.SourceRecord;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.connector.file.sink.compactor.OutputStreamBasedFileCompactor;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Part files written by {@link TfRecordBulkWriter} through Flink's file system, and compacted as
 * {@link ShardSinks} compacts them, read back with the TFRecord reader: every record, in order.
 */
class ShardFilesTest {
    @TempDir Path dir;

    private static List<byte[]> records(int n, long seed) {
        Random r = new Random(seed);
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] b = new byte[r.nextInt(300)];
            r.nextBytes(b);
            out.add(b);
        }
        return out;
    }

    private Path part(String name, Compression c, List<byte[]> records) throws Exception {
        Path file = dir.resolve(name);
        org.apache.flink.core.fs.Path p = new org.apache.flink.core.fs.Path(file.toUri());
        try (FSDataOutputStream out = p.getFileSystem().create(p, FileSystem.WriteMode.OVERWRITE)) {
            BulkWriter<SourceRecord> w = new TfRecordBulkWriter.Factory(c).create(out);
            for (byte[] r : records) {
                w.addElement(SourceRecord.of(r, "t", 0, 0, 0));
            }
            w.flush();
            w.finish();
        }
        return file;
    }

    private static List<byte[]> read(Path file) throws Exception {
        List<byte[]> out = new ArrayList<>();
        try (TfRecordReader r = TfRecordFiles.openReader(file, TfRecordReadOptions.defaults())) {
            while (r.next()) {
                out.add(r.copy());
            }
        }
        return out;
    }

    private static void assertRecords(List<byte[]> expected, List<byte[]> actual) {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), actual.get(i), "record " + i);
        }
    }

    @ParameterizedTest
    @EnumSource(Compression.class)
    void partsAndCompactedShardsHoldEveryRecordInOrder(Compression c) throws Exception {
        String suffix =
                c == Compression.NONE
                        ? ".tfrecord"
                        : c == Compression.GZIP ? ".tfrecord.gz" : ".tfrecord.zz";
        List<byte[]> a = records(500, 1);
        // FileSink opens a part file with its first record: parts are never empty.
        List<byte[]> b = records(1, 2);
        List<byte[]> d = records(700, 3);
        Path pa = part("a" + suffix, c, a);
        Path pb = part("b" + suffix, c, b);
        Path pd = part("d" + suffix, c, d);
        assertRecords(a, read(pa));
        assertRecords(b, read(pb));
        Path shard = dir.resolve("shard" + suffix);
        OutputStreamBasedFileCompactor compactor =
                (OutputStreamBasedFileCompactor) TfRecordShardSink.compactor(c);
        try (OutputStream out = Files.newOutputStream(shard)) {
            compactor.compact(List.of(flink(pa), flink(pb), flink(pd)), out);
        }
        List<byte[]> all = new ArrayList<>(a);
        all.addAll(b);
        all.addAll(d);
        assertRecords(all, read(shard));
    }

    /**
     * Regression: FileSink compaction opens the compacted file through the bulk writer factory and
     * then writes the compacted bytes itself; a writer that got no record must write nothing, or a
     * gzip header stood before the first part (seen as "invalid block type" on reading).
     */
    @ParameterizedTest
    @EnumSource(Compression.class)
    void aWriterWithoutRecordsWritesNothing(Compression c) throws Exception {
        Path file = dir.resolve("empty");
        org.apache.flink.core.fs.Path p = flink(file);
        try (FSDataOutputStream out = p.getFileSystem().create(p, FileSystem.WriteMode.OVERWRITE)) {
            BulkWriter<SourceRecord> w = new TfRecordBulkWriter.Factory(c).create(out);
            w.flush();
            w.finish();
        }
        assertEquals(0, Files.size(file));
    }

    private static org.apache.flink.core.fs.Path flink(Path p) {
        return new org.apache.flink.core.fs.Path(p.toUri());
    }
}
