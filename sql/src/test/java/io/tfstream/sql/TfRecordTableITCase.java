package io.tfstream.sql;

import static io.tfstream.sql.Examples.example;
import static io.tfstream.testkit.ProtoFeatures.bytes;
import static io.tfstream.testkit.ProtoFeatures.floats;
import static io.tfstream.testkit.ProtoFeatures.int64s;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.parse.SerializedRecords;
import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.parse.example.ParsedBatch;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.SpecSource;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.SparseTensor;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import io.tfstream.tfrecord.TfRecordWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.Feature;

/**
 * The {@code tfrecord} format through SQL on a MiniCluster, batch mode: files written by the core
 * writer read back with every column equal to the project's parser output; damage failing with the
 * file and offset or skipped; {@code INSERT INTO} read back by the core reader and parser.
 */
class TfRecordTableITCase {
    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    private static final String SPEC =
            "{\"id\": {\"type\": \"fixed_len\", \"dtype\": \"int64\", \"shape\": []},"
                    + " \"label\": {\"type\": \"fixed_len\", \"dtype\": \"int64\", \"shape\": [],"
                    + " \"default\": -1},"
                    + " \"name\": {\"type\": \"fixed_len\", \"dtype\": \"string\", \"shape\": [],"
                    + " \"default\": \"?\"},"
                    + " \"weights\": {\"type\": \"var_len\", \"dtype\": \"float32\"}}";

    @TempDir Path dir;

    private static TableEnvironment batchEnv() {
        return TableEnvironment.create(EnvironmentSettings.inBatchMode());
    }

    /** Record {@code i}: id, a label on even ids, a name on ids divisible by 3, i % 4 weights. */
    private static byte[] record(int i) {
        Map<String, Feature> f = new HashMap<>();
        f.put("id", int64s(i));
        if (i % 2 == 0) {
            f.put("label", int64s(i % 5));
        }
        if (i % 3 == 0) {
            f.put("name", bytes(("n" + i).getBytes(StandardCharsets.UTF_8)));
        }
        float[] w = new float[i % 4];
        for (int k = 0; k < w.length; k++) {
            w[k] = i + k / 8f;
        }
        f.put("weights", floats(w));
        return example(f);
    }

    private static List<byte[]> write(Path file, Compression c, int from, int to) throws Exception {
        List<byte[]> out = new ArrayList<>();
        try (TfRecordWriter w = TfRecordFiles.newWriter(file, c)) {
            for (int i = from; i < to; i++) {
                byte[] r = record(i);
                w.write(r);
                out.add(r);
            }
        }
        return out;
    }

    private static List<Row> collect(TableEnvironment env, String query) throws Exception {
        List<Row> rows = new ArrayList<>();
        CloseableIterator<Row> it = env.executeSql(query).collect();
        try {
            it.forEachRemaining(rows::add);
        } finally {
            it.close();
        }
        return rows;
    }

    /** A counter of {@link SkipCounters} read through the platform MBean server. */
    private static long skipped(String table, String counter) throws Exception {
        return (Long)
                ManagementFactory.getPlatformMBeanServer()
                        .getAttribute(SkipCounters.name(table, counter), "Value");
    }

    private String table(String name, Path path, String extra) {
        return "CREATE TABLE "
                + name
                + " (id BIGINT, label BIGINT, name STRING, weights ARRAY<FLOAT>) WITH ("
                + "'connector' = 'filesystem', 'path' = '"
                + path.toUri()
                + "', 'format' = 'tfrecord'"
                + extra
                + ")";
    }

    @Test
    void filesOfEveryCompressionReadEqualToTheParser() throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        List<byte[]> records = new ArrayList<>();
        records.addAll(write(data.resolve("a.tfrecord"), Compression.NONE, 0, 2500));
        records.addAll(write(data.resolve("b.tfrecord.gz"), Compression.GZIP, 2500, 3100));
        records.addAll(write(data.resolve("c"), Compression.ZLIB, 3100, 3200));
        Path spec = dir.resolve("SPEC.json");
        Files.writeString(spec, SPEC);

        TableEnvironment env = batchEnv();
        env.executeSql(table("t", data, ", 'tfrecord.schema-path' = '" + spec + "'"));
        List<Row> rows = collect(env, "SELECT id, label, name, weights FROM t");

        FeatureSpecs specs = SpecSource.loadExampleSpecs(spec);
        ParsedBatch parsed = ExampleBatchParser.create(specs).parse(SerializedRecords.of(records));
        Column ids = ((DenseTensor) parsed.feature("id")).values();
        Column labels = ((DenseTensor) parsed.feature("label")).values();
        Column names = ((DenseTensor) parsed.feature("name")).values();
        SparseTensor weights = (SparseTensor) parsed.feature("weights");
        Map<Long, Row> byId = new HashMap<>();
        for (Row r : rows) {
            byId.put((Long) r.getField("id"), r);
        }
        assertEquals(records.size(), rows.size());
        assertEquals(records.size(), byId.size());
        List<List<Float>> expectedWeights = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            expectedWeights.add(new ArrayList<>());
        }
        for (int v = 0; v < weights.numValues(); v++) {
            expectedWeights.get((int) weights.index(v, 0)).add(weights.values().float32(v));
        }
        for (int i = 0; i < records.size(); i++) {
            Row r = byId.get(ids.int64(i));
            assertEquals(labels.int64(i), r.getField("label"));
            assertEquals(new String(names.bytes(i), StandardCharsets.UTF_8), r.getField("name"));
            assertEquals(expectedWeights.get(i), List.of((Float[]) r.getField("weights")));
        }
    }

    @Test
    void withoutASchemaAbsentFeaturesAreNullAndOneFileCanBeThePath() throws Exception {
        Path file = dir.resolve("one.tfrecord");
        write(file, Compression.NONE, 0, 10);
        TableEnvironment env = batchEnv();
        env.executeSql(table("t", file, ""));
        List<Row> rows = collect(env, "SELECT id, label, name FROM t WHERE id < 4 ORDER BY id");
        assertEquals(4, rows.size());
        assertEquals(Row.of(0L, 0L, "n0"), rows.get(0));
        assertEquals(Row.of(1L, null, null), rows.get(1));
        assertEquals(Row.of(3L, null, "n3"), rows.get(3));
    }

    @Test
    void damageFailsNamingFileAndOffsetOrIsSkipped() throws Exception {
        Path data = Files.createDirectories(dir.resolve("damaged"));
        Path file = data.resolve("d.tfrecord");
        List<byte[]> records = write(file, Compression.NONE, 0, 20);
        byte[] bytes = Files.readAllBytes(file);
        long offset = 0;
        for (int i = 0; i < 5; i++) {
            offset += records.get(i).length + 16;
        }
        bytes[(int) offset + 14] ^= 0x55; // record 5's data: its data CRC no longer matches
        Files.write(file, bytes);

        TableEnvironment env = batchEnv();
        env.executeSql(table("strict", data, ""));
        Exception e = assertThrows(Exception.class, () -> collect(env, "SELECT id FROM strict"));
        String chain = causes(e);
        assertTrue(chain.contains("d.tfrecord: damaged at byte " + offset), chain);

        env.executeSql(table("lenient", data, ", 'tfrecord.ignore-parse-errors' = 'true'"));
        List<Row> rows = collect(env, "SELECT id FROM lenient ORDER BY id");
        assertEquals(19, rows.size());
        assertTrue(rows.stream().noneMatch(r -> r.getField(0).equals(5L)));
        // Counted where a user sees them: the table's JMX counters in the TaskManager's JVM.
        String t = "default_catalog.default_database.lenient";
        assertEquals(1, skipped(t, "regionsSkipped"));
        assertEquals(1, skipped(t, "recordsSkipped"));
        assertEquals(records.get(5).length + 16, skipped(t, "bytesSkipped"));
    }

    @Test
    void aRecordThatDoesNotParseFailsWithItsPosition() throws Exception {
        Path data = Files.createDirectories(dir.resolve("bad"));
        Path file = data.resolve("b.tfrecord");
        try (TfRecordWriter w = TfRecordFiles.newWriter(file, Compression.NONE)) {
            w.write(record(0));
            w.write(example(Map.of("id", floats(1f))));
            w.write(record(2));
        }
        long second = record(0).length + 16;
        TableEnvironment env = batchEnv();
        env.executeSql(table("strict", data, ""));
        String chain =
                causes(assertThrows(Exception.class, () -> collect(env, "SELECT id FROM strict")));
        assertTrue(chain.contains("b.tfrecord: record at byte " + second), chain);
        assertTrue(chain.contains("Data types don't match"), chain);

        env.executeSql(table("unparsed", data, ", 'tfrecord.ignore-parse-errors' = 'true'"));
        assertEquals(
                List.of(Row.of(0L), Row.of(2L)),
                collect(env, "SELECT id FROM unparsed ORDER BY id"));
        String t = "default_catalog.default_database.unparsed";
        assertEquals(1, skipped(t, "recordsSkipped"));
        assertEquals(0, skipped(t, "regionsSkipped"));
    }

    /**
     * The job's parse options, under the format's prefix: limits refuse a record (skipped here),
     * legacy defaults make a schema's fixed-shape features without a default optional, and a value
     * out of range is refused when the table is used, naming the table's key.
     */
    @Test
    void theJobsParseLimitsAndLegacyDefaultsApplyToATable() throws Exception {
        Path data = Files.createDirectories(dir.resolve("limits"));
        write(data.resolve("l.tfrecord"), Compression.NONE, 0, 12);
        Path schema = dir.resolve("schema.pbtxt");
        Files.writeString(
                schema,
                "feature { name: \"id\" type: INT presence { min_fraction: 1 } shape { } }\n"
                        + "feature { name: \"label\" type: INT presence { min_fraction: 1 } shape { } }\n"
                        + "feature { name: \"name\" type: BYTES presence { min_fraction: 1 } shape { } }\n"
                        + "feature { name: \"weights\" type: FLOAT }\n");
        String withSchema = ", 'tfrecord.schema-path' = '" + schema + "'";
        TableEnvironment env = batchEnv();

        env.executeSql(table("required", data, withSchema));
        String chain =
                causes(
                        assertThrows(
                                Exception.class, () -> collect(env, "SELECT id FROM required")));
        assertTrue(chain.contains("is required but could not be found"), chain);

        env.executeSql(table("legacy", data, withSchema + ", 'tfrecord.legacy-defaults' = 'true'"));
        List<Row> rows = collect(env, "SELECT id, label, name FROM legacy ORDER BY id");
        assertEquals(12, rows.size());
        assertEquals(Row.of(1L, -1L, ""), rows.get(1), "the legacy defaults b'' and -1");
        assertEquals(Row.of(6L, 1L, "n6"), rows.get(6));

        // records 3, 7 and 11 hold three weights
        env.executeSql(
                table(
                        "limited",
                        data,
                        ", 'tfrecord.max-values-per-feature' = '2',"
                                + " 'tfrecord.ignore-parse-errors' = 'true'"));
        assertEquals(
                List.of(0L, 1L, 2L, 4L, 5L, 6L, 8L, 9L, 10L),
                collect(env, "SELECT id FROM limited ORDER BY id").stream()
                        .map(r -> (Long) r.getField(0))
                        .toList());
        assertEquals(3, skipped("default_catalog.default_database.limited", "recordsSkipped"));

        env.executeSql(table("zero", data, ", 'tfrecord.max-values-per-feature' = '0'"));
        String refused =
                causes(assertThrows(Exception.class, () -> collect(env, "SELECT id FROM zero")));
        assertTrue(
                refused.contains(
                        "invalid value '0' for tfrecord.max-values-per-feature: expected >= 1"),
                refused);
    }

    @Test
    void insertIntoWritesFilesTheCoreReaderAndParserRead() throws Exception {
        Path out = dir.resolve("out");
        TableEnvironment env = batchEnv();
        env.executeSql(table("sink", out, ", 'tfrecord.compression' = 'gzip'"));
        env.executeSql(
                        "INSERT INTO sink VALUES (1, 7, 'a', ARRAY[CAST(0.5 AS FLOAT)]),"
                                + " (2, CAST(NULL AS BIGINT), 'b', ARRAY[CAST(1 AS FLOAT), 2]),"
                                + " (3, 9, CAST(NULL AS STRING), CAST(NULL AS ARRAY<FLOAT>))")
                .await();
        List<byte[]> records = new ArrayList<>();
        try (Stream<Path> files = Files.list(out)) {
            for (Path f :
                    (Iterable<Path>)
                            files.filter(p -> !p.getFileName().toString().startsWith("."))
                                    ::iterator) {
                try (TfRecordReader r =
                        TfRecordFiles.openReader(
                                f,
                                TfRecordReadOptions.defaults().withCompression(Compression.GZIP))) {
                    while (r.next()) {
                        records.add(r.copy());
                    }
                }
            }
        }
        assertEquals(3, records.size());
        Path spec = dir.resolve("SPEC.json");
        Files.writeString(spec, SPEC);
        ParsedBatch parsed =
                ExampleBatchParser.create(SpecSource.loadExampleSpecs(spec))
                        .parse(SerializedRecords.of(records));
        Map<Long, Integer> rowOf = new HashMap<>();
        Column ids = ((DenseTensor) parsed.feature("id")).values();
        for (int i = 0; i < 3; i++) {
            rowOf.put(ids.int64(i), i);
        }
        Column labels = ((DenseTensor) parsed.feature("label")).values();
        Column names = ((DenseTensor) parsed.feature("name")).values();
        assertEquals(7, labels.int64(rowOf.get(1L)));
        assertEquals(-1, labels.int64(rowOf.get(2L))); // NULL → absent → the spec's default
        assertEquals("?", new String(names.bytes(rowOf.get(3L)), StandardCharsets.UTF_8));
        SparseTensor w = (SparseTensor) parsed.feature("weights");
        assertEquals(3, w.numValues());

        // And back through SQL: the written table reads as what was inserted.
        assertEquals(
                List.of(Row.of(1L, 7L, "a"), Row.of(2L, null, "b"), Row.of(3L, 9L, null)),
                collect(env, "SELECT id, label, name FROM sink ORDER BY id"));
    }

    @Test
    void rawRecordsAreOneBytesColumn() throws Exception {
        Path data = Files.createDirectories(dir.resolve("raw"));
        List<byte[]> records = write(data.resolve("r.tfrecord.gz"), Compression.GZIP, 0, 50);
        TableEnvironment env = batchEnv();
        env.executeSql(
                "CREATE TABLE r (record BYTES) WITH ('connector' = 'filesystem', 'path' = '"
                        + data.toUri()
                        + "', 'format' = 'tfrecord', 'tfrecord.record-format' = 'raw')");
        List<Row> rows = collect(env, "SELECT record FROM r");
        assertEquals(records.size(), rows.size());
        for (int i = 0; i < rows.size(); i++) {
            assertArrayEquals(records.get(i), (byte[]) rows.get(i).getField(0));
        }
    }

    @Test
    void partitionedTablesWriteAndReadTheirPartitionColumn() throws Exception {
        Path out = dir.resolve("parts");
        TableEnvironment env = batchEnv();
        env.executeSql(
                "CREATE TABLE p (id BIGINT, name STRING, dt STRING) PARTITIONED BY (dt) WITH ("
                        + "'connector' = 'filesystem', 'path' = '"
                        + out.toUri()
                        + "', 'format' = 'tfrecord')");
        env.executeSql(
                        "INSERT INTO p VALUES (1, 'a', '2024-01-01'), (2, 'b', '2024-01-02'),"
                                + " (3, CAST(NULL AS STRING), '2024-01-02')")
                .await();
        assertTrue(Files.isDirectory(out.resolve("dt=2024-01-02")));
        assertEquals(
                List.of(
                        Row.of(1L, "a", "2024-01-01"),
                        Row.of(2L, "b", "2024-01-02"),
                        Row.of(3L, null, "2024-01-02")),
                collect(env, "SELECT id, name, dt FROM p ORDER BY id"));
        assertEquals(
                List.of(Row.of(2L), Row.of(3L)),
                collect(env, "SELECT id FROM p WHERE dt = '2024-01-02' ORDER BY id"));
    }

    @Test
    void streamingWritesWithAutoCompactionHoldEveryRowOnce() throws Exception {
        Path out = dir.resolve("compacted");
        org.apache.flink.configuration.Configuration conf =
                new org.apache.flink.configuration.Configuration();
        conf.setString("execution.checkpointing.interval", "200 ms");
        TableEnvironment env =
                TableEnvironment.create(
                        EnvironmentSettings.newInstance()
                                .inStreamingMode()
                                .withConfiguration(conf)
                                .build());
        env.executeSql(
                "CREATE TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' ="
                        + " '20000', 'rows-per-second' = '20000', 'fields.id.kind' = 'sequence',"
                        + " 'fields.id.start' = '1', 'fields.id.end' = '20000')");
        env.executeSql(
                "CREATE TABLE c (id BIGINT, sq BIGINT) WITH ('connector' = 'filesystem', 'path' = '"
                        + out.toUri()
                        + "', 'format' = 'tfrecord', 'tfrecord.compression' = 'gzip',"
                        + " 'auto-compaction' = 'true', 'compaction.file-size' = '1MB')");
        env.executeSql("INSERT INTO c SELECT id, id * id FROM gen").await();
        List<Long> ids = new ArrayList<>();
        try (Stream<Path> files = Files.list(out)) {
            for (Path f : files.filter(p -> !p.getFileName().toString().startsWith(".")).toList()) {
                try (TfRecordReader r =
                        TfRecordFiles.openReader(
                                f,
                                TfRecordReadOptions.defaults().withCompression(Compression.GZIP))) {
                    while (r.next()) {
                        var m =
                                org.tensorflow.example.Example.parseFrom(r.copy())
                                        .getFeatures()
                                        .getFeatureMap();
                        long id = m.get("id").getInt64List().getValue(0);
                        assertEquals(id * id, m.get("sq").getInt64List().getValue(0));
                        ids.add(id);
                    }
                }
            }
        }
        ids.sort(null);
        assertEquals(20000, ids.size());
        for (int i = 0; i < ids.size(); i++) {
            assertEquals(i + 1, ids.get(i));
        }
    }

    private static String causes(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            sb.append(c.getMessage()).append('\n');
        }
        return sb.toString();
    }
}
