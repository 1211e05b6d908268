package io.tfstream.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Where the metadata of a shard goes in each layout, and where readers look for it. */
class ShardLayoutTest {
    private static final String BUCKET = "dt=2026-11-27/hour=10";

    @Test
    void theSeparateLayoutMirrorsTheBucketsUnderTheMetadataTreeWithHiddenNames() {
        ShardLayout l = ShardLayout.SEPARATE;
        assertEquals("s3://b/shards/" + BUCKET, ShardLayout.dataDir("s3://b/shards/", BUCKET));
        // every name in the tree starts with '_': hidden to listers at any depth
        String meta = "_tfstream/_dt=2026-11-27/_hour=10";
        assertEquals("s3://b/shards/" + meta, l.metadataDir("s3://b/shards", BUCKET));
        assertEquals(
                "s3://b/shards/" + meta + "/_Split-train/_part-0.tfrecord.gz.manifest.json",
                l.manifestPath("s3://b/shards", BUCKET + "/Split-train", "part-0.tfrecord.gz"));
        assertEquals("/out/shards/" + meta + "/_SUCCESS", l.markerPath("/out/shards", BUCKET));
        assertEquals(
                "/out/shards/" + meta + "/_statistics/Split-train/FeatureStats.pb",
                l.statisticsPath("/out/shards", BUCKET, "train"));
        assertEquals(
                "/out/shards/" + meta + "/_statistics/FeatureStats.pb",
                l.statisticsPath("/out/shards", BUCKET, null));
        assertEquals(
                "_part-1.tfrecord.statistics", ShardLayout.shardStatisticsName("part-1.tfrecord"));
        assertEquals(
                "/out/shards/" + meta + "/_part-0.tfrecord.idx",
                l.indexPath("/out/shards/", BUCKET, "part-0.tfrecord"));
        assertEquals("/out/_tfstream", l.metadataDir("/out", ""), "no bucket pattern");
        assertEquals("_tfstream/_schemas/_abc/_schema.pbtxt", ShardLayout.schemaPath("abc"));
        assertTrue(ShardLayout.isSplitDir("_Split-train") && ShardLayout.isSplitDir("Split-a"));
    }

    @Test
    void theInlineLayoutKeepsEverythingBesideTheShards() {
        ShardLayout l = ShardLayout.INLINE;
        assertEquals("/out/" + BUCKET, l.metadataDir("/out", BUCKET));
        assertEquals(
                "/out/" + BUCKET + "/part-0.tfrecord.manifest.json",
                l.manifestPath("/out", BUCKET, "part-0.tfrecord"));
        assertEquals("/out/" + BUCKET + "/_SUCCESS", l.markerPath("/out", BUCKET));
        assertEquals(
                "/out/" + BUCKET + "/_statistics/Split-eval/FeatureStats.pb",
                l.statisticsPath("/out", BUCKET, "eval"));
    }

    @Test
    void readersLookBesideTheShardThenInTheTreeOfEachEnclosingDirectory() {
        assertEquals(
                List.of(
                        "/out/shards/dt=1/part.manifest.json",
                        "/out/shards/dt=1/_tfstream/_part.manifest.json",
                        "/out/shards/_tfstream/_dt=1/_part.manifest.json",
                        "/out/_tfstream/_shards/_dt=1/_part.manifest.json"),
                ShardLayout.manifestCandidates("/out/shards/dt=1/part"));
        assertEquals(
                List.of(
                        "s3://b/a/part.idx",
                        "s3://b/a/_tfstream/_part.idx",
                        "s3://b/_tfstream/_a/_part.idx"),
                ShardLayout.indexCandidates("s3://b/a/part"),
                "never above a URI's authority");
        // what each layout writes is among the places readers try
        String shard = "/base/" + BUCKET + "/Split-eval/part-3.tfrecord.gz";
        for (ShardLayout l : ShardLayout.values()) {
            String written = l.manifestPath("/base", BUCKET + "/Split-eval", "part-3.tfrecord.gz");
            assertTrue(ShardLayout.manifestCandidates(shard).contains(written), written);
            String index = l.indexPath("/base", BUCKET + "/Split-eval", "part-3.tfrecord.gz");
            assertTrue(ShardLayout.indexCandidates(shard).contains(index), index);
        }
    }
}
