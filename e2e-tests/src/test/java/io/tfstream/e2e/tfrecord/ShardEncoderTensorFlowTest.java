package io.tfstream.e2e.tfrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.shards.ShardEncoder;
import io.tfstream.tfrecord.Compression;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TensorFlow's own TFRecord reader ({@code TFRecordReaderV2}) reads shards that {@link
 * ShardEncoder} wrote across checkpoints: a gzip shard of several members, and a zlib shard of
 * several sync-flushed segments continued after a restore with a fresh deflater.
 */
class ShardEncoderTensorFlowTest {
    @TempDir Path dir;

    /** A shard sink that can be cut back to a persisted length, as a restore does. */
    private static final class Stored implements ShardEncoder.Sink {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        @Override
        public void write(byte[] b, int off, int len) {
            bytes.write(b, off, len);
        }

        void truncate(long length) {
            byte[] kept = Arrays.copyOf(bytes.toByteArray(), (int) length);
            bytes.reset();
            bytes.writeBytes(kept);
        }
    }

    private static List<byte[]> records(int count, long seed) {
        Random random = new Random(seed);
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            // Half compressible text-like bytes, half random, some records empty.
            byte[] b = new byte[i % 17 == 0 ? 0 : random.nextInt(4000)];
            for (int j = 0; j < b.length; j++) {
                b[j] = j % 2 == 0 ? (byte) ('a' + (j / 7) % 26) : (byte) random.nextInt();
            }
            out.add(b);
        }
        return out;
    }

    private static ShardEncoder.State roundTrip(ShardEncoder.State s) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        s.writeTo(new DataOutputStream(b));
        return ShardEncoder.State.readFrom(
                new DataInputStream(new ByteArrayInputStream(b.toByteArray())));
    }

    /**
     * Writes {@code records} with a segment end every 50 records; after the second segment the task
     * fails once: 30 records more are lost with the bytes after the state, and the shard resumes
     * from the serialized state.
     */
    private Path writeShard(Compression c, List<byte[]> records) throws IOException {
        Stored sink = new Stored();
        ShardEncoder enc = ShardEncoder.start(c, 6, sink);
        boolean failed = false;
        int i = 0;
        while (i < records.size()) {
            byte[] r = records.get(i++);
            enc.write(r, 0, r.length);
            if (i % 50 == 0) {
                ShardEncoder.State s = enc.endSegment();
                if (i == 100 && !failed) {
                    failed = true;
                    for (int k = 0; k < 30; k++) {
                        enc.write(records.get(i + k), 0, records.get(i + k).length);
                    }
                    enc.release();
                    ShardEncoder.State restored = roundTrip(s);
                    sink.truncate(restored.bytesOut());
                    enc = ShardEncoder.resume(restored, sink);
                }
            }
        }
        ShardEncoder.State last = enc.finish();
        assertTrue(failed);
        assertEquals(records.size(), last.records());
        assertTrue(last.segments() >= 5, "segments " + last.segments());
        Path file = dir.resolve("shard-" + c.cliName() + ".tfrecord");
        Files.write(file, sink.bytes.toByteArray());
        assertEquals(last.bytesOut(), Files.size(file));
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

    @Test
    void tensorFlowReadsEveryMemberOfAGzipShard() throws IOException {
        List<byte[]> records = records(320, 1);
        assertTensorFlowReads(records, writeShard(Compression.GZIP, records), Compression.GZIP);
    }

    @Test
    void tensorFlowReadsAZlibShardContinuedAfterARestore() throws IOException {
        List<byte[]> records = records(320, 2);
        assertTensorFlowReads(records, writeShard(Compression.ZLIB, records), Compression.ZLIB);
    }

    @Test
    void tensorFlowReadsEmptyShards() throws IOException {
        for (Compression c : Compression.values()) {
            Stored sink = new Stored();
            ShardEncoder.start(c, -1, sink).finish();
            Path file = dir.resolve("empty-" + c.cliName() + ".tfrecord");
            Files.write(file, sink.bytes.toByteArray());
            assertTensorFlowReads(List.of(), file, c);
        }
    }
}
