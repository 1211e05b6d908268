package io.tfstream.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordWriter;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ShardManifestTest {
    @TempDir Path dir;

    @Test
    void theJsonHoldsEveryFieldAndReadsBack() throws IOException {
        ShardStats s = new ShardStats();
        s.add("examples", 3, 17, 84, 1_764_000_000_000L);
        s.add("examples", 3, 20, 80, 1_764_000_360_000L);
        s.add("/in/a.tfrecord", ShardStats.FILE_PARTITION, 96, 10, 1_764_000_000_500L);
        ShardManifest m =
                ShardManifest.of(
                        "part-u-3.tfrecord",
                        "dt=2025-11-24/hour=16",
                        s,
                        200,
                        Compression.NONE,
                        0xfe01L,
                        "f00d",
                        4);
        String json = m.toJson();
        assertEquals(
                "{\"shard\":\"part-u-3.tfrecord\",\"bucket\":\"dt=2025-11-24/hour=16\","
                        + "\"records\":3,\"record_bytes\":174,\"bytes\":200,\"compression\":\"none\","
                        + "\"crc32c\":\"0000fe01\",\"schema_fingerprint\":\"f00d\","
                        + "\"min_event_time_ms\":1764000000000,"
                        + "\"min_event_time\":\"2025-11-24T16:00:00Z\","
                        + "\"max_event_time_ms\":1764000360000,"
                        + "\"max_event_time\":\"2025-11-24T16:06:00Z\",\"segments\":4,"
                        + "\"sources\":[{\"file\":\"/in/a.tfrecord\",\"first_byte_offset\":96,"
                        + "\"last_byte_offset\":96,\"records\":1},{\"topic\":\"examples\","
                        + "\"partition\":3,\"first_offset\":17,\"last_offset\":20,\"records\":2}]}",
                json);
        assertEquals(m, ShardManifest.fromJson(json));
        ShardManifest named = m.withSchema("_tfstream/schemas/f00d/schema.pbtxt");
        assertTrue(
                named.toJson().endsWith(",\"schema\":\"_tfstream/schemas/f00d/schema.pbtxt\"}"),
                named.toJson());
        assertEquals(named, ShardManifest.fromJson(named.toJson()));
        ShardManifest withStatistics = named.withStatistics("_part-u-3.tfrecord.statistics");
        assertTrue(
                withStatistics
                        .toJson()
                        .endsWith(
                                "schema.pbtxt\",\"statistics\":\"_part-u-3.tfrecord.statistics\"}"),
                withStatistics.toJson());
        assertEquals(withStatistics, ShardManifest.fromJson(withStatistics.toJson()));
        ShardManifest stamped =
                withStatistics.withHistory(new ShardManifest.History("0a1b2c3d4e5f6071", 42));
        assertTrue(
                stamped.toJson()
                        .endsWith(",\"history\":{\"id\":\"0a1b2c3d4e5f6071\",\"checkpoint\":42}}"),
                stamped.toJson());
        assertEquals(stamped, ShardManifest.fromJson(stamped.toJson()));
        assertEquals(null, withStatistics.history(), "manifests of earlier versions: not known");
        assertEquals("part-u-3.tfrecord.manifest.json", ShardManifest.fileNameOf(m.shard()));
        assertTrue(ShardManifest.isManifest("part-u-3.tfrecord.manifest.json"));
    }

    /** Manifests of the compacting shard sink said "parts" where they now say "segments". */
    @Test
    void aManifestWithPartsInsteadOfSegmentsStillReads() throws IOException {
        ShardManifest m =
                ShardManifest.fromJson(
                        "{\"shard\":\"part-u-3.tfrecord\",\"bucket\":\"b\",\"records\":0,"
                                + "\"record_bytes\":0,\"bytes\":0,\"compression\":\"gzip\","
                                + "\"crc32c\":\"00000000\",\"schema_fingerprint\":null,"
                                + "\"min_event_time_ms\":null,\"max_event_time_ms\":null,"
                                + "\"parts\":3,\"sources\":[]}");
        assertEquals(3, m.segments());
        assertTrue(m.toJson().contains("\"segments\":3"), m.toJson());
    }

    @Test
    void aManifestMissingAFieldIsRejectedByName() {
        IOException e =
                assertThrows(
                        IOException.class,
                        () -> ShardManifest.fromJson("{\"shard\":\"x\",\"sources\":[]}"));
        assertEquals("shard manifest has no 'crc32c'", e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Compression.class)
    void aShardAgreesWithItsManifestAndEveryChangeIsFound(Compression c) throws IOException {
        Path shard = dir.resolve("part-1" + c);
        ShardStats s = new ShardStats();
        Random rnd = new Random(c.ordinal());
        try (TfRecordWriter w = TfRecordFiles.newWriter(shard, c)) {
            for (int i = 0; i < 300; i++) {
                byte[] r = new byte[rnd.nextInt(200)];
                rnd.nextBytes(r);
                w.write(r);
                s.add("t", 0, i, r.length, i);
            }
        }
        byte[] bytes = Files.readAllBytes(shard);
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        ShardManifest m =
                ShardManifest.of(
                        shard.getFileName().toString(),
                        "",
                        s,
                        bytes.length,
                        c,
                        crc.getValue(),
                        "f",
                        1);
        try (InputStream in = Files.newInputStream(shard)) {
            assertEquals(List.of(), ShardManifestCheck.check(in, shard.toString(), m));
        }
        ShardManifest fewer =
                new ShardManifest(
                        m.shard(),
                        m.bucket(),
                        299,
                        m.recordBytes(),
                        m.bytes(),
                        c,
                        m.crc32c(),
                        "f",
                        null,
                        null,
                        1,
                        List.of(),
                        null,
                        null,
                        null);
        try (InputStream in = Files.newInputStream(shard)) {
            assertEquals(
                    List.of("records: manifest 299, file 300"),
                    ShardManifestCheck.check(in, shard.toString(), fewer));
        }
        // a file changed after the fact (the same length, another last byte) fails its CRC32C
        bytes[bytes.length - 1] ^= 1;
        Files.write(shard, bytes);
        try (InputStream in = Files.newInputStream(shard)) {
            List<String> problems = ShardManifestCheck.check(in, shard.toString(), m);
            assertTrue(
                    problems.get(problems.size() - 1).startsWith("crc32c: manifest "),
                    "" + problems);
        } catch (IOException damaged) {
            // the reader found the damage first (a record or stream CRC): also a failed check
            assertTrue(damaged.getMessage().contains(shard.toString()), damaged.getMessage());
        }
    }

    @Test
    void aSuccessMarkerListsItsShardsSortedWithTotals() throws IOException {
        ShardStats s = new ShardStats();
        s.add("t", 0, 1, 10, 5);
        ShardManifest b = ShardManifest.of("part-b", "x", s, 40, Compression.NONE, 1, "f", 1);
        s.add("t", 0, 2, 10, 6);
        ShardManifest a = ShardManifest.of("part-a", "x", s, 70, Compression.NONE, 1, "f", 1);
        ShardSuccessMarker m =
                ShardSuccessMarker.of(
                        "x",
                        Instant.parse("2026-11-24T11:00:00Z").toEpochMilli(),
                        List.of("j1"),
                        List.of(b, a));
        assertEquals(
                "{\"bucket\":\"x\",\"end_ms\":1795518000000,\"end\":\"2026-11-24T11:00:00Z\","
                        + "\"records\":3,\"bytes\":110,\"jobs\":[\"j1\"],"
                        + "\"shards\":[{\"shard\":\"part-a\",\"records\":2,"
                        + "\"bytes\":70},{\"shard\":\"part-b\",\"records\":1,\"bytes\":40}]}",
                m.toJson());
        assertEquals(m, ShardSuccessMarker.fromJson(m.toJson()));
        ShardSuccessMarker withStatistics =
                m.withStatistics(List.of("_statistics/Split-train/FeatureStats.pb"));
        assertTrue(
                withStatistics
                        .toJson()
                        .endsWith("\"statistics\":[\"_statistics/Split-train/FeatureStats.pb\"]}"),
                withStatistics.toJson());
        assertEquals(withStatistics, ShardSuccessMarker.fromJson(withStatistics.toJson()));
    }

    /**
     * A restored history lists its ancestors' shards only up to the checkpoint it continues from,
     * its own whatever their checkpoint; unknown histories and unstamped manifests are not held.
     */
    @Test
    void aLineageHoldsEachAncestorUpToItsCutAndItsOwnHistoryWhole() throws Exception {
        List<ShardSuccessMarker.Cut> lineage =
                List.of(
                        new ShardSuccessMarker.Cut("a", 7),
                        new ShardSuccessMarker.Cut("b", 12),
                        new ShardSuccessMarker.Cut("c", Long.MAX_VALUE));
        assertTrue(ShardSuccessMarker.inLineage(lineage, new ShardManifest.History("a", 7)));
        assertTrue(!ShardSuccessMarker.inLineage(lineage, new ShardManifest.History("a", 8)));
        assertTrue(ShardSuccessMarker.inLineage(lineage, new ShardManifest.History("b", 8)));
        assertTrue(!ShardSuccessMarker.inLineage(lineage, new ShardManifest.History("b", 13)));
        assertTrue(ShardSuccessMarker.inLineage(lineage, new ShardManifest.History("c", 13)));
        assertTrue(
                ShardSuccessMarker.inLineage(
                        lineage, new ShardManifest.History("c", Long.MAX_VALUE)));
        assertTrue(!ShardSuccessMarker.inLineage(lineage, new ShardManifest.History("d", 1)));
        assertTrue(!ShardSuccessMarker.inLineage(lineage, null));

        ShardSuccessMarker m =
                new ShardSuccessMarker("x", 1, 0, 0, List.of("j"), List.of())
                        .withHistories(lineage);
        assertTrue(
                m.toJson()
                        .contains(
                                "\"histories\":[{\"id\":\"a\",\"through\":7},"
                                        + "{\"id\":\"b\",\"through\":12},{\"id\":\"c\"}]"),
                m.toJson());
        assertEquals(m, ShardSuccessMarker.fromJson(m.toJson()));
    }

    @Test
    void aMarkerOfAnEarlierVersionReadsWithNoJobs() throws Exception {
        ShardSuccessMarker m =
                ShardSuccessMarker.fromJson(
                        "{\"bucket\":\"x\",\"end_ms\":1,\"records\":0,\"bytes\":0,\"shards\":[]}");
        assertEquals(List.of(), m.jobs());
        assertEquals(List.of(), m.histories());
    }
}
