package io.tfstream.e2e.sql;

import static io.tfstream.testkit.ProtoFeatures.floats;
import static io.tfstream.testkit.ProtoFeatures.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.e2e.parse.TfParseOracle;
import io.tfstream.e2e.tfrecord.TensorFlowRecordIo;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.SpecSource;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.RaggedTensor;
import io.tfstream.tensor.SparseTensor;
import io.tfstream.tensor.Tensor;
import io.tfstream.testkit.MiniClusters;
import io.tfstream.testkit.ProtoFeatures;
import io.tfstream.tfrecord.Compression;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.Example;
import org.tensorflow.example.Features;

/**
 * The {@code tfrecord} SQL format against TensorFlow: files written by TensorFlow's {@code
 * RecordWriter} (every compression) read through SQL with every column equal to TensorFlow's {@code
 * ParseExampleV2} of the same records; rows written by {@code INSERT INTO} read back by
 * TensorFlow's {@code TFRecordReaderV2} and parsed by its kernel to the inserted values.
 */
class SqlTensorFlowITCase {
    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(2);

    private static final String SPEC =
            "{\"id\": {\"type\": \"fixed_len\", \"dtype\": \"int64\", \"shape\": []},"
                    + " \"label\": {\"type\": \"fixed_len\", \"dtype\": \"int64\", \"shape\": [],"
                    + " \"default\": -1},"
                    + " \"name\": {\"type\": \"fixed_len\", \"dtype\": \"string\", \"shape\": [],"
                    + " \"default\": \"?\"},"
                    + " \"pair\": {\"type\": \"fixed_len\", \"dtype\": \"float32\", \"shape\":"
                    + " [2], \"default\": [0, 0]},"
                    + " \"weights\": {\"type\": \"var_len\", \"dtype\": \"float32\"},"
                    + " \"tokens\": {\"type\": \"ragged\", \"dtype\": \"string\", \"value_key\":"
                    + " \"tokens\", \"partitions\": [], \"row_splits_dtype\": \"int64\"}}";

    private static final String COLUMNS =
            "id BIGINT, label BIGINT, name STRING, pair ARRAY<FLOAT>, weights ARRAY<FLOAT>,"
                    + " tokens ARRAY<STRING>";

    private static final List<String> NAMES =
            List.of("id", "label", "name", "pair", "weights", "tokens");

    @TempDir Path dir;

    /** Random records: optional features absent at random, lists of random length. */
    private static List<byte[]> records(int from, int n, Random random) {
        List<byte[]> out = new ArrayList<>();
        for (int i = from; i < from + n; i++) {
            Features.Builder f = Features.newBuilder().putFeature("id", ProtoFeatures.int64s(i));
            if (random.nextBoolean()) {
                f.putFeature("label", ProtoFeatures.int64s(random.nextInt(10) - 3));
            }
            if (random.nextInt(3) > 0) {
                f.putFeature("name", strings("name-" + random.nextInt(100)));
            }
            if (random.nextBoolean()) {
                f.putFeature("pair", floats(random.nextFloat(), (float) random.nextGaussian()));
            }
            float[] w = new float[random.nextInt(4)];
            for (int k = 0; k < w.length; k++) {
                w[k] = (float) random.nextGaussian();
            }
            f.putFeature("weights", floats(w));
            if (random.nextBoolean()) {
                String[] t = new String[random.nextInt(3)];
                Arrays.setAll(t, k -> "t" + random.nextInt(50));
                f.putFeature("tokens", strings(t));
            }
            out.add(Example.newBuilder().setFeatures(f).build().toByteArray());
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

    private String table(String name, Path path, Path spec, String extra) {
        return "CREATE TABLE "
                + name
                + " ("
                + COLUMNS
                + ") WITH ('connector' = 'filesystem', 'path' = '"
                + path.toUri()
                + "', 'format' = 'tfrecord', 'tfrecord.schema-path' = '"
                + spec
                + "'"
                + extra
                + ")";
    }

    private Path spec() throws Exception {
        Path p = dir.resolve("SPEC.json");
        Files.writeString(p, SPEC);
        return p;
    }

    @Test
    void tensorFlowWrittenFilesReadEqualToTensorFlowsParse() throws Exception {
        Path data = Files.createDirectories(dir.resolve("tf"));
        Random random = new Random(31);
        List<byte[]> all = new ArrayList<>();
        int next = 0;
        for (Compression c : Compression.values()) {
            List<byte[]> records = records(next, 700, random);
            next += records.size();
            TensorFlowRecordIo.write(data.resolve("part-" + c.cliName()), records, c);
            all.addAll(records);
        }
        Path spec = spec();
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        env.executeSql(table("t", data, spec, ""));
        List<Row> rows = collect(env, "SELECT " + String.join(", ", NAMES) + " FROM t");
        assertEquals(all.size(), rows.size());

        FeatureSpecs specs = SpecSource.loadExampleSpecs(spec);
        Map<Long, Row> byId = new HashMap<>();
        for (Row r : rows) {
            byId.put((Long) r.getField("id"), r);
        }
        try (TfParseOracle tf = new TfParseOracle(specs)) {
            TfParseOracle.Outcome o = tf.parse(all);
            assertNull(o.error());
            for (int i = 0; i < all.size(); i++) {
                long id = ((DenseTensor) o.features().get("id")).values().int64(i);
                Row r = byId.get(id);
                for (String name : NAMES) {
                    assertEquals(
                            expected(o.features().get(name), i, all.size()),
                            actual(r.getField(name)),
                            "id " + id + ", column " + name);
                }
            }
        }
    }

    @Test
    void insertIntoIsReadByTensorFlowsReaderAndKernel() throws Exception {
        Path out = dir.resolve("out");
        Path spec = spec();
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        env.executeSql(table("sink", out, spec, ", 'tfrecord.compression' = 'zlib'"));
        env.executeSql(
                        "INSERT INTO sink VALUES"
                                + " (1, 4, 'x', ARRAY[CAST(1.5 AS FLOAT), 2], ARRAY[CAST(-1 AS"
                                + " FLOAT)], ARRAY['a', 'b']),"
                                + " (2, CAST(NULL AS BIGINT), CAST(NULL AS STRING), CAST(NULL AS"
                                + " ARRAY<FLOAT>), ARRAY_REMOVE(ARRAY[CAST(1 AS"
                                + " FLOAT)], CAST(1 AS FLOAT)), CAST(NULL AS"
                                + " ARRAY<STRING>))")
                .await();
        List<byte[]> records = new ArrayList<>();
        try (Stream<Path> files = Files.list(out)) {
            for (Path f : files.filter(p -> !p.getFileName().toString().startsWith(".")).toList()) {
                TensorFlowRecordIo.ReadResult read = TensorFlowRecordIo.read(f, Compression.ZLIB);
                assertNull(read.error());
                records.addAll(read.records());
            }
        }
        assertEquals(2, records.size());
        try (TfParseOracle tf = new TfParseOracle(SpecSource.loadExampleSpecs(spec))) {
            TfParseOracle.Outcome o = tf.parse(records);
            assertNull(o.error());
            Map<Long, Integer> rowOf = new HashMap<>();
            for (int i = 0; i < 2; i++) {
                rowOf.put(((DenseTensor) o.features().get("id")).values().int64(i), i);
            }
            int a = rowOf.get(1L);
            int b = rowOf.get(2L);
            Map<String, Tensor> f = o.features();
            assertEquals(4L, expected(f.get("label"), a, 2));
            assertEquals("x", expected(f.get("name"), a, 2));
            assertEquals(List.of(1.5f, 2f), expected(f.get("pair"), a, 2));
            assertEquals(List.of(-1f), expected(f.get("weights"), a, 2));
            assertEquals(List.of("a", "b"), expected(f.get("tokens"), a, 2));
            // NULL columns were left out of the Example: the spec's defaults and empty lists.
            assertEquals(-1L, expected(f.get("label"), b, 2));
            assertEquals("?", expected(f.get("name"), b, 2));
            assertEquals(List.of(0f, 0f), expected(f.get("pair"), b, 2));
            assertEquals(List.of(), expected(f.get("weights"), b, 2));
            assertEquals(List.of(), expected(f.get("tokens"), b, 2));
        }
    }

    /** Row {@code row} of a parsed tensor as a scalar or a list. */
    private static Object expected(Tensor t, int row, int rows) {
        if (t instanceof DenseTensor d) {
            long[] shape = d.shape();
            if (shape.length == 1) {
                return value(d.values(), row);
            }
            int per = (int) shape[1];
            List<Object> out = new ArrayList<>();
            for (int k = 0; k < per; k++) {
                out.add(value(d.values(), row * per + k));
            }
            return out;
        }
        List<Object> out = new ArrayList<>();
        if (t instanceof SparseTensor s) {
            for (int v = 0; v < s.numValues(); v++) {
                if (s.index(v, 0) == row) {
                    out.add(value(s.values(), v));
                }
            }
            return out;
        }
        RaggedTensor r = (RaggedTensor) t;
        long[] splits = r.rowSplits().get(0);
        for (long v = splits[row]; v < splits[row + 1]; v++) {
            out.add(value(r.values(), (int) v));
        }
        assertTrue(splits.length == rows + 1);
        return out;
    }

    private static Object value(Column c, int i) {
        switch (c.dtype()) {
            case INT64:
                return c.int64(i);
            case FLOAT32:
                return c.float32(i);
            default:
                return new String(c.bytes(i), StandardCharsets.UTF_8);
        }
    }

    /** A SQL value as {@link #expected} gives it: arrays as lists. */
    private static Object actual(Object v) {
        if (v instanceof Object[] a) {
            return Arrays.asList(a);
        }
        return v;
    }
}
