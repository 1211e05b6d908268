package io.tfstream.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.model.LateRecords;
import io.tfstream.api.model.ShardIndex;
import io.tfstream.api.model.SkewAction;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.shards.ShardSettings;
import io.tfstream.operators.shards.store.RecoverableShardStoreFactory;
import io.tfstream.operators.source.SourceRecordSerializer;
import io.tfstream.tfrecord.Compression;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamNode;
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
                        .setUidPrefix("train")
                        .build();
        ShardSettings s = shards.sink().settings();
        assertEquals(".tfrecord.gz", s.suffix());
        assertEquals("train", s.prefix());
        assertEquals(ZoneId.of("Europe/Paris"), s.zone());
        assertEquals("fp", s.schemaFingerprint());
        assertEquals("train-sink", shards.uid());
    }

    @Test
    void badSettingsAreNamed() {
        TfRecordShardsBuilder b = TfRecordShards.builder("/tmp/shards");
        BuilderErrors.assertNamed(failure(TfRecordShards.builder("")), "basePath");
        BuilderErrors.assertNamed(failure(b.setCompressionLevel(10)), "compressionLevel");
        b = TfRecordShards.builder("/tmp/shards");
        BuilderErrors.assertNamed(failure(b.setPrefix("_x")), "prefix");
        b = TfRecordShards.builder("/tmp/shards");
        BuilderErrors.assertNamed(failure(b.setTargetSize(0)), "targetSize");
        b = TfRecordShards.builder("/tmp/shards");
        BuilderErrors.assertNamed(failure(b.setMaxAge(Duration.ZERO)), "maxAge");
        b = TfRecordShards.builder("/tmp/shards");
        BuilderErrors.assertNamed(failure(b.setBucketPattern("'unclosed")), "bucketPattern");
        b = TfRecordShards.builder("/tmp/shards");
        BuilderErrors.assertNamed(failure(b.setManifests(false)), "successMarkers");
        b = TfRecordShards.builder("/tmp/shards");
        BuilderErrors.assertNamed(
                failure(b.setSuccessDelay(Duration.ofSeconds(-1))), "successDelay");
        b = TfRecordShards.builder("/tmp/shards");
        BuilderErrors.assertNamed(
                failure(b.setIndex(ShardIndex.DALI).setCompression(Compression.GZIP)), "index");
    }

    @Test
    void guardsAreNamedAndBadGuardSettingsToo() {
        BuilderErrors.assertNamed(
                failure(
                        TfRecordShards.builder("/tmp/shards")
                                .setSkewLimit(Duration.ZERO)
                                .setSkewAction(SkewAction.DEAD_LETTER)),
                "skewLimit");
        BuilderErrors.assertNamed(
                failure(
                        TfRecordShards.builder("/tmp/shards")
                                .setSkewLimit(Duration.ofDays(1))
                                .setSkewAction(null)),
                "skewAction");
        BuilderErrors.assertNamed(
                failure(TfRecordShards.builder("/tmp/shards").setLateRecords(null)), "lateRecords");
        assertTrue(
                assertThrows(
                                IllegalArgumentException.class,
                                () -> TfRecordShards.builder("/tmp/shards").setUidPrefix(""))
                        .getMessage()
                        .startsWith("uidPrefix"));
    }

    @Test
    void byDefaultOnlyTheLateBucketGuardRunsAndWritesLateRecords() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        GuardedRecords g =
                TfRecordShards.builder("/tmp/shards").build().guards().applyTo(records(env));
        g.records().sinkTo(new DiscardingSink<>());
        assertEquals(Set.of("late-bucket-guard"), guardUids(env));
        assertTrue(g.deadLetters().isEmpty(), "late records are written by default");
        // Without markers no bucket is ever complete: no guard at all.
        StreamExecutionEnvironment plain = StreamExecutionEnvironment.getExecutionEnvironment();
        DataStream<SourceRecord> in = records(plain);
        GuardedRecords none =
                TfRecordShards.builder("/tmp/shards")
                        .setSuccessMarkers(false)
                        .build()
                        .guards()
                        .applyTo(in);
        assertSame(in, none.records());
    }

    @Test
    void deadLetteringGuardsJoinTheirDeadLetters() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        GuardedRecords g =
                TfRecordShards.builder("/tmp/shards")
                        .setSkewLimit(Duration.ofDays(7))
                        .setLateRecords(LateRecords.DEAD_LETTER)
                        .setUidPrefix("train")
                        .build()
                        .guards()
                        .applyTo(records(env));
        g.records().sinkTo(new DiscardingSink<>());
        g.deadLetters().orElseThrow().sinkTo(new DiscardingSink<>());
        assertEquals(Set.of("train-skew-guard", "train-late-bucket-guard"), guardUids(env));
    }

    @Test
    void skewedRecordsBucketedByProcessingTimeSetTheSinksSkew() {
        TfRecordShards shards =
                TfRecordShards.builder("/tmp/shards")
                        .setSkewLimit(Duration.ofDays(2))
                        .setSkewAction(SkewAction.PROCESSING_TIME)
                        .build();
        assertEquals(Duration.ofDays(2), shards.settings().maxBucketSkew());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        GuardedRecords g = shards.guards().applyTo(records(env));
        g.records().sinkTo(new DiscardingSink<>());
        assertTrue(guardUids(env).contains("bucket-skew-guard"), "the guard still counts");
        assertTrue(g.deadLetters().isEmpty());
        assertNull(
                TfRecordShards.builder("/tmp/shards")
                        .setSkewLimit(Duration.ofDays(2))
                        .build()
                        .settings()
                        .maxBucketSkew());
    }

    private static DataStream<SourceRecord> records(StreamExecutionEnvironment env) {
        return env.fromData(
                SourceRecordSerializer.typeInfo(), SourceRecord.of(new byte[0], "in", 0, 0, 0));
    }

    private static Set<String> guardUids(StreamExecutionEnvironment env) {
        return env.getStreamGraph().getStreamNodes().stream()
                .map(StreamNode::getTransformationUID)
                .filter(u -> u != null && !u.isEmpty())
                .collect(Collectors.toSet());
    }
}
