package io.tfstream.sql;

import static io.tfstream.sql.Examples.example;
import static io.tfstream.testkit.ProtoFeatures.int64s;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.apache.flink.connector.file.src.util.RecordAndPosition;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Restoring the file reader from the position of any row: the rows after it follow, none lost or
 * repeated, across batch boundaries, with records skipped under ignore-parse-errors, for every
 * compression (a compressed file is read again up to the position).
 */
class TfRecordRowReaderRestoreTest {
    private static final int RECORDS = 2500; // three parse batches of up to 1024

    @TempDir Path dir;

    @ParameterizedTest
    @EnumSource(Compression.class)
    void everyRowOnceAfterARestoreAtAnyPosition(Compression c) throws Exception {
        Path file = dir.resolve("f.tfrecord");
        try (TfRecordWriter w = TfRecordFiles.newWriter(file, c)) {
            for (int i = 0; i < RECORDS; i++) {
                // Every 10th record does not fit INT and is skipped.
                w.write(example(Map.of("x", int64s(i % 10 == 9 ? 1L << 40 : i))));
            }
        }
        RowType t = Examples.rowType("x", DataTypes.INT());
        TfRecordRowFormat format = TfRecordRowFormat.rows(t, null, true, InternalTypeInfo.of(t));
        long size = Files.size(file);
        FileSourceSplit split =
                new FileSourceSplit(
                        "0", new org.apache.flink.core.fs.Path(file.toUri()), 0, size, 0, size);

        List<Integer> all = new ArrayList<>();
        List<CheckpointedPosition> positions = new ArrayList<>();
        read(format.createReader(new Configuration(), split), all, positions);
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            if (i % 10 != 9) {
                expected.add(i);
            }
        }
        assertEquals(expected, all);

        for (int k : new int[] {0, 1, 920, 921, 1500, all.size() - 1}) {
            List<Integer> rest = new ArrayList<>();
            BulkFormat.Reader<RowData> restored =
                    format.restoreReader(
                            new Configuration(),
                            split.updateWithCheckpointedPosition(positions.get(k)));
            read(restored, rest, new ArrayList<>());
            assertEquals(all.subList(k + 1, all.size()), rest, "restored after row " + k);
        }
    }

    private static void read(
            BulkFormat.Reader<RowData> reader,
            List<Integer> rows,
            List<CheckpointedPosition> positions)
            throws Exception {
        try (reader) {
            BulkFormat.RecordIterator<RowData> batch;
            while ((batch = reader.readBatch()) != null) {
                RecordAndPosition<RowData> r;
                while ((r = batch.next()) != null) {
                    rows.add(r.getRecord().getInt(0));
                    positions.add(new CheckpointedPosition(r.getOffset(), r.getRecordSkipCount()));
                }
                batch.releaseBatch();
            }
        }
    }
}
