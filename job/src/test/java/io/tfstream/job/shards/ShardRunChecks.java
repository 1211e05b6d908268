package io.tfstream.job.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.job.S3Settings;
import io.tfstream.operators.shards.store.S3ShardStoreFactory;
import io.tfstream.operators.shards.store.SnapshotReferences;
import io.tfstream.operators.shards.store.UploadCleanup;
import io.tfstream.shards.ShardLayout;
import io.tfstream.shards.ShardManifest;
import io.tfstream.shards.ShardManifestCheck;
import io.tfstream.shards.ShardSuccessMarker;
import io.tfstream.testkit.TestFiles;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.util.TimeUtils;

/** What the shard ITCases check of a finished run's shards, manifests and markers. */
public final class ShardRunChecks {
    private static final DateTimeFormatter BUCKET =
            DateTimeFormatter.ofPattern("'dt='yyyy-MM-dd/'hour='HH").withZone(ZoneOffset.UTC);

    private ShardRunChecks() {}

    /**
     * The manifest beside {@code shard} agrees with its bytes (size, CRC32C, records), its bucket,
     * the schema, and the records' event times and sources.
     */
    static int checkManifest(
            Path shard, String bucket, long records, String topic, String fingerprint)
            throws Exception {
        Path file = manifestOf(shard);
        ShardManifest m = ShardManifest.fromJson(Files.readString(file));
        try (java.io.InputStream in = Files.newInputStream(shard)) {
            assertEquals(
                    List.of(), ShardManifestCheck.check(in, shard.toString(), m), file.toString());
        }
        assertEquals(shard.getFileName().toString(), m.shard());
        assertEquals(bucket, m.bucket());
        if (m.schema() != null) {
            checkSchemaCopy(file, m);
        }
        assertEquals(records, m.records());
        assertEquals(fingerprint, m.schemaFingerprint());
        // (with data splits the bucket ends in /Split-<name>; its time is the part before)
        String timeBucket = bucket.replaceAll("/Split-[^/]*$", "");
        assertEquals(
                timeBucket, BUCKET.format(Instant.ofEpochMilli(m.minEventTimeMs())), "min time");
        assertEquals(
                timeBucket, BUCKET.format(Instant.ofEpochMilli(m.maxEventTimeMs())), "max time");
        assertTrue(m.segments() >= 1);
        long fromSources = 0;
        for (ShardManifest.Source source : m.sources()) {
            assertEquals(topic, source.topic());
            assertTrue(source.first() <= source.last());
            fromSources += source.records();
        }
        assertEquals(records, fromSources, "records by source in " + file);
        return m.segments();
    }

    /**
     * Every event-time bucket has its _SUCCESS in the metadata tree, listing exactly its shards
     * (with data splits those of every split, as {@code Split-<name>/<file>}) with their record
     * counts; the bucket directories hold shards only.
     */
    static void checkMarkers(Path base, List<Path> shards) throws Exception {
        Map<Path, List<Path>> byBucket = byTimeBucket(shards);
        for (Map.Entry<Path, List<Path>> e : byBucket.entrySet()) {
            Path file = metadataDir(base, e.getKey()).resolve(ShardSuccessMarker.FILE_NAME);
            assertTrue(Files.exists(file), "no marker of " + e.getKey());
            assertTrue(
                    !Files.exists(e.getKey().resolve(ShardSuccessMarker.FILE_NAME)),
                    "no marker among the shards of " + e.getKey());
            ShardSuccessMarker marker = ShardSuccessMarker.fromJson(Files.readString(file));
            assertEquals(base.relativize(e.getKey()).toString(), marker.bucket());
            List<String> names = new ArrayList<>();
            long records = 0;
            for (Path shard : e.getValue()) {
                names.add(e.getKey().relativize(shard).toString());
                try (TfRecordReader r =
                        TfRecordFiles.openReader(shard, TfRecordReadOptions.defaults())) {
                    while (r.next()) {
                        records++;
                    }
                }
            }
            names.sort(null);
            assertEquals(
                    names,
                    marker.shards().stream().map(ShardSuccessMarker.Shard::shard).toList(),
                    file.toString());
            assertEquals(records, marker.records(), file.toString());
            assertEquals(
                    Instant.parse(
                                    marker.bucket().replace("dt=", "").replace("/hour=", "T")
                                            + ":00:00Z")
                            .plus(Duration.ofHours(1))
                            .toEpochMilli(),
                    marker.endMs(),
                    "end of " + marker.bucket());
        }
    }

    /**
     * Each bucket's marker names its statistics ({@code shards.statistics}): one file per data
     * split of {@code splits} (one for the bucket without), each equal to TFDV's statistics of the
     * records of that split's finished shards in one pass, as the job keeps them (lenient, sketched
     * top values, epsilon 0.01, no weights, no schema roles).
     */
    static void checkStatistics(Path base, List<Path> shards, List<String> splits)
            throws Exception {
        checkStatistics(base, shards, splits, false);
    }

    /**
     * As {@link #checkStatistics(Path, List, List)}, and with {@code reports} ({@code
     * shards.statistics-report}) each statistics file has its page beside it, of its record count.
     */
    static void checkStatistics(Path base, List<Path> shards, List<String> splits, boolean reports)
            throws Exception {
        Map<Path, List<Path>> byBucket = byTimeBucket(shards);
        io.tfstream.stats.StatsOptions options =
                io.tfstream.stats.StatsOptions.DEFAULTS.withSketchTopValues(true);
        for (Map.Entry<Path, List<Path>> e : byBucket.entrySet()) {
            Path meta = metadataDir(base, e.getKey());
            ShardSuccessMarker marker =
                    ShardSuccessMarker.fromJson(
                            Files.readString(meta.resolve(ShardSuccessMarker.FILE_NAME)));
            List<String> want =
                    splits.isEmpty()
                            ? List.of("_statistics/FeatureStats.pb")
                            : splits.stream()
                                    .map(s -> "_statistics/Split-" + s + "/FeatureStats.pb")
                                    .toList();
            assertEquals(want, marker.statistics(), "statistics of " + e.getKey());
            for (int i = 0; i < want.size(); i++) {
                String split = splits.isEmpty() ? null : "Split-" + splits.get(i);
                io.tfstream.stats.ExampleStatistics expected =
                        io.tfstream.stats.ExampleStatistics.lenient(options, null, Map.of());
                for (Path shard : e.getValue()) {
                    if (split != null
                            && !shard.getParent().getFileName().toString().equals(split)) {
                        continue;
                    }
                    try (TfRecordReader r =
                            TfRecordFiles.openReader(shard, TfRecordReadOptions.defaults())) {
                        while (r.next()) {
                            expected.add(org.tensorflow.example.Example.parseFrom(r.copy()));
                        }
                    }
                }
                var got =
                        org.tensorflow.metadata.v0.DatasetFeatureStatisticsList.parseFrom(
                                Files.readAllBytes(meta.resolve(want.get(i))));
                assertEquals(1, got.getDatasetsCount(), want.get(i));
                io.tfstream.testing.StatisticsAssertions.assertSameStatistics(
                        expected.build(""), got.getDatasets(0));
                if (reports) {
                    String page =
                            Files.readString(
                                    meta.resolve(want.get(i)).resolveSibling("report.html"));
                    assertTrue(
                            page.contains(
                                    "data-value=\""
                                            + got.getDatasets(0).getNumExamples()
                                            + "\">"
                                            + got.getDatasets(0).getNumExamples()
                                            + " examples"),
                            "the page of " + want.get(i));
                }
            }
        }
    }

    /** {@code shards} by the directory of their event-time bucket (a split's parent). */
    private static Map<Path, List<Path>> byTimeBucket(List<Path> shards) {
        Map<Path, List<Path>> byBucket = new HashMap<>();
        for (Path shard : shards) {
            Path dir = shard.getParent();
            Path time =
                    ShardLayout.isSplitDir(dir.getFileName().toString()) ? dir.getParent() : dir;
            byBucket.computeIfAbsent(time, k -> new ArrayList<>()).add(shard);
        }
        return byBucket;
    }

    /**
     * Whether {@code p} is a statistics file of the shard sink (a shard's or a bucket's, or a
     * bucket's page of them).
     */
    static boolean isStatistics(Path p) {
        String f = p.getFileName().toString();
        return f.endsWith(ShardLayout.SHARD_STATISTICS_SUFFIX)
                || ((f.equals(ShardLayout.STATISTICS_FILE) || f.equals("report.html"))
                        && p.toString().contains("/" + ShardLayout.STATISTICS_DIR + "/"));
    }

    /**
     * The manifest at {@code file} names the copy of its schema, which is there, under the base
     * path the manifest's metadata tree is in, and has the manifest's fingerprint.
     */
    public static void checkSchemaCopy(Path file, ShardManifest m) throws Exception {
        assertEquals(ShardLayout.schemaPath(m.schemaFingerprint()), m.schema(), file.toString());
        Path base = file;
        while (!base.getFileName().toString().equals(ShardLayout.METADATA_DIR)) {
            base = base.getParent();
        }
        Path copy = base.getParent().resolve(m.schema());
        assertEquals(
                m.schemaFingerprint(),
                io.tfstream.spec.SchemaFingerprint.of(Files.readAllBytes(copy), "schema.pbtxt"),
                copy.toString());
    }

    /** The metadata directory of data directory {@code dir} under base path {@code base}. */
    static Path metadataDir(Path base, Path dir) {
        return Path.of(
                ShardLayout.SEPARATE.metadataDir(base.toString(), base.relativize(dir).toString()));
    }

    /**
     * The manifest of {@code shard} in the metadata tree of the layout that wrote it (or beside it,
     * written before the separate layout).
     */
    public static Path manifestOf(Path shard) {
        return ShardLayout.findManifest(shard)
                .orElseThrow(() -> new AssertionError("no manifest of " + shard));
    }

    /** Reads a finished shard into {@code seen} and checks it against its manifest. */
    public static ShardManifest readAndCheck(Path shard, Map<String, Integer> seen)
            throws Exception {
        try (io.tfstream.tfrecord.TfRecordReader r =
                io.tfstream.tfrecord.TfRecordFiles.openReader(
                        shard, io.tfstream.tfrecord.TfRecordReadOptions.defaults())) {
            while (r.next()) {
                seen.merge(java.util.HexFormat.of().formatHex(r.copy()), 1, Integer::sum);
            }
        }
        ShardManifest m = ShardManifest.fromJson(Files.readString(manifestOf(shard)));
        try (var in = Files.newInputStream(shard)) {
            assertEquals(List.of(), ShardManifestCheck.check(in, shard.toString(), m));
        }
        return m;
    }

    /** The shard manifest {@code p} under base path {@code base} is of, or {@code p} itself. */
    static Path manifestShard(Path base, Path p) {
        String f = p.getFileName().toString();
        if (!ShardManifest.isManifest(f)) {
            return p;
        }
        Path meta = base.resolve(ShardLayout.METADATA_DIR);
        String shard = f.substring(0, f.length() - ShardManifest.SUFFIX.length());
        if (!p.startsWith(meta)) {
            return p.resolveSibling(shard); // the inline layout
        }
        Path dir = base;
        for (Path level : meta.relativize(p.getParent())) {
            dir = dir.resolve(level.toString().substring(1)); // names in the tree start with '_'
        }
        return dir.resolve(shard.substring(1));
    }

    static String key(byte[] record, String bucket) {
        return bucket + " " + java.util.HexFormat.of().formatHex(record);
    }

    /**
     * The shards the {@code _SUCCESS} markers under {@code base} list (what a reader that waits for
     * the markers reads), a shard once per marker that lists it.
     */
    public static List<Path> listedShards(Path base) throws java.io.IOException {
        List<Path> shards = new ArrayList<>();
        for (Path file : TestFiles.regularFiles(base)) {
            if (!file.getFileName().toString().equals(ShardSuccessMarker.FILE_NAME)) {
                continue;
            }
            ShardSuccessMarker marker = ShardSuccessMarker.fromJson(Files.readString(file));
            for (ShardSuccessMarker.Shard s : marker.shards()) {
                shards.add(base.resolve(marker.bucket()).resolve(s.shard()));
            }
        }
        return shards;
    }

    /**
     * What {@code tfstream shards uploads PATH [more]} prints, from the engine the command runs
     * ({@link UploadCleanup}) over {@code s3} (null: a path on another file system); {@code more}
     * takes the command's {@code --older-than}, {@code --job}, {@code --abort}, {@code
     * --checkpoints} and {@code --keep-savepoint}.
     */
    public static String cleanUploads(String path, S3ShardStoreFactory s3, String... more) {
        Duration olderThan = Duration.ZERO;
        String job = null;
        boolean abort = false;
        List<String> checkpoints = new ArrayList<>();
        List<String> savepoints = new ArrayList<>();
        for (int i = 0; i < more.length; i++) {
            switch (more[i]) {
                case "--older-than" -> olderThan = TimeUtils.parseDuration(more[++i]);
                case "--job" -> job = more[++i];
                case "--abort" -> abort = true;
                case "--checkpoints" -> checkpoints.add(more[++i]);
                case "--keep-savepoint" -> savepoints.add(more[++i]);
                default -> throw new IllegalArgumentException("not an option here: " + more[i]);
            }
        }
        try {
            SnapshotReferences held =
                    checkpoints.isEmpty() && savepoints.isEmpty()
                            ? null
                            : SnapshotReferences.read(
                                    checkpoints, savepoints, Duration.ofMinutes(10));
            return UploadCleanup.run(
                            new UploadCleanup.Request(
                                    path, "part", olderThan, job, abort, held, s3),
                            java.time.Instant.now())
                    .text();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The S3 shard store of {@code basePath} on an S3Proxy at {@code endpoint}, path style. */
    public static io.tfstream.operators.shards.store.S3ShardStoreFactory s3ProxyStore(
            String basePath, String endpoint, Path credentials) {
        return new io.tfstream.operators.shards.store.S3ShardStoreFactory(
                basePath,
                "part",
                endpoint,
                true,
                null,
                credentials.toString(),
                io.tfstream.operators.shards.store.S3ShardStoreFactory.DEFAULT_PART_SIZE);
    }

    /**
     * {@link #cleanUploads} of an S3 path on the S3Proxy at {@code endpoint}; snapshots on S3 are
     * read with the same settings, as the command reads them ({@code --set s3.*}).
     */
    public static String uploads(String path, String endpoint, Path credentials, String... more) {
        if (List.of(more).contains("--checkpoints") || List.of(more).contains("--keep-savepoint")) {
            S3Settings.initializeFileSystems(endpoint, true, credentials);
        }
        return cleanUploads(path, s3ProxyStore(path, endpoint, credentials), more);
    }
}
