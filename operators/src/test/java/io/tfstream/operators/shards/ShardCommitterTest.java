package io.tfstream.operators.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.shards.ShardManifest;
import io.tfstream.shards.ShardStats;
import io.tfstream.shards.ShardSuccessMarker;
import io.tfstream.tfrecord.Compression;
import java.nio.file.Files;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.connector.file.sink.FileSinkCommittable;
import org.apache.flink.core.fs.Path;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.streaming.api.functions.sink.filesystem.InProgressFileWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committer counts visible shards only, after the commit went through, and writes each one's
 * manifest from the statistics its committable carries.
 */
@SuppressWarnings("try")
class ShardCommitterTest {
    private record Pending(Path path, long size)
            implements InProgressFileWriter.PendingFileRecoverable {
        @Override
        public Path getPath() {
            return path;
        }

        @Override
        public long getSize() {
            return size;
        }
    }

    private record Request(FileSinkCommittable committable)
            implements Committer.CommitRequest<FileSinkCommittable> {
        @Override
        public FileSinkCommittable getCommittable() {
            return committable;
        }

        @Override
        public int getNumberOfRetries() {
            return 0;
        }

        @Override
        public void signalFailedWithKnownReason(Throwable t) {
            throw new AssertionError(t);
        }

        @Override
        public void signalFailedWithUnknownReason(Throwable t) {
            throw new AssertionError(t);
        }

        @Override
        public void retryLater() {}

        @Override
        public void updateAndRetryLater(FileSinkCommittable c) {}

        @Override
        public void signalAlreadyCommitted() {}
    }

    /** A committer that records what it was asked to commit. */
    private static final class RecordingCommitter implements Committer<FileSinkCommittable> {
        final List<FileSinkCommittable> committed = new ArrayList<>();

        @Override
        public void commit(Collection<CommitRequest<FileSinkCommittable>> requests) {
            for (CommitRequest<FileSinkCommittable> r : requests) {
                committed.add(r.getCommittable());
            }
        }

        @Override
        public void close() {}
    }

    private static ShardPendingFile shard(Path path, long size, ShardStats stats) {
        return new ShardPendingFile(new Pending(path, size), stats, 0x1234abcdL, size, 2);
    }

    private static ShardStats stats(int records) {
        ShardStats s = new ShardStats();
        for (int i = 0; i < records; i++) {
            s.add("examples", i % 2, 100 + i, 10, 1_764_000_000_000L + i);
        }
        return s;
    }

    private ShardSettings settings(boolean manifests) {
        return new ShardSettings(
                base.toUri().toString(),
                Compression.GZIP,
                "part",
                1 << 20,
                3,
                "'dt='yyyy-MM-dd",
                ZoneOffset.UTC,
                null,
                manifests,
                "abc123",
                false,
                java.time.Duration.ZERO);
    }

    @TempDir java.nio.file.Path base;

    @Test
    void countsFinishedShardsAndWritesTheirManifestsOnceCommitted() throws Exception {
        RecordingCommitter inner = new RecordingCommitter();
        ShardCommitter c =
                new ShardCommitter(inner, settings(true), new UnregisteredMetricsGroup());
        java.nio.file.Path bucket = Files.createDirectories(base.resolve("dt=2025-11-24"));
        Path b = new Path(bucket.toUri());
        List<Committer.CommitRequest<FileSinkCommittable>> requests =
                List.of(
                        new Request(
                                new FileSinkCommittable(
                                        "b",
                                        shard(new Path(b, "part-1-0.tfrecord.gz"), 100, stats(3)))),
                        new Request(
                                new FileSinkCommittable(
                                        "b",
                                        ShardPendingFile.part(
                                                new Pending(
                                                        new Path(b, ".part-1-0.tfrecord.gz"), 40),
                                                stats(1)))),
                        new Request(
                                new FileSinkCommittable(
                                        "b",
                                        shard(
                                                new Path(b, "part-2-0.tfrecord.gz"),
                                                300,
                                                stats(5)))));
        c.commit(requests);
        assertEquals(3, inner.committed.size());
        assertEquals(2, c.finished.getCount());
        assertEquals(8, c.finishedRecords.getCount());
        assertEquals(400, c.finishedBytes.getCount());
        assertEquals(2, c.size.getCount());
        assertEquals(300, c.size.getStatistics().getMax());

        ShardManifest m =
                ShardManifest.fromJson(
                        Files.readString(bucket.resolve("part-2-0.tfrecord.gz.manifest.json")));
        assertEquals("part-2-0.tfrecord.gz", m.shard());
        assertEquals("dt=2025-11-24", m.bucket());
        assertEquals(5, m.records());
        assertEquals(50, m.recordBytes());
        assertEquals(300, m.bytes());
        assertEquals(Compression.GZIP, m.compression());
        assertEquals("1234abcd", m.crc32cHex());
        assertEquals("abc123", m.schemaFingerprint());
        assertEquals(1_764_000_000_000L, m.minEventTimeMs());
        assertEquals(1_764_000_000_004L, m.maxEventTimeMs());
        assertEquals(2, m.parts());
        assertEquals(
                List.of(
                        new ShardManifest.Source("examples", 0, 100, 104, 3),
                        new ShardManifest.Source("examples", 1, 101, 103, 2)),
                m.sources());
        assertTrue(Files.exists(bucket.resolve("part-1-0.tfrecord.gz.manifest.json")));
        // nothing else: the hidden part gets no manifest, and no temporary file is left
        try (Stream<java.nio.file.Path> files = Files.list(bucket)) {
            assertEquals(2, files.count());
        }

        // a commit repeated after a recovery writes the same manifest again
        c.commit(requests.subList(2, 3));
        assertEquals(
                m,
                ShardManifest.fromJson(
                        Files.readString(bucket.resolve("part-2-0.tfrecord.gz.manifest.json"))));
    }

    @Test
    void withoutManifestsOnlyTheShardsAreCommitted() throws Exception {
        RecordingCommitter inner = new RecordingCommitter();
        ShardCommitter c =
                new ShardCommitter(inner, settings(false), new UnregisteredMetricsGroup());
        Path b = new Path(base.toUri());
        c.commit(
                List.of(
                        new Request(
                                new FileSinkCommittable(
                                        "",
                                        shard(
                                                new Path(b, "part-1-0.tfrecord.gz"),
                                                10,
                                                stats(1))))));
        assertEquals(1, c.finished.getCount());
        try (Stream<java.nio.file.Path> files = Files.list(base)) {
            assertEquals(0, files.count());
        }
    }

    @Test
    void aShardsBucketIsItsDirectoryBelowTheBase() {
        Path base = new Path("s3://bucket/shards");
        assertEquals(
                "dt=2025-11-24/hour=07",
                ShardCommitter.bucketOf(
                        new Path("s3://bucket/shards/dt=2025-11-24/hour=07/part-1-0.tfrecord"),
                        base));
        assertEquals("", ShardCommitter.bucketOf(new Path("s3://bucket/shards/part-1"), base));
        assertEquals(
                "x",
                ShardCommitter.bucketOf(
                        new Path("file:/tmp/s/x/part-1"), new Path("file:/tmp/s/")));
    }

    @Test
    void aMarkerIsWrittenAfterTheShardsCommittedWithItAndListsTheBucket() throws Exception {
        RecordingCommitter inner = new RecordingCommitter();
        ShardCommitter c =
                new ShardCommitter(
                        inner,
                        settings(true),
                        new UnregisteredMetricsGroup(),
                        Duration.ofMillis(300));
        java.nio.file.Path bucket = Files.createDirectories(base.resolve("dt=2025-11-24"));
        Path b = new Path(bucket.toUri());
        ShardMarker marker =
                new ShardMarker(
                        b, "dt=2025-11-24", 1_764_028_800_000L, List.of("part-2-0.tfrecord.gz"));
        c.commit(
                List.of(
                        new Request(new FileSinkCommittable("dt=2025-11-24", marker)),
                        new Request(
                                new FileSinkCommittable(
                                        "dt=2025-11-24",
                                        shard(new Path(b, "part-2-0.tfrecord.gz"), 300, stats(5)))),
                        new Request(
                                new FileSinkCommittable(
                                        "dt=2025-11-24",
                                        shard(
                                                new Path(b, "part-1-0.tfrecord.gz"),
                                                100,
                                                stats(3))))));
        assertEquals(2, inner.committed.size(), "the marker request is not a file to commit");
        assertEquals(1, c.markers.getCount());
        ShardSuccessMarker m =
                ShardSuccessMarker.fromJson(Files.readString(bucket.resolve("_SUCCESS")));
        assertEquals(
                new ShardSuccessMarker(
                        "dt=2025-11-24",
                        1_764_028_800_000L,
                        8,
                        400,
                        List.of(
                                new ShardSuccessMarker.Shard("part-1-0.tfrecord.gz", 3, 100),
                                new ShardSuccessMarker.Shard("part-2-0.tfrecord.gz", 5, 300))),
                m);

        // a marker naming a shard that never appears fails the commit after the wait
        ShardMarker missing =
                new ShardMarker(b, "dt=2025-11-24", 1L, List.of("part-9-0.tfrecord.gz"));
        java.io.IOException e =
                org.junit.jupiter.api.Assertions.assertThrows(
                        java.io.IOException.class,
                        () ->
                                c.commit(
                                        List.of(
                                                new Request(
                                                        new FileSinkCommittable(
                                                                "dt=2025-11-24", missing)))));
        assertTrue(e.getMessage().contains("[part-9-0.tfrecord.gz]"), e.getMessage());
    }
}
