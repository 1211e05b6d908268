package io.tfstream.operators.shards;

import static io.tfstream.operators.shards.ShardTesting.JOB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.model.SourceRecord;
import io.tfstream.shards.ShardLayout;
import io.tfstream.shards.ShardManifest;
import io.tfstream.shards.ShardSuccessMarker;
import io.tfstream.shards.TfxSplits;
import io.tfstream.stats.ExampleStatistics;
import io.tfstream.stats.StatsRole;
import io.tfstream.testing.StatisticsAssertions;
import io.tfstream.testkit.ProtoFeatures;
import io.tfstream.tfrecord.Compression;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.Example;
import org.tensorflow.example.Features;
import org.tensorflow.metadata.v0.DatasetFeatureStatisticsList;

/**
 * {@code shards.statistics}: each shard's statistics travel through a restore and its committable,
 * land beside its manifest, and a bucket's {@code _SUCCESS} writer merges them per data split into
 * TFX's {@code Split-<name>/FeatureStats.pb}, equal to TFDV's statistics of the split's records in
 * one pass; a shard without its own statistics is read back.
 */
class ShardStatisticsTest {
    private static final long HOUR_10 = Instant.parse("2026-11-24T10:00:00Z").toEpochMilli();
    private static final String BUCKET = "dt=2026-11-24/hour=10";
    private static final TfxSplits SPLITS = TfxSplits.parse("train:2,eval:1");
    private static final Map<String, StatsRole> ROLES =
            Map.of("country_id", StatsRole.CATEGORICAL_INT);

    @TempDir Path base;

    private ShardSettings settings(String weightFeature) {
        return ShardTesting.settings(base, Compression.GZIP, 1 << 30, Duration.ofHours(1), true)
                .withSplits(SPLITS, null, false)
                .withStatistics(ShardFeatureStatistics.of(0.01, weightFeature, ROLES, false));
    }

    private ShardWriter writer(ShardSettings s, int subtask, Collection<ShardWriterState> state)
            throws Exception {
        return ShardTesting.writer(s, subtask, state, 0, -1, () -> HOUR_10);
    }

    /** Records of every kind: missing and empty features, lists, a categorical int, weights. */
    private static List<byte[]> records(int n) {
        Random random = new Random(7);
        String[] countries = {"US", "DE", "FR", "JP"};
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Features.Builder f = Features.newBuilder();
            f.putFeature("age", ProtoFeatures.int64s(18 + random.nextInt(60)));
            float[] scores = new float[random.nextInt(4)];
            for (int k = 0; k < scores.length; k++) {
                scores[k] = random.nextFloat() * 10;
            }
            f.putFeature("score", ProtoFeatures.floats(scores));
            if (random.nextInt(5) > 0) {
                f.putFeature("country", ProtoFeatures.strings(countries[random.nextInt(4)]));
            }
            f.putFeature("country_id", ProtoFeatures.int64s(random.nextInt(4)));
            if (i % 7 != 0) {
                f.putFeature("w", ProtoFeatures.floats(0.5f + random.nextInt(3)));
            }
            out.add(Example.newBuilder().setFeatures(f).build().toByteArray());
        }
        return out;
    }

    private static void write(ShardWriter w, List<byte[]> records, int from, int to)
            throws Exception {
        for (int i = from; i < to; i++) {
            w.write(
                    SourceRecord.of(records.get(i), "examples", 0, i, HOUR_10 + i),
                    new ShardTesting.Context(HOUR_10 + i, Long.MIN_VALUE));
        }
    }

    private static List<ShardCommittable.Shard> shards(Collection<ShardCommittable> cs) {
        return cs.stream().map(c -> (ShardCommittable.Shard) c).toList();
    }

    @Test
    void bucketStatisticsPerSplitEqualOnePassOverTheRecordsAcrossARestore() throws Exception {
        ShardSettings s = settings("w");
        List<byte[]> records = records(600);
        // subtask 0: half its records before a checkpoint, the rest after a restore from it
        ShardWriter w = writer(s, 0, List.of());
        write(w, records, 0, 200);
        w.prepareCommit();
        List<ShardWriterState> state = w.snapshotState(1);
        w.close();
        ShardWriter restored = writer(s, 0, state);
        write(restored, records, 200, 400);
        restored.flush(true);
        List<ShardCommittable.Shard> committed = new ArrayList<>(shards(restored.prepareCommit()));
        for (ShardCommittable.Shard x : committed) {
            // staged beside the open-shard entries: no sketch byte in the committable
            assertNull(x.features(), x.toString());
            assertTrue(
                    Files.isRegularFile(Path.of(java.net.URI.create(x.featuresFile()))),
                    x.featuresFile());
        }
        // subtask 1: committed without statistics of its own (an earlier version): read back
        ShardWriter other = writer(s, 1, List.of());
        write(other, records, 400, 600);
        other.flush(true);
        for (ShardCommittable.Shard x : shards(other.prepareCommit())) {
            Files.delete(Path.of(java.net.URI.create(x.featuresFile()))); // never staged then
            committed.add(
                    new ShardCommittable.Shard(
                            x.bucket(),
                            x.name(),
                            x.closed(),
                            x.stats(),
                            x.crc32c(),
                            x.fileBytes(),
                            x.segments(),
                            x.schemaFingerprint(),
                            null,
                            null,
                            null));
        }
        assertEquals(4, committed.size(), "a shard per split and subtask: " + committed);
        List<ShardCommittable> requests = new ArrayList<>(committed);
        requests.add(
                new ShardCommittable.Marker(
                        s.bucketDir(BUCKET),
                        BUCKET,
                        HOUR_10 + 3_600_000,
                        committed.stream().map(ShardCommittable.Shard::name).toList(),
                        List.of(JOB)));
        commit(s, requests, 2); // a commit repeated after a recovery changes nothing

        Path meta = base.resolve("_tfstream/_dt=2026-11-24/_hour=10");
        for (ShardCommittable.Shard x : committed) {
            Path manifest =
                    meta.resolve("_" + x.bucket().substring(BUCKET.length() + 1))
                            .resolve("_" + x.name() + ShardManifest.SUFFIX);
            ShardManifest m = ShardManifest.fromJson(Files.readString(manifest));
            if (x.featuresFile() == null) {
                assertNull(m.statistics(), "no statistics of its own: " + m.toJson());
            } else {
                assertEquals(ShardLayout.shardStatisticsName(x.name()), m.statistics());
                assertTrue(Files.isRegularFile(manifest.resolveSibling(m.statistics())));
            }
        }
        assertEquals(List.of(), staged(), "the committer removes what it stored");
        ShardSuccessMarker marker =
                ShardSuccessMarker.fromJson(Files.readString(meta.resolve("_SUCCESS")));
        assertEquals(
                List.of(
                        "_statistics/Split-train/FeatureStats.pb",
                        "_statistics/Split-eval/FeatureStats.pb"),
                marker.statistics());
        for (int split = 0; split < 2; split++) {
            ExampleStatistics want =
                    ExampleStatistics.lenient(
                            s.statistics().options(), "w", Map.copyOf(s.statistics().roles()));
            for (byte[] r : records.subList(0, 600)) {
                if (SPLITS.indexOf(r) == split) {
                    want.add(Example.parseFrom(r));
                }
            }
            DatasetFeatureStatisticsList got =
                    DatasetFeatureStatisticsList.parseFrom(
                            Files.readAllBytes(meta.resolve(marker.statistics().get(split))));
            assertEquals(1, got.getDatasetsCount());
            assertEquals("", got.getDatasets(0).getName());
            assertTrue(got.getDatasets(0).getNumExamples() > 100);
            StatisticsAssertions.assertSameStatistics(want.build(""), got.getDatasets(0));
        }
    }

    /**
     * {@code shards.statistics-report}: each split's page beside its {@code FeatureStats.pb}, the
     * first bucket's alone, the next one's compared with it (the previous event-time bucket); the
     * marker still lists the statistics only.
     */
    @Test
    void eachBucketsReportComparesItWithThePreviousBucket() throws Exception {
        ShardSettings s =
                ShardTesting.settings(base, Compression.GZIP, 1 << 30, Duration.ofHours(1), true)
                        .withSplits(SPLITS, null, false)
                        .withStatistics(
                                ShardFeatureStatistics.of(0.01, null, ROLES, false)
                                        .withReport(true));
        List<byte[]> records = records(400);
        String hour11 = "dt=2026-11-24/hour=11";
        commitBucket(s, records.subList(0, 200), HOUR_10, BUCKET);
        commitBucket(s, records.subList(200, 400), HOUR_10 + 3_600_000, hour11);
        for (String split : List.of("train", "eval")) {
            Path first =
                    base.resolve("_tfstream/_dt=2026-11-24/_hour=10/_statistics/Split-" + split);
            Path next =
                    base.resolve("_tfstream/_dt=2026-11-24/_hour=11/_statistics/Split-" + split);
            String alone = Files.readString(first.resolve("report.html"));
            assertTrue(alone.contains("data-compare=\"false\""), split);
            assertTrue(alone.contains("<title>Bucket " + BUCKET + ", split " + split), split);
            String compared = Files.readString(next.resolve("report.html"));
            assertTrue(compared.contains("data-compare=\"true\""), split);
            // the two datasets named by their buckets, each with its split's record count
            long before =
                    DatasetFeatureStatisticsList.parseFrom(
                                    Files.readAllBytes(first.resolve("FeatureStats.pb")))
                            .getDatasets(0)
                            .getNumExamples();
            assertTrue(compared.contains(hour11 + "</th><td class=\"examples\""), split);
            assertTrue(
                    compared.contains(
                            BUCKET + "</th><td class=\"examples\" data-value=\"" + before + "\">"),
                    split);
        }
        ShardSuccessMarker marker =
                ShardSuccessMarker.fromJson(
                        Files.readString(
                                base.resolve("_tfstream/_dt=2026-11-24/_hour=11/_SUCCESS")));
        assertEquals(
                List.of(
                        "_statistics/Split-train/FeatureStats.pb",
                        "_statistics/Split-eval/FeatureStats.pb"),
                marker.statistics());
    }

    /** Writes {@code records} at {@code start} onward, commits them and the bucket's marker. */
    private void commitBucket(ShardSettings s, List<byte[]> records, long start, String bucket)
            throws Exception {
        ShardWriter w = writer(s, 0, List.of());
        for (int i = 0; i < records.size(); i++) {
            w.write(
                    SourceRecord.of(records.get(i), "examples", 0, i, start + i),
                    new ShardTesting.Context(start + i, Long.MIN_VALUE));
        }
        w.flush(true);
        List<ShardCommittable.Shard> shards = shards(w.prepareCommit());
        w.close();
        List<ShardCommittable> requests = new ArrayList<>(shards);
        requests.add(
                new ShardCommittable.Marker(
                        s.bucketDir(bucket),
                        bucket,
                        start + 3_600_000,
                        shards.stream().map(ShardCommittable.Shard::name).toList(),
                        List.of(JOB)));
        commit(s, requests, 1);
    }

    /** Commits {@code requests} {@code times} times with one committer. */
    private static void commit(ShardSettings s, List<ShardCommittable> requests, int times)
            throws Exception {
        ShardCommitter c = new ShardCommitter(s, new UnregisteredMetricsGroup());
        List<org.apache.flink.api.connector.sink2.Committer.CommitRequest<ShardCommittable>> rs =
                new ArrayList<>();
        requests.forEach(x -> rs.add(new ShardCommitterTest.Request(x)));
        for (int i = 0; i < times; i++) {
            c.commit(rs);
        }
        c.close();
    }

    /** The statistics files writers staged and no committer has removed yet. */
    private List<Path> staged() throws java.io.IOException {
        Path open = base.resolve("_tfstream/_open");
        if (!Files.isDirectory(open)) {
            return List.of();
        }
        try (java.util.stream.Stream<Path> files = Files.walk(open)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".stats")).toList();
        }
    }

    /**
     * What a failover's restored checkpoint holds keeps its staged statistics; what an attempt
     * staged after that checkpoint (its committables in no checkpoint) is removed by the next
     * attempt, so a crash loop leaves no statistics behind. The kept ones are committed and removed
     * then.
     */
    @Test
    void aFailoverRemovesStatisticsStagedAfterTheRestoredCheckpointAndKeepsTheRest()
            throws Exception {
        ShardSettings s = settings(null);
        List<byte[]> records = records(300);
        ShardWriter w = writer(s, 0, List.of());
        write(w, records, 0, 100);
        w.flush(true); // finishes both splits' shards: staged after checkpoint -1
        List<ShardCommittable.Shard> held = shards(w.prepareCommit());
        List<ShardWriterState> state = w.snapshotState(1); // checkpoint 1 holds those committables
        write(w, records, 100, 200);
        w.flush(true);
        List<ShardCommittable.Shard> lost =
                shards(w.prepareCommit()); // staged after 1: no checkpoint
        assertEquals(4, staged().size(), "two shards per split staged: " + staged());
        // the attempt dies; the next one restores checkpoint 1
        ShardWriter next = ShardTesting.writer(s, 0, state, 1, 1, () -> HOUR_10);
        List<String> kept =
                held.stream()
                        .map(x -> new org.apache.flink.core.fs.Path(x.featuresFile()).getName())
                        .sorted()
                        .toList();
        assertEquals(
                kept,
                staged().stream().map(f -> f.getFileName().toString()).sorted().toList(),
                "those of " + lost + " removed");
        commit(s, new ArrayList<>(held), 1);
        next.close();
        assertEquals(List.of(), staged());
        try (java.util.stream.Stream<Path> files = Files.walk(base.resolve("_tfstream"))) {
            assertEquals(
                    2,
                    files.filter(f -> f.getFileName().toString().endsWith(".statistics")).count(),
                    "the held shards' statistics stored");
        }
    }

    /**
     * The statistics of open shards count in {@code shards.checkpoint-budget}, on any store: with a
     * budget below what one shard's sketches take, the open shards are finished at the checkpoint
     * after the one that first held their sketches. Before, only S3's data tails counted and the
     * sketches grew every checkpoint without a bound.
     */
    @Test
    void theStatisticsOfOpenShardsCountInTheCheckpointBudget() throws Exception {
        ShardSettings s =
                ShardTesting.settings(
                                base,
                                Compression.GZIP,
                                1 << 30,
                                Duration.ofHours(1),
                                true,
                                io.tfstream.api.model.LostShardAction.FAIL,
                                1024)
                        .withSplits(SPLITS, null, false)
                        .withStatistics(ShardFeatureStatistics.of(0.01, null, ROLES, false));
        ShardWriter w = writer(s, 0, List.of());
        write(w, records(300), 0, 300);
        assertEquals(List.of(), w.prepareCommit(), "no checkpoint has held their sketches yet");
        List<ShardWriterState> state = w.snapshotState(1);
        long sketches = 0;
        for (ShardWriterState e : state) {
            sketches += ((ShardWriterState.Open) e).features().length;
        }
        assertTrue(sketches > 1024, "the sketches exceed the budget: " + sketches);
        assertEquals(2, shards(w.prepareCommit()).size(), "both splits' shards finished");
        assertEquals(0, w.openShards());
        w.close();
    }

    @Test
    void statisticsBytesRoundTripAndOnlyMergeWithTheirOwnSettings() throws Exception {
        ShardFeatureStatistics settings = settings("w").statistics();
        ExampleStatistics stats = settings.empty();
        List<byte[]> records = records(50);
        records.forEach(r -> settings.add(stats, r));
        // lenient: another kind of a feature and a record without its weight stop nothing
        settings.add(
                stats,
                Example.newBuilder()
                        .setFeatures(
                                Features.newBuilder()
                                        .putFeature("age", ProtoFeatures.strings("old")))
                        .build()
                        .toByteArray());
        settings.add(stats, new byte[] {(byte) 0xff}); // not an Example: a record without features
        byte[] bytes = settings.toBytes(stats);
        ExampleStatistics back = settings.fromBytes(bytes);
        assertNotNull(back);
        assertEquals(stats.build("x"), back.build("x"));
        assertEquals(52, back.numExamples());
        assertNull(
                ShardFeatureStatistics.of(0.02, "w", ROLES, false).fromBytes(bytes),
                "kept with another epsilon");
        assertNull(
                ShardFeatureStatistics.of(0.01, null, ROLES, false).fromBytes(bytes),
                "kept with a weight feature");
        assertNull(
                ShardFeatureStatistics.of(0.01, "w", Map.of(), false).fromBytes(bytes),
                "kept with other roles");
    }
}
