package io.tfstream.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The finished shards of a run: hidden parts, markers and manifests left out, several shards of a
 * bucket sorted by name, their records counted.
 */
class ShardListingTest {
    @TempDir Path dir;
    private Path shards;

    @BeforeEach
    void writeShards() throws Exception {
        shards = dir.resolve("shards");
        Path bucket = Files.createDirectories(shards.resolve("dt=2024-01-01/hour=00"));
        // Written out of name order: the listing sorts.
        shard(bucket.resolve("part-b-0.tfrecord"), 1);
        shard(bucket.resolve("part-a-1.tfrecord"), 3);
        shard(bucket.resolve("part-a-0.tfrecord"), 2);
        shard(bucket.resolve(".part-a-2.tfrecord"), 5);
        Files.writeString(bucket.resolve("part-a-0.tfrecord.manifest.json"), "{}");
        Files.writeString(bucket.resolve("_SUCCESS"), "");
        shard(Files.createDirectories(shards.resolve("_tmp")).resolve("x.tfrecord"), 7);
    }

    @Test
    void onDiskNamesRelativeToTheOutputDirectory() throws Exception {
        ShardListing l = ShardListing.onDisk(shards);
        assertEquals(
                List.of(
                        "shards/dt=2024-01-01/hour=00/part-a-0.tfrecord",
                        "shards/dt=2024-01-01/hour=00/part-a-1.tfrecord",
                        "shards/dt=2024-01-01/hour=00/part-b-0.tfrecord"),
                l.names());
        assertEquals(6, l.records());
    }

    /** Regression: several shards made sorting Flink paths fail with a ClassCastException. */
    @Test
    void throughFlinksFileSystemSeveralShardsOfABucketAreSortedByName() throws Exception {
        ShardListing l = ShardListing.onObjectStore(shards.toUri().toString());
        List<String> ends =
                l.names().stream().map(n -> n.substring(n.indexOf("/shards/") + 1)).toList();
        assertEquals(ShardListing.onDisk(shards).names(), ends);
        assertEquals(6, l.records());
    }

    @Test
    void noShardsDirectoryIsNoShards() throws Exception {
        assertEquals(new ShardListing(List.of(), 0), ShardListing.onDisk(dir.resolve("none")));
        assertEquals(
                new ShardListing(List.of(), 0),
                ShardListing.onObjectStore(dir.resolve("none").toUri().toString()));
    }

    private static void shard(Path file, int records) throws Exception {
        try (TfRecordWriter w = TfRecordFiles.newWriter(file, Compression.NONE)) {
            for (int i = 0; i < records; i++) {
                w.write(("record " + i).getBytes(StandardCharsets.UTF_8));
            }
        }
    }
}
