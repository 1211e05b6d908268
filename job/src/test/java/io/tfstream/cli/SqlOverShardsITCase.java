package io.tfstream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Flink SQL table over the shard directory of a {@code tfstream local} run with data splits, as
 * docs/sql.md shows it: the filesystem connector reads the shards and nothing of the metadata tree
 * (manifests, markers, schema copies), with the bucket levels as {@code PARTITIONED BY (dt, hour)}
 * columns; all splits of a bucket, or one through {@code source.path.regex-pattern}.
 */
class SqlOverShardsITCase {
    @TempDir static Path dir;
    private static Path shards;

    @BeforeAll
    static void run() {
        Path out = dir.resolve("out");
        CliRun run =
                CliRun.of(
                        "local",
                        "--records",
                        "1500",
                        "--set",
                        "shards.splits=train:2,eval:1",
                        "--out",
                        out.toString(),
                        "--rest-port",
                        "0");
        assertEquals(0, run.exitCode(), run.err());
        shards = out.resolve("shards");
        assertTrue(Files.isDirectory(shards.resolve("_tfstream")));
    }

    @Test
    void aTableOverTheShardDirectoryReadsEveryShardAndNoMetadata() throws Exception {
        TableEnvironment env = env();
        env.executeSql(
                "CREATE TABLE s (record BYTES) WITH ('connector' = 'filesystem', 'path' = '"
                        + shards.toUri()
                        + "', 'format' = 'tfrecord', 'tfrecord.record-format' = 'raw')");
        assertEquals(
                List.of(Row.of(count(null).values().stream().mapToLong(Long::longValue).sum())),
                rows(env, "SELECT COUNT(*) FROM s"));
    }

    @Test
    void partitionColumnsComeFromTheBucketsAndASplitIsChosenByPattern() throws Exception {
        TableEnvironment env = env();
        String with =
                "'connector' = 'filesystem', 'path' = '"
                        + shards.toUri()
                        + "', 'format' = 'tfrecord', 'tfrecord.record-format' = 'raw'";
        env.executeSql(
                "CREATE TABLE b (record BYTES, dt STRING, `hour` STRING) PARTITIONED BY (dt,"
                        + " `hour`) WITH ("
                        + with
                        + ")");
        env.executeSql(
                "CREATE TABLE train (record BYTES, dt STRING, `hour` STRING) PARTITIONED BY (dt,"
                        + " `hour`) WITH ("
                        + with
                        + ", 'source.path.regex-pattern' = '.*/Split-train/[^/]*')");
        assertEquals(
                expectedRows(count(null)),
                rows(
                        env,
                        "SELECT dt, `hour`, COUNT(*) FROM b GROUP BY dt, `hour` ORDER BY dt, `hour`"));
        assertEquals(
                expectedRows(count("Split-train")),
                rows(
                        env,
                        "SELECT dt, `hour`, COUNT(*) FROM train GROUP BY dt, `hour` ORDER BY dt,"
                                + " `hour`"));
    }

    /** Records per bucket ("dt=…/hour=…") in the shards, of one split or of all (null). */
    private static Map<String, Long> count(String split) throws Exception {
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
            Path splitDir = f.getParent();
            if (split != null && !splitDir.getFileName().toString().equals(split)) {
                continue;
            }
            String bucket = shards.relativize(splitDir.getParent()).toString();
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

    private static List<Row> expectedRows(Map<String, Long> byBucket) {
        List<Row> rows = new ArrayList<>();
        byBucket.forEach(
                (bucket, n) -> {
                    String[] levels = bucket.split("/");
                    rows.add(
                            Row.of(
                                    levels[0].substring("dt=".length()),
                                    levels[1].substring("hour=".length()),
                                    n));
                });
        return rows;
    }

    private static TableEnvironment env() {
        return TableEnvironment.create(EnvironmentSettings.inBatchMode());
    }

    private static List<Row> rows(TableEnvironment env, String sql) throws Exception {
        List<Row> rows = new ArrayList<>();
        CloseableIterator<Row> it = env.executeSql(sql).collect();
        try {
            it.forEachRemaining(rows::add);
        } finally {
            it.close();
        }
        return rows;
    }
}
