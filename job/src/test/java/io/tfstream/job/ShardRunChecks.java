package io.tfstream.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.shards.ShardManifest;
import io.tfstream.shards.ShardManifestCheck;
import io.tfstream.shards.ShardSuccessMarker;
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
        Path file = shard.resolveSibling(ShardManifest.fileNameOf(shard.getFileName().toString()));
        ShardManifest m = ShardManifest.fromJson(Files.readString(file));
        try (java.io.InputStream in = Files.newInputStream(shard)) {
            assertEquals(
                    List.of(), ShardManifestCheck.check(in, shard.toString(), m), file.toString());
        }
        assertEquals(shard.getFileName().toString(), m.shard());
        assertEquals(bucket, m.bucket());
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

    /** Every bucket has its _SUCCESS, listing exactly its shards with their record counts. */
    static void checkMarkers(Path base, List<Path> shards) throws Exception {
        Map<Path, List<Path>> byBucket = new HashMap<>();
        for (Path shard : shards) {
            byBucket.computeIfAbsent(shard.getParent(), k -> new ArrayList<>()).add(shard);
        }
        for (Map.Entry<Path, List<Path>> e : byBucket.entrySet()) {
            Path file = e.getKey().resolve(ShardSuccessMarker.FILE_NAME);
            assertTrue(Files.exists(file), "no marker in " + e.getKey());
            ShardSuccessMarker marker = ShardSuccessMarker.fromJson(Files.readString(file));
            assertEquals(base.relativize(e.getKey()).toString(), marker.bucket());
            List<String> names = new ArrayList<>();
            long records = 0;
            for (Path shard : e.getValue()) {
                names.add(shard.getFileName().toString());
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
                                    marker.bucket()
                                                    .replaceAll("/Split-[^/]*$", "")
                                                    .replace("dt=", "")
                                                    .replace("/hour=", "T")
                                            + ":00:00Z")
                            .plus(Duration.ofHours(1))
                            .toEpochMilli(),
                    marker.endMs(),
                    "end of " + marker.bucket());
        }
    }

    /** The shard a manifest is of, or {@code p} itself. */
    /** Reads a finished shard into {@code seen} and checks it against its manifest. */
    static ShardManifest readAndCheck(Path shard, Map<String, Integer> seen) throws Exception {
        try (io.tfstream.tfrecord.TfRecordReader r =
                io.tfstream.tfrecord.TfRecordFiles.openReader(
                        shard, io.tfstream.tfrecord.TfRecordReadOptions.defaults())) {
            while (r.next()) {
                seen.merge(java.util.HexFormat.of().formatHex(r.copy()), 1, Integer::sum);
            }
        }
        ShardManifest m =
                ShardManifest.fromJson(
                        Files.readString(
                                shard.resolveSibling(
                                        ShardManifest.fileNameOf(shard.getFileName().toString()))));
        try (var in = Files.newInputStream(shard)) {
            assertEquals(List.of(), ShardManifestCheck.check(in, shard.toString(), m));
        }
        return m;
    }

    static Path manifestShard(Path p) {
        String f = p.getFileName().toString();
        return ShardManifest.isManifest(f)
                ? p.resolveSibling(f.substring(0, f.length() - ShardManifest.SUFFIX.length()))
                : p;
    }

    static String key(byte[] record, String bucket) {
        return bucket + " " + java.util.HexFormat.of().formatHex(record);
    }

    /** Runs the CLI in this JVM; returns what it printed, failing the test on a non-zero exit. */
    static String cli(String... args) {
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        int code =
                io.tfstream.cli.TfstreamCli.run(
                        new java.io.PrintWriter(out), new java.io.PrintWriter(err), args);
        org.junit.jupiter.api.Assertions.assertEquals(0, code, err.toString());
        return out.toString();
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
     * {@code tfstream shards uploads PATH [more...]} against the S3Proxy at {@code endpoint};
     * returns what it printed.
     */
    public static String uploads(String path, String endpoint, Path credentials, String... more) {
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "shards",
                                "uploads",
                                path,
                                "--set",
                                "s3.endpoint=" + endpoint,
                                "--set",
                                "s3.path-style-access=true",
                                "--set",
                                "s3.credentials-file=" + credentials));
        args.addAll(List.of(more));
        return cli(args.toArray(String[]::new));
    }
}
