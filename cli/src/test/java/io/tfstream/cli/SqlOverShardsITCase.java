package io.tfstream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.sql.SqlTestSupport;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Flink SQL table over the shard directory of a {@code tfstream local} run, without and with data
 * splits, as docs/sql.md shows it: the filesystem connector reads the shards and nothing of the
 * metadata tree (manifests, markers, schema copies), with the bucket levels as {@code PARTITIONED
 * BY (dt, hour)} columns; with splits all splits of a bucket, or one through {@code
 * source.path.regex-pattern}.
 */
class SqlOverShardsITCase {
    @TempDir static Path dir;
    private static Path plain;
    private static Path splits;

    @BeforeAll
    static void run() {
        plain = local("plain");
        splits = local("splits", "--set", "shards.splits=train:2,eval:1");
    }

    /** {@code tfstream local} into {@code dir/name}; returns its shard directory. */
    private static Path local(String name, String... extra) {
        Path out = dir.resolve(name);
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "local",
                                "--records",
                                "1500",
                                "--out",
                                out.toString(),
                                "--rest-port",
                                "0"));
        args.addAll(List.of(extra));
        CliRun run = CliRun.of(args.toArray(String[]::new));
        assertEquals(0, run.exitCode(), run.err());
        Path shards = out.resolve("shards");
        assertTrue(Files.isDirectory(shards.resolve("_tfstream")));
        return shards;
    }

    @Test
    void aTableOverTheShardDirectoryReadsEveryShardAndNoMetadata() throws Exception {
        for (Path shards : List.of(plain, splits)) {
            TableEnvironment env = env();
            env.executeSql(
                    "CREATE TABLE s (record BYTES) WITH ('connector' = 'filesystem', 'path' = '"
                            + shards.toUri()
                            + "', 'format' = 'tfrecord', 'tfrecord.record-format' = 'raw')");
            assertEquals(
                    List.of(Row.of(total(count(shards, null))).toString()),
                    SqlTestSupport.rows(env, "SELECT COUNT(*) FROM s"),
                    shards.toString());
        }
    }

    @Test
    void partitionColumnsComeFromTheBuckets() throws Exception {
        TableEnvironment env = env();
        env.executeSql(partitioned("b", plain, ""));
        assertEquals(
                expectedRows(count(plain, null)),
                SqlTestSupport.rows(
                        env,
                        "SELECT dt, `hour`, COUNT(*) FROM b GROUP BY dt, `hour` ORDER BY dt, `hour`"));
    }

    @Test
    void withSplitsATableReadsEverySplitOrOneChosenByPattern() throws Exception {
        TableEnvironment env = env();
        env.executeSql(partitioned("b", splits, ""));
        env.executeSql(
                partitioned(
                        "train", splits, ", 'source.path.regex-pattern' = '.*/Split-train/[^/]*'"));
        assertEquals(
                expectedRows(count(splits, null)),
                SqlTestSupport.rows(
                        env,
                        "SELECT dt, `hour`, COUNT(*) FROM b GROUP BY dt, `hour` ORDER BY dt, `hour`"));
        assertEquals(
                expectedRows(count(splits, "Split-train")),
                SqlTestSupport.rows(
                        env,
                        "SELECT dt, `hour`, COUNT(*) FROM train GROUP BY dt, `hour` ORDER BY dt,"
                                + " `hour`"));
    }

    private static String partitioned(String table, Path shards, String more) {
        return "CREATE TABLE "
                + table
                + " (record BYTES, dt STRING, `hour` STRING) PARTITIONED BY (dt, `hour`) WITH"
                + " ('connector' = 'filesystem', 'path' = '"
                + shards.toUri()
                + "', 'format' = 'tfrecord', 'tfrecord.record-format' = 'raw'"
                + more
                + ")";
    }

    private static long total(Map<String, Long> byBucket) {
        return byBucket.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * Records per bucket ("dt=…/hour=…") in the shards under {@code shards}, of one split or of all
     * (null).
     */
    private static Map<String, Long> count(Path shards, String split) throws Exception {
        Map<String, Long> byBucket = new TreeMap<>();
        List<Path> files;
        try (Stream<Path> all = Files.walk(shards)) {
            files =
                    all.filter(Files::isRegularFile)
                            .filter(p -> !shards.relativize(p).startsWith("_tfstream"))
                            .filter(p -> !p.getFileName().toString().startsWith("."))
                            .toList();
        }
        for (Path f : files) {
            Path dirOf = f.getParent();
            boolean inSplit = dirOf.getFileName().toString().startsWith("Split-");
            if (split != null && !dirOf.getFileName().toString().equals(split)) {
                continue;
            }
            String bucket = shards.relativize(inSplit ? dirOf.getParent() : dirOf).toString();
            long n = 0;
            try (TfRecordReader r = TfRecordFiles.openReader(f, TfRecordReadOptions.defaults())) {
                while (r.next()) {
                    n++;
                }
            }
            byBucket.merge(bucket, n, Long::sum);
        }
        assertTrue(!byBucket.isEmpty(), "shards of " + split);
        return byBucket;
    }

    private static List<String> expectedRows(Map<String, Long> byBucket) {
        List<String> rows = new ArrayList<>();
        byBucket.forEach(
                (bucket, n) -> {
                    String[] levels = bucket.split("/");
                    rows.add(
                            Row.of(
                                            levels[0].substring("dt=".length()),
                                            levels[1].substring("hour=".length()),
                                            n)
                                    .toString());
                });
        return rows;
    }

    private static TableEnvironment env() {
        return TableEnvironment.create(EnvironmentSettings.inBatchMode());
    }
}
