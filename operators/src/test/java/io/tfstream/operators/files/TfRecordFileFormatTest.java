package io.tfstream.operators.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.model.OnCorruption;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.apache.flink.connector.file.src.util.RecordAndPosition;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TfRecordFileFormat}: every item of a file with its offset; and restored from the position
 * checkpointed after any item, the reader hands out exactly the items after it — for every
 * compression, across batch boundaries, and across damaged regions.
 */
class TfRecordFileFormatTest {
    @TempDir Path dir;

    private record Item(SourceRecord record, CheckpointedPosition after) {}

    private static List<byte[]> records(int n, long seed) {
        Random rnd = new Random(seed);
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] b = new byte[rnd.nextInt(300)];
            rnd.nextBytes(b);
            out.add(b);
        }
        return out;
    }

    private Path write(String name, List<byte[]> records, Compression c) throws Exception {
        Path f = dir.resolve(name);
        try (TfRecordWriter w = TfRecordFiles.newWriter(f, c)) {
            for (byte[] r : records) {
                w.write(r);
            }
        }
        return f;
    }

    private static FileSourceSplit split(Path f) throws Exception {
        return new FileSourceSplit(
                "0",
                new org.apache.flink.core.fs.Path(f.toUri()),
                0,
                Files.size(f),
                1234L,
                Files.size(f));
    }

    private static List<Item> readAll(BulkFormat.Reader<SourceRecord> reader) throws Exception {
        List<Item> items = new ArrayList<>();
        try (reader) {
            BulkFormat.RecordIterator<SourceRecord> batch;
            while ((batch = reader.readBatch()) != null) {
                RecordAndPosition<SourceRecord> r;
                while ((r = batch.next()) != null) {
                    items.add(
                            new Item(
                                    r.getRecord(),
                                    new CheckpointedPosition(
                                            r.getOffset(), r.getRecordSkipCount())));
                }
                batch.releaseBatch();
            }
        }
        return items;
    }

    private static void checkRestoreEverywhere(TfRecordFileFormat format, FileSourceSplit split)
            throws Exception {
        List<Item> all = readAll(format.createReader(new Configuration(), split));
        for (int k = 0; k < all.size(); k++) {
            List<Item> rest =
                    readAll(
                            format.restoreReader(
                                    new Configuration(),
                                    split.updateWithCheckpointedPosition(all.get(k).after())));
            assertEquals(all.size() - k - 1, rest.size(), "restored after item " + k);
            for (int i = 0; i < rest.size(); i++) {
                assertEquals(all.get(k + 1 + i).record(), rest.get(i).record(), "item " + i);
            }
        }
    }

    @Test
    void everyRecordWithItsOffsetAndRestoreAfterAnyRecordForEachCompression() throws Exception {
        List<byte[]> records = records(40, 1);
        for (Compression c : Compression.values()) {
            String suffix =
                    c == Compression.NONE ? ".tfrecord" : c == Compression.GZIP ? ".gz" : ".zz";
            Path f = write("f-" + c + suffix, records, c);
            FileSourceSplit split = split(f);
            for (int batch : new int[] {1, 7, 256}) {
                TfRecordFileFormat format =
                        new TfRecordFileFormat(OnCorruption.DEAD_LETTER, 1 << 20, 64, batch);
                List<Item> all = readAll(format.createReader(new Configuration(), split));
                assertEquals(records.size(), all.size());
                long offset = 0;
                for (int i = 0; i < all.size(); i++) {
                    SourceRecord r = all.get(i).record();
                    assertArrayEquals(records.get(i), r.value());
                    assertTrue(r.fromFile());
                    assertEquals(split.path().toString(), r.topic());
                    assertEquals(offset, r.offset(), "uncompressed offset of record " + i);
                    assertEquals(1234L, r.timestamp());
                    offset += records.get(i).length + 16;
                }
                checkRestoreEverywhere(format, split);
            }
        }
    }

    @Test
    void damagedRegionsAreItemsAndReadingResumesAfterThem() throws Exception {
        List<byte[]> records = records(30, 2);
        Path f = write("damaged.tfrecord", records, Compression.NONE);
        byte[] bytes = Files.readAllBytes(f);
        // Flip a byte inside record 5's data and cut the last record short.
        long at = 0;
        for (int i = 0; i < 5; i++) {
            at += records.get(i).length + 16;
        }
        bytes[(int) at + 12] ^= 0x55;
        if (records.get(5).length == 0) {
            bytes[(int) at] ^= 0x01; // an empty record has no data byte: break its length
        }
        byte[] cut = java.util.Arrays.copyOf(bytes, bytes.length - 3);
        Files.write(f, cut);
        TfRecordFileFormat format = new TfRecordFileFormat(OnCorruption.DEAD_LETTER, 1 << 20, 8, 4);
        List<Item> all = readAll(format.createReader(new Configuration(), split(f)));
        List<SourceRecord> corrupt = new ArrayList<>();
        List<SourceRecord> good = new ArrayList<>();
        for (Item i : all) {
            (i.record().lastHeader(TfRecordFileFormat.CORRUPT_HEADER) != null ? corrupt : good)
                    .add(i.record());
        }
        assertEquals(2, corrupt.size(), all.toString());
        assertEquals(at, corrupt.get(0).offset());
        assertTrue(
                new String(
                                corrupt.get(0).lastHeader(TfRecordFileFormat.CORRUPT_HEADER),
                                StandardCharsets.UTF_8)
                        .contains("at byte " + at),
                new String(
                        corrupt.get(0).lastHeader(TfRecordFileFormat.CORRUPT_HEADER),
                        StandardCharsets.UTF_8));
        assertEquals(8, corrupt.get(0).value().length, "the region's first bytes are kept");
        assertArrayEquals(
                java.util.Arrays.copyOfRange(cut, (int) at, (int) at + 8), corrupt.get(0).value());
        assertEquals(28, good.size(), "records 5 and 29 are lost to the damage");
        for (int i = 0; i < 28; i++) {
            assertArrayEquals(records.get(i < 5 ? i : i + 1), good.get(i).value());
        }
        checkRestoreEverywhere(format, split(f));

        TfRecordFileFormat failing = new TfRecordFileFormat(OnCorruption.FAIL, 1 << 20, 8, 4);
        SuppressRestartsException e =
                assertThrows(
                        SuppressRestartsException.class,
                        () -> readAll(failing.createReader(new Configuration(), split(f))));
        assertTrue(e.getCause().getMessage().startsWith("source.files.on-corruption is fail: "));
    }

    @Test
    void aDamagedGzipStreamEndsTheFileWithOneRegion() throws Exception {
        List<byte[]> records = records(200, 3);
        Path f = write("cut.tfrecord.gz", records, Compression.GZIP);
        byte[] bytes = Files.readAllBytes(f);
        Files.write(f, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        TfRecordFileFormat format = new TfRecordFileFormat(OnCorruption.DEAD_LETTER, 1 << 20, 8);
        List<Item> all = readAll(format.createReader(new Configuration(), split(f)));
        SourceRecord last = all.get(all.size() - 1).record();
        assertTrue(last.lastHeader(TfRecordFileFormat.CORRUPT_HEADER) != null);
        for (int i = 0; i < all.size() - 1; i++) {
            assertArrayEquals(records.get(i), all.get(i).record().value());
        }
        assertTrue(all.size() > 10 && all.size() < 200, all.size() + " items");
        checkRestoreEverywhere(format, split(f));
    }
}
