package io.tfstream.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.operators.shards.ShardSettings;
import io.tfstream.operators.shards.store.RecoverableShardStoreFactory;
import io.tfstream.tfrecord.Compression;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** {@link TfRecordShardsBuilder}: defaults, the required path, bad settings named at build. */
class TfRecordShardsBuilderTest {
    private static String failure(TfRecordShardsBuilder b) {
        return assertThrows(IllegalArgumentException.class, b::build).getMessage();
    }

    @Test
    void defaultsAreThoseOfTfstreamRun() {
        TfRecordShards shards = TfRecordShards.builder("/tmp/shards").build();
        ShardSettings s = shards.settings();
        assertEquals("/tmp/shards", s.basePath());
        assertTrue(s.storeFactory() instanceof RecoverableShardStoreFactory);
        assertEquals(Compression.NONE, s.compression());
        assertEquals(6, s.compressionLevel());
        assertEquals("part", s.prefix());
        assertEquals(128L << 20, s.targetSize());
        assertEquals(Duration.ofMinutes(15), s.maxAge());
        assertEquals("'dt='yyyy-MM-dd/'hour='HH", s.bucketPattern());
        assertEquals(ZoneOffset.UTC, s.zone());
        assertNull(s.maxBucketSkew());
        assertTrue(s.manifests());
        assertTrue(s.successMarkers());
        assertEquals(Duration.ofMinutes(1), s.successDelay());
        assertEquals("shard-sink", shards.uid());
        assertEquals(".tfrecord", s.suffix());
    }

    @Test
    void settingsReachTheSink() {
        TfRecordShards shards =
                TfRecordShards.builder("/tmp/shards")
                        .setCompression(Compression.GZIP)
                        .setCompressionLevel(9)
                        .setPrefix("train")
                        .setTargetSize(1 << 20)
                        .setMaxAge(Duration.ofMinutes(1))
                        .setBucketPattern("yyyy-MM-dd")
                        .setZone(ZoneId.of("Europe/Paris"))
                        .setSuccessMarkers(false)
                        .setManifests(false)
                        .setSchemaFingerprint("fp")
                        .setUids("s", "c", "r")
                        .build();
        ShardSettings s = shards.sink().settings();
        assertEquals(".tfrecord.gz", s.suffix());
        assertEquals("train", s.prefix());
        assertEquals(ZoneId.of("Europe/Paris"), s.zone());
        assertEquals("fp", s.schemaFingerprint());
        assertEquals("s", shards.uid());
    }

    @Test
    void badSettingsAreNamed() {
        TfRecordShardsBuilder b = TfRecordShards.builder("/tmp/shards");
        assertTrue(failure(TfRecordShards.builder("")).startsWith("basePath"));
        assertTrue(failure(b.setCompressionLevel(10)).startsWith("compressionLevel"));
        b = TfRecordShards.builder("/tmp/shards");
        assertTrue(failure(b.setPrefix("_x")).startsWith("prefix"));
        b = TfRecordShards.builder("/tmp/shards");
        assertTrue(failure(b.setTargetSize(0)).startsWith("targetSize"));
        b = TfRecordShards.builder("/tmp/shards");
        assertTrue(failure(b.setMaxAge(Duration.ZERO)).startsWith("maxAge"));
        b = TfRecordShards.builder("/tmp/shards");
        assertTrue(failure(b.setBucketPattern("'unclosed")).startsWith("bucketPattern"));
        b = TfRecordShards.builder("/tmp/shards");
        assertTrue(failure(b.setManifests(false)).startsWith("successMarkers"));
        b = TfRecordShards.builder("/tmp/shards");
        assertTrue(failure(b.setSuccessDelay(Duration.ofSeconds(-1))).startsWith("successDelay"));
        b = TfRecordShards.builder("/tmp/shards");
        assertTrue(failure(b.setMaxBucketSkew(Duration.ZERO)).startsWith("maxBucketSkew"));
    }
}
