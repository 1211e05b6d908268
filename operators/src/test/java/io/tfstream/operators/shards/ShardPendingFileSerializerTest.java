package io.tfstream.operators.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tfstream.operators.source.SourceRecord;
import io.tfstream.shards.ShardStats;
import io.tfstream.tfrecord.Compression;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.functions.sink.filesystem.BulkBucketWriter;
import org.apache.flink.streaming.api.functions.sink.filesystem.InProgressFileWriter;
import org.apache.flink.streaming.api.functions.sink.filesystem.InProgressFileWriter.PendingFileRecoverable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A part file written through the shard bucket writer carries its statistics through the
 * committable serializer, and the recovered file commits under its name.
 */
class ShardPendingFileSerializerTest {
    @TempDir Path dir;

    @Test
    void aPartsStatisticsSurviveSerializationAndItCommitsAfterRecovery() throws Exception {
        ShardBucketWriter.EventTimes times = new ShardBucketWriter.EventTimes();
        ShardBucketWriter writer = writer(times);
        org.apache.flink.core.fs.Path part =
                new org.apache.flink.core.fs.Path(dir.resolve(".part-u-0.tfrecord").toUri());
        InProgressFileWriter<SourceRecord, String> file = writer.openNewInProgressFile("", part, 0);
        times.current = 5000;
        file.write(SourceRecord.of(new byte[] {1, 2, 3}, "t", 2, 40, 1), 0);
        times.current = 4000;
        file.write(SourceRecord.of(new byte[] {4}, "t", 2, 42, 2), 0);
        PendingFileRecoverable pending = file.closeForCommit();

        SimpleVersionedSerializer<PendingFileRecoverable> ser =
                writer(null).pendingFileSerializer();
        byte[] bytes = ser.serialize(pending);
        ShardPendingFile back = (ShardPendingFile) ser.deserialize(ser.getVersion(), bytes);
        ShardStats expected = new ShardStats();
        expected.add("t", 2, 40, 3, 5000);
        expected.add("t", 2, 42, 1, 4000);
        assertEquals(expected, back.stats());
        assertEquals(part, back.getPath());
        assertEquals(ShardPendingFile.NO_CRC, back.crc32c());

        writer(null).recoverPendingFile(back).commitAfterRecovery();
        assertEquals(3 + 1 + 2 * 16, java.nio.file.Files.size(dir.resolve(".part-u-0.tfrecord")));
    }

    @Test
    void otherVersionsAndForeignPendingFilesAreRejected() throws Exception {
        SimpleVersionedSerializer<PendingFileRecoverable> ser =
                writer(null).pendingFileSerializer();
        IOException e = assertThrows(IOException.class, () -> ser.deserialize(7, new byte[0]));
        assertEquals(
                "unknown version 7 of a shard pending file (this build reads 1)", e.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        ser.serialize(
                                new PendingFileRecoverable() {
                                    @Override
                                    public org.apache.flink.core.fs.Path getPath() {
                                        return null;
                                    }

                                    @Override
                                    public long getSize() {
                                        return 0;
                                    }
                                }));
    }

    @Test
    void aCompactedShardTakesTheFirstPartsNameWithoutTheDot() {
        assertEquals(
                new org.apache.flink.core.fs.Path("s3://b/dt=x/part-u-3.tfrecord.gz"),
                ShardBucketWriter.shardPathOf(
                        new org.apache.flink.core.fs.Path("s3://b/dt=x/.part-u-3.tfrecord.gz")));
    }

    private static ShardBucketWriter writer(ShardBucketWriter.EventTimes times) throws IOException {
        return new ShardBucketWriter(
                new BulkBucketWriter<>(
                        FileSystem.getLocalFileSystem().createRecoverableWriter(),
                        new TfRecordBulkWriter.Factory(Compression.NONE)),
                times);
    }
}
