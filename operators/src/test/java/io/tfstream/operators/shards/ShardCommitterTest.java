package io.tfstream.operators.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.model.ShardIndex;
import io.tfstream.operators.shards.store.RecoverableShardStore;
import io.tfstream.operators.shards.store.ShardOutput;
import io.tfstream.shards.ShardEncoder;
import io.tfstream.shards.ShardLayout;
import io.tfstream.shards.ShardManifest;
import io.tfstream.shards.ShardStats;
import io.tfstream.shards.ShardSuccessMarker;
import io.tfstream.tfrecord.Compression;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committer makes closed shards visible through the store (again after a recovery, without
 * change), writes each one's manifest from its committable, counts them, and writes a bucket's
 * {@code _SUCCESS} after the shards committed with it.
 */
@SuppressWarnings("try")
class ShardCommitterTest {
    static final String BUCKET = "dt=2025-11-24/hour=07";

    record Request(ShardCommittable committable)
            implements Committer.CommitRequest<ShardCommittable> {
        @Override
        public ShardCommittable getCommittable() {
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
        public void updateAndRetryLater(ShardCommittable c) {}

        @Override
        public void signalAlreadyCommitted() {}
    }

    @TempDir Path base;

    private ShardSettings settings(boolean manifests, boolean markers) {
        return settings(manifests, markers, ShardLayout.SEPARATE);
    }

    private ShardSettings settings(boolean manifests, boolean markers, ShardLayout layout) {
        return settings(manifests, markers, layout, ShardIndex.NONE);
    }

    private ShardSettings settings(
            boolean manifests, boolean markers, ShardLayout layout, ShardIndex index) {
        ShardSettings s =
                ShardTesting.settings(
                        base, Compression.GZIP, 1 << 20, Duration.ofHours(1), markers);
        return new ShardSettings(
                s.basePath(),
                s.storeFactory(),
                s.compression(),
                s.compressionLevel(),
                s.prefix(),
                s.targetSize(),
                s.maxAge(),
                s.bucketPattern(),
                s.zone(),
                null,
                manifests,
                s.schemaFingerprint(),
                markers,
                s.successDelay(),
                s.onLostShard(),
                s.checkpointBudget(),
                null,
                null,
                false,
                layout,
                index,
                null,
                true);
    }

    /** A real closed gzip shard of {@code records} records in {@link #BUCKET}. */
    private ShardCommittable.Shard shard(ShardSettings s, String name, int records)
            throws IOException {
        return shard(s, BUCKET, name, records);
    }

    /** A real closed gzip shard of {@code records} records in sink bucket {@code bucket}. */
    private ShardCommittable.Shard shard(ShardSettings s, String bucket, String name, int records)
            throws IOException {
        RecoverableShardStore store = RecoverableShardStore.of(s.basePath());
        ShardOutput out = store.open(s.bucketDir(bucket) + "/" + name);
        ShardEncoder enc = ShardEncoder.start(Compression.GZIP, 6, out::write);
        ShardStats stats = new ShardStats();
        for (int i = 0; i < records; i++) {
            byte[] r = new byte[10];
            enc.write(r, 0, r.length);
            stats.add("examples", i % 2, 100 + i, 10, 1_764_000_000_000L + i);
        }
        ShardEncoder.State end = enc.finish();
        return new ShardCommittable.Shard(
                bucket,
                name,
                out.closeForCommit(),
                stats,
                Integer.toUnsignedLong(end.crc32c()),
                end.bytesOut(),
                2);
    }

    private static List<Committer.CommitRequest<ShardCommittable>> requests(
            ShardCommittable... cs) {
        return Stream.of(cs).<Committer.CommitRequest<ShardCommittable>>map(Request::new).toList();
    }

    private List<String> files() throws IOException {
        return files(base.resolve(BUCKET));
    }

    private static List<String> files(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private Path metadata() {
        return Path.of(ShardLayout.SEPARATE.metadataDir(base.toString(), BUCKET));
    }

    @Test
    void commitsShardsWritesTheirManifestsAndCountsThemAgainAfterARecovery() throws Exception {
        ShardSettings s = settings(true, false);
        ShardCommittable.Shard a = shard(s, "part-a.tfrecord.gz", 3);
        ShardCommittable.Shard b = shard(s, "part-b.tfrecord.gz", 5);
        assertEquals(List.of(), files().stream().filter(f -> !f.startsWith(".")).toList());
        ShardCommitter c = new ShardCommitter(s, new UnregisteredMetricsGroup());
        c.commit(requests(a, b));
        assertEquals(List.of("part-a.tfrecord.gz", "part-b.tfrecord.gz"), files());
        assertEquals(
                List.of("_part-a.tfrecord.gz.manifest.json", "_part-b.tfrecord.gz.manifest.json"),
                files(metadata()),
                "manifests in the metadata tree, out of the bucket directory");
        assertEquals(2, c.finished.getCount());
        assertEquals(8, c.finishedRecords.getCount());
        assertEquals(a.fileBytes() + b.fileBytes(), c.finishedBytes.getCount());
        assertEquals(2, c.segments.getStatistics().getMax());

        Path file = base.resolve(BUCKET).resolve("part-b.tfrecord.gz");
        ShardManifest m =
                ShardManifest.fromJson(
                        Files.readString(metadata().resolve("_part-b.tfrecord.gz.manifest.json")));
        assertEquals("part-b.tfrecord.gz", m.shard());
        assertEquals(BUCKET, m.bucket());
        assertEquals(5, m.records());
        assertEquals(Files.size(file), m.bytes());
        assertEquals(2, m.segments());
        assertEquals(ShardTesting.FINGERPRINT, m.schemaFingerprint());
        assertEquals(null, m.schema(), "no schema copy beside the shards to name");
        try (var in = Files.newInputStream(file)) {
            assertEquals(
                    List.of(), io.tfstream.shards.ShardManifestCheck.check(in, file.toString(), m));
        }

        // a commit repeated after a recovery (the shard already renamed) changes nothing
        byte[] before = Files.readAllBytes(file);
        ShardCommitter again = new ShardCommitter(s, new UnregisteredMetricsGroup());
        again.commit(requests(b));
        assertEquals(1, again.finished.getCount());
        assertEquals(
                m,
                ShardManifest.fromJson(
                        Files.readString(metadata().resolve("_part-b.tfrecord.gz.manifest.json"))));
        assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(file)));
        c.close();
        again.close();
    }

    @Test
    void aManifestNamesTheCopyOfItsSchemaWhenTheParseWroteOne() throws Exception {
        assertEquals(
                ShardLayout.schemaPath(ShardTesting.FINGERPRINT),
                manifestSchemaWithCopy(ShardTesting.SCHEMA));
    }

    /** A copy under the fingerprint's name that is another schema is named by no manifest. */
    @Test
    void aPlantedSchemaCopyIsNotNamedByTheManifest() throws Exception {
        assertEquals(null, manifestSchemaWithCopy("feature { name: \"planted\" type: BYTES }\n"));
    }

    /** The schema a committed shard's manifest names with {@code copy} at its fingerprint. */
    private String manifestSchemaWithCopy(String copy) throws Exception {
        ShardSettings s = settings(true, false);
        Path file = base.resolve(ShardLayout.schemaPath(ShardTesting.FINGERPRINT));
        Files.createDirectories(file.getParent());
        Files.writeString(file, copy);
        ShardCommitter c = new ShardCommitter(s, new UnregisteredMetricsGroup());
        c.commit(requests(shard(s, "part-a.tfrecord.gz", 1)));
        c.close();
        return ShardManifest.fromJson(
                        Files.readString(metadata().resolve("_part-a.tfrecord.gz.manifest.json")))
                .schema();
    }

    @Test
    void withoutManifestsOnlyTheShardsAreCommitted() throws Exception {
        ShardSettings s = settings(false, false);
        ShardCommitter c = new ShardCommitter(s, new UnregisteredMetricsGroup());
        c.commit(requests(shard(s, "part-a.tfrecord.gz", 1)));
        assertEquals(List.of("part-a.tfrecord.gz"), files());
        assertEquals(List.of(), files(metadata()));
        c.close();
    }

    @Test
    void theInlineLayoutPutsManifestsAndMarkersBesideTheShards() throws Exception {
        ShardSettings s = settings(true, true, ShardLayout.INLINE);
        ShardCommitter c = new ShardCommitter(s, new UnregisteredMetricsGroup());
        ShardCommittable.Shard a = shard(s, "part-a.tfrecord.gz", 3);
        c.commit(requests(a, marker(s, "part-a.tfrecord.gz")));
        assertEquals(
                List.of("_SUCCESS", "part-a.tfrecord.gz", "part-a.tfrecord.gz.manifest.json"),
                files());
        assertFalse(Files.exists(base.resolve(ShardLayout.METADATA_DIR)));
        c.close();
    }

    @Test
    void oneMarkerNamesTheShardsOfEverySplitAndManifestsLeftBesideShardsByAnEarlierLayout()
            throws Exception {
        ShardSettings s = settings(true, true);
        ShardCommitter c =
                new ShardCommitter(s, new UnregisteredMetricsGroup(), Duration.ofMillis(300));
        ShardCommittable.Shard train = shard(s, BUCKET + "/Split-train", "part-t.tfrecord.gz", 2);
        ShardCommittable.Shard eval = shard(s, BUCKET + "/Split-eval", "part-e.tfrecord.gz", 1);
        // committed before a restore into this version: its manifest is beside it
        ShardCommittable.Shard old = shard(s, "part-o.tfrecord.gz", 4);
        ShardCommitter inline =
                new ShardCommitter(
                        settings(true, true, ShardLayout.INLINE), new UnregisteredMetricsGroup());
        inline.commit(requests(old));
        c.commit(requests(train, eval, marker(s, "part-t.tfrecord.gz", "part-e.tfrecord.gz")));
        assertEquals(
                List.of("part-t.tfrecord.gz"), files(base.resolve(BUCKET).resolve("Split-train")));
        assertEquals(
                List.of("_part-t.tfrecord.gz.manifest.json"),
                files(metadata().resolve("_Split-train")));
        ShardSuccessMarker m =
                ShardSuccessMarker.fromJson(Files.readString(metadata().resolve("_SUCCESS")));
        assertEquals(
                List.of(
                        "Split-eval/part-e.tfrecord.gz",
                        "Split-train/part-t.tfrecord.gz",
                        "part-o.tfrecord.gz"),
                m.shards().stream().map(ShardSuccessMarker.Shard::shard).toList());
        assertEquals(7, m.records());
        assertFalse(Files.exists(base.resolve(BUCKET).resolve("_SUCCESS")));
        inline.close();
        c.close();
    }

    @Test
    void aMarkerIsWrittenAfterTheShardsCommittedWithItAndListsTheBucket() throws Exception {
        ShardSettings s = settings(true, true);
        ShardCommitter c =
                new ShardCommitter(s, new UnregisteredMetricsGroup(), Duration.ofMillis(300));
        ShardCommittable.Marker marker =
                new ShardCommittable.Marker(
                        s.bucketDir(BUCKET),
                        BUCKET,
                        1_764_028_800_000L,
                        List.of("part-b.tfrecord.gz"),
                        List.of());
        ShardCommittable.Shard a = shard(s, "part-a.tfrecord.gz", 3);
        ShardCommittable.Shard b = shard(s, "part-b.tfrecord.gz", 5);
        c.commit(requests(marker, b, a));
        assertEquals(1, c.markers.getCount());
        ShardSuccessMarker m =
                ShardSuccessMarker.fromJson(Files.readString(metadata().resolve("_SUCCESS")));
        assertEquals(
                new ShardSuccessMarker(
                        BUCKET,
                        1_764_028_800_000L,
                        8,
                        a.fileBytes() + b.fileBytes(),
                        List.of(),
                        List.of(
                                new ShardSuccessMarker.Shard(
                                        "part-a.tfrecord.gz", 3, a.fileBytes()),
                                new ShardSuccessMarker.Shard(
                                        "part-b.tfrecord.gz", 5, b.fileBytes()))),
                m);

        // a marker naming a shard that never appears fails the commit after the wait
        ShardCommittable.Marker missing =
                new ShardCommittable.Marker(
                        s.bucketDir(BUCKET), BUCKET, 1L, List.of("part-z"), List.of());
        IOException e = assertThrows(IOException.class, () -> c.commit(requests(missing)));
        assertTrue(e.getMessage().contains("[part-z]"), e.getMessage());
        c.close();
    }

    @Test
    void aMarkerListsOnlyTheShardsOfTheJobsItNames() throws Exception {
        ShardSettings s = settings(true, true);
        ShardCommitter c =
                new ShardCommitter(s, new UnregisteredMetricsGroup(), Duration.ofMillis(300));
        String mine = named("0123456789abcdef0123456789abcdef");
        String ancestor = named("11111111111111111111111111111111");
        String other = named("fedcba9876543210fedcba9876543210");
        c.commit(requests(shard(s, mine, 1), shard(s, ancestor, 2), shard(s, other, 4)));
        c.commit(
                requests(
                        lineageMarker(
                                s,
                                List.of(mine),
                                List.of(
                                        "0123456789abcdef0123456789abcdef",
                                        "11111111111111111111111111111111"),
                                List.of())));
        ShardSuccessMarker m =
                ShardSuccessMarker.fromJson(Files.readString(metadata().resolve("_SUCCESS")));
        assertEquals(
                java.util.Set.of(mine, ancestor),
                java.util.Set.copyOf(
                        m.shards().stream().map(ShardSuccessMarker.Shard::shard).toList()));
        assertEquals(3, m.records(), "another job's shard in the same directory is left out");
        c.close();
    }

    /**
     * After a rollback the marker lists, of its jobs' shards, those its lineage committed: an
     * ancestor's up to the checkpoint the history continues from, its own whatever their
     * checkpoint. A manifest without a history (earlier versions) is listed by its job.
     */
    @Test
    void aMarkerListsTheShardsOfItsLineageOnly() throws Exception {
        ShardSettings s = settings(true, true);
        ShardCommitter c =
                new ShardCommitter(s, new UnregisteredMetricsGroup(), Duration.ofMillis(300));
        String job = "0123456789abcdef0123456789abcdef";
        String beforeCut = namedRun(job, 1);
        String afterCut = namedRun(job, 2);
        String restored = namedRun(job, 3);
        String unstamped = namedRun(job, 4);
        c.commit(
                requests(
                        shard(s, beforeCut, 1)
                                .withHistory(new io.tfstream.shards.ShardManifest.History("a", 5)),
                        shard(s, afterCut, 2)
                                .withHistory(new io.tfstream.shards.ShardManifest.History("a", 6)),
                        shard(s, restored, 4)
                                .withHistory(new io.tfstream.shards.ShardManifest.History("b", 6)),
                        shard(s, unstamped, 8)));
        List<ShardSuccessMarker.Cut> lineage =
                List.of(
                        new ShardSuccessMarker.Cut("a", 5),
                        new ShardSuccessMarker.Cut("b", Long.MAX_VALUE));
        c.commit(requests(lineageMarker(s, List.of(restored), List.of(job), lineage)));
        ShardSuccessMarker m =
                ShardSuccessMarker.fromJson(Files.readString(metadata().resolve("_SUCCESS")));
        assertEquals(
                java.util.Set.of(beforeCut, restored, unstamped),
                java.util.Set.copyOf(
                        m.shards().stream().map(ShardSuccessMarker.Shard::shard).toList()));
        assertEquals(13, m.records(), "the shard committed after the cut is left out");
        assertEquals(lineage, m.histories());
        assertEquals(
                new io.tfstream.shards.ShardManifest.History("a", 6),
                io.tfstream.shards.ShardManifest.fromJson(
                                Files.readString(
                                        Path.of(
                                                ShardLayout.SEPARATE.manifestPath(
                                                        base.toString(), BUCKET, afterCut))))
                        .history(),
                "the manifest names the history that committed the shard");
        c.close();
    }

    private static String namedRun(String job, long counter) {
        return new io.tfstream.operators.shards.store.ShardName(
                        "part", job, "00c0ffee00c0ffee", 0, counter, ".tfrecord.gz")
                .format();
    }

    /** A request for {@link #BUCKET}'s marker naming {@code shards}, of {@code jobs}' lineage. */
    private static ShardCommittable.Marker lineageMarker(
            ShardSettings s,
            List<String> shards,
            List<String> jobs,
            List<ShardSuccessMarker.Cut> lineage) {
        return new ShardCommittable.Marker(s.bucketDir(BUCKET), BUCKET, 1L, shards, jobs, lineage);
    }

    /** A request for {@link #BUCKET}'s marker, naming {@code shards}, of every job. */
    private static ShardCommittable.Marker marker(ShardSettings s, String... shards) {
        return new ShardCommittable.Marker(
                s.bucketDir(BUCKET), BUCKET, 1L, List.of(shards), List.of());
    }

    private static String named(String job) {
        return namedRun(job, 0);
    }
}
