package io.tfstream.e2e.tfrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.model.LostShardAction;
import io.tfstream.api.model.ShardIndex;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.cli.TfstreamCli;
import io.tfstream.e2e.parse.TfParseOracle;
import io.tfstream.operators.shards.ShardSettings;
import io.tfstream.operators.shards.TfRecordShardSink;
import io.tfstream.operators.shards.store.RecoverableShardStoreFactory;
import io.tfstream.operators.source.SourceRecordSerializer;
import io.tfstream.shards.ShardLayout;
import io.tfstream.shards.ShardManifest;
import io.tfstream.shards.ShardManifestCheck;
import io.tfstream.shards.ShardSuccessMarker;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testkit.MiniClusters;
import io.tfstream.testkit.TestFiles;
import io.tfstream.tfrecord.Compression;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Shards written by the real shard sink (shards kept open across checkpoints: gzip members per
 * checkpoint, one zlib stream with sync flushes) on a MiniCluster, then read with TensorFlow's own
 * {@code TFRecordReaderV2}: every finished shard of every compression opens and parses, and
 * together they hold each input record once.
 */
class ShardSinkTensorFlowITCase {
    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(2);

    @TempDir Path dir;

    @ParameterizedTest
    @EnumSource(Compression.class)
    void tensorFlowReadsEveryFinishedShard(Compression c) throws Exception {
        List<byte[]> values = Seed001Corpus.records(4000, 11 + c.ordinal());
        List<SourceRecord> records = new ArrayList<>();
        long start = 1_700_000_000_000L;
        for (int i = 0; i < values.size(); i++) {
            // Two hours of event time: records land in two or three hourly buckets.
            records.add(SourceRecord.of(values.get(i), "in", 0, i, start + i * 1800L));
        }
        Path base = dir.resolve("shards-" + c);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(100);
        env.fromData(records, SourceRecordSerializer.typeInfo())
                .map(ShardSinkTensorFlowITCase::slowly)
                .returns(SourceRecordSerializer.typeInfo())
                .assignTimestampsAndWatermarks(
                        WatermarkStrategy.<SourceRecord>forMonotonousTimestamps()
                                .withTimestampAssigner((r, t) -> r.timestamp()))
                .sinkTo(
                        new TfRecordShardSink(
                                new ShardSettings(
                                        base.toUri().toString(),
                                        new RecoverableShardStoreFactory(base.toUri().toString()),
                                        c,
                                        6,
                                        "part",
                                        // finished by age (500 ms), bucket close or end of input
                                        1 << 20,
                                        Duration.ofMillis(500),
                                        "'dt='yyyy-MM-dd/'hour='HH",
                                        ZoneOffset.UTC,
                                        Duration.ofDays(100_000),
                                        true,
                                        "fingerprint",
                                        true,
                                        Duration.ZERO,
                                        LostShardAction.FAIL,
                                        ShardSettings.DEFAULT_CHECKPOINT_BUDGET,
                                        null,
                                        null,
                                        false,
                                        ShardLayout.SEPARATE,
                                        c == Compression.NONE ? ShardIndex.DALI : ShardIndex.NONE,
                                        null,
                                        true),
                                "shard-marker-coordinator",
                                "shard-committable-router"))
                .uid("shard-sink");
        env.execute("shards-" + c);

        Map<String, Integer> expected = new HashMap<>();
        for (byte[] v : values) {
            expected.merge(HexFormat.of().formatHex(v), 1, Integer::sum);
        }
        Map<String, Integer> seen = new HashMap<>();
        List<Path> shards;
        try (Stream<Path> all = Files.walk(base)) {
            shards =
                    all.filter(Files::isRegularFile)
                            .filter(p -> !TestFiles.hidden(base.relativize(p)))
                            .sorted()
                            .toList();
        }
        assertTrue(shards.size() > 2, "several shards: " + shards);
        for (Path shard : shards) {
            assertTrue(
                    shard.getFileName()
                            .toString()
                            .matches("part-[0-9a-f]{32}-[0-9a-f]{16}-\\d+-\\d+\\.tfrecord.*"),
                    shard.toString());
            String bucket = base.relativize(shard.getParent()).toString();
            ShardManifest manifest =
                    ShardManifest.fromJson(
                            Files.readString(
                                    Path.of(
                                            ShardLayout.SEPARATE.manifestPath(
                                                    base.toString(),
                                                    bucket,
                                                    shard.getFileName().toString()))));
            try (InputStream in = Files.newInputStream(shard)) {
                assertEquals(List.of(), ShardManifestCheck.check(in, shard.toString(), manifest));
            }
            TensorFlowRecordIo.ReadResult r = TensorFlowRecordIo.read(shard, c);
            assertNull(r.error(), "TensorFlow's reader on " + shard);
            assertEquals(manifest.records(), r.records().size(), shard.toString());
            // and TensorFlow's ParseExample parses every record it read
            try (TfParseOracle parse = new TfParseOracle(Seed001Corpus.spec())) {
                assertNull(parse.parse(r.records()).error(), "ParseExample on " + shard);
            }
            for (byte[] rec : r.records()) {
                seen.merge(HexFormat.of().formatHex(rec), 1, Integer::sum);
            }
            checkIndex(base, bucket, shard, c);
        }
        assertEquals(expected, seen);
        // the bounded run completed every bucket: its marker lists exactly its shards
        Map<Path, List<String>> byBucket = new HashMap<>();
        for (Path shard : shards) {
            byBucket.computeIfAbsent(shard.getParent(), k -> new ArrayList<>())
                    .add(shard.getFileName().toString());
        }
        for (Map.Entry<Path, List<String>> e : byBucket.entrySet()) {
            ShardSuccessMarker marker =
                    ShardSuccessMarker.fromJson(
                            Files.readString(
                                    Path.of(
                                            ShardLayout.SEPARATE.markerPath(
                                                    base.toString(),
                                                    base.relativize(e.getKey()).toString()))));
            List<String> names = new ArrayList<>(e.getValue());
            names.sort(null);
            assertEquals(
                    names, marker.shards().stream().map(ShardSuccessMarker.Shard::shard).toList());
        }
    }

    /**
     * An uncompressed shard's DALI index, committed with it, is byte for byte what {@code tfstream
     * index} writes for it and what DALI's {@code tools/tfrecord2idx} computes (its loop, run by
     * Python); compressed shards get none.
     */
    private void checkIndex(Path base, String bucket, Path shard, Compression c) throws Exception {
        Path idx =
                Path.of(
                        ShardLayout.SEPARATE.indexPath(
                                base.toString(), bucket, shard.getFileName().toString()));
        if (c != Compression.NONE) {
            assertFalse(Files.exists(idx), idx + " of a compressed shard");
            return;
        }
        byte[] committed = Files.readAllBytes(idx);
        Path cli = dir.resolve(shard.getFileName() + ".cli.idx");
        assertEquals(0, TfstreamCli.run("index", shard.toString(), "--out", cli.toString()));
        assertArrayEquals(Files.readAllBytes(cli), committed, "tfstream index on " + shard);
        String dali =
                String.join(
                        "\n",
                        "import struct, sys",
                        "f = open(sys.argv[1], 'rb'); out = []",
                        "while True:",
                        "    current = f.tell()",
                        "    byte_len = f.read(8)",
                        "    if len(byte_len) == 0: break",
                        "    f.read(4)",
                        "    proto_len = struct.unpack('q', byte_len)[0]",
                        "    f.read(proto_len)",
                        "    f.read(4)",
                        "    out.append(str(current) + ' ' + str(f.tell() - current) + '\\n')",
                        "sys.stdout.write(''.join(out))");
        Process p =
                new ProcessBuilder(PYTHON, "-c", dali, shard.toString())
                        .redirectError(ProcessBuilder.Redirect.INHERIT)
                        .start();
        byte[] expected = p.getInputStream().readAllBytes();
        assertEquals(0, p.waitFor());
        assertArrayEquals(expected, committed, "DALI's tfrecord2idx on " + shard);
        assertTrue(committed.length > 0);
    }

    private static final String PYTHON =
            System.getenv().getOrDefault("TFSTREAM_PYTHON", "/usr/bin/python3");

    /** Keeps the job running across checkpoints. */
    private static SourceRecord slowly(SourceRecord r) throws InterruptedException {
        if (r.offset() % 200 == 0) {
            Thread.sleep(40);
        }
        return r;
    }
}
