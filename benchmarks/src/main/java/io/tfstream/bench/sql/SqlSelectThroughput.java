package io.tfstream.bench.sql;

import io.tfstream.bench.parse.ExampleProfile;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.types.logical.RowType;

/**
 * A whole SQL {@code SELECT} over a {@code tfrecord} table against the same files read with Flink's
 * {@code 'format' = 'raw'}: batch mode, an embedded Table environment (a local cluster per job),
 * parallelism 1, {@code INSERT INTO} a {@code blackhole} table of every column so every row is
 * built and handed on. Per profile, interleaved {@code repeat} times after one unmeasured round:
 *
 * <ul>
 *   <li>{@code tfrecord}: every feature as a column, parsed with the profile's spec;
 *   <li>{@code tfrecord-raw}: {@code tfrecord.record-format = raw} (framing and CRCs checked, one
 *       BYTES column);
 *   <li>{@code raw}: Flink's {@code raw} format, which the filesystem connector reads as
 *       newline-separated byte lines (no framing, no checks): the cost of moving the bytes;
 *   <li>{@code empty}: the {@code tfrecord} query over an empty directory, the fixed cost of a job.
 * </ul>
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.tfstream.bench.sql.SqlSelectThroughput [seedRecords
 * wideRecords repeat]}. Prints one line per run and the medians.
 */
public final class SqlSelectThroughput {
    private static final int FILES = 4;

    private SqlSelectThroughput() {}

    public static void main(String[] args) throws Exception {
        int seed = args.length > 0 ? Integer.parseInt(args[0]) : 6_000_000;
        int wide = args.length > 1 ? Integer.parseInt(args[1]) : 400_000;
        int repeat = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        Path dir = Files.createTempDirectory("tfstream-sql-select");
        try {
            run(dir, ExampleProfile.SEED001, seed, repeat);
            run(dir, ExampleProfile.WIDE, wide, repeat);
        } finally {
            try (var files = Files.walk(dir)) {
                for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    private static void run(Path base, ExampleProfile profile, int records, int repeat)
            throws Exception {
        Path dir = Files.createDirectories(base.resolve(profile.name().toLowerCase(Locale.ROOT)));
        Path data = Files.createDirectories(dir.resolve("data"));
        Path empty = Files.createDirectories(dir.resolve("empty"));
        long bytes = write(profile, data, records);
        Path spec = dir.resolve("SPEC.json");
        Files.writeString(spec, SpecJsonWriter.write(profile.spec()));
        RowType rowType = SqlFormatReadBenchmark.columns(profile.spec());
        String columns =
                rowType.getFields().stream()
                        .map(f -> "`" + f.getName() + "` " + f.getType().asSerializableString())
                        .collect(Collectors.joining(", "));
        long lines = lines(data);

        Configuration conf = new Configuration();
        conf.setString("parallelism.default", "1");
        TableEnvironment env =
                TableEnvironment.create(
                        EnvironmentSettings.newInstance()
                                .inBatchMode()
                                .withConfiguration(conf)
                                .build());
        String files = "'connector' = 'filesystem', 'path' = '";
        env.executeSql(
                "CREATE TABLE rows_t ("
                        + columns
                        + ") WITH ("
                        + files
                        + data.toUri()
                        + "', 'format' = 'tfrecord', 'tfrecord.schema-path' = '"
                        + spec
                        + "')");
        env.executeSql(
                "CREATE TABLE empty_t ("
                        + columns
                        + ") WITH ("
                        + files
                        + empty.toUri()
                        + "', 'format' = 'tfrecord', 'tfrecord.schema-path' = '"
                        + spec
                        + "')");
        env.executeSql(
                "CREATE TABLE recs_t (record BYTES) WITH ("
                        + files
                        + data.toUri()
                        + "', 'format' = 'tfrecord', 'tfrecord.record-format' = 'raw')");
        env.executeSql(
                "CREATE TABLE raw_t (line BYTES) WITH ("
                        + files
                        + data.toUri()
                        + "', 'format' = 'raw')");
        env.executeSql("CREATE TABLE rows_sink (" + columns + ") WITH ('connector' = 'blackhole')");
        env.executeSql("CREATE TABLE bytes_sink (b BYTES) WITH ('connector' = 'blackhole')");

        String[] names = {"tfrecord", "tfrecord-raw", "raw", "empty"};
        String[] queries = {
            "INSERT INTO rows_sink SELECT * FROM rows_t",
            "INSERT INTO bytes_sink SELECT record FROM recs_t",
            "INSERT INTO bytes_sink SELECT line FROM raw_t",
            "INSERT INTO rows_sink SELECT * FROM empty_t"
        };
        long[][] nanos = new long[names.length][repeat];
        System.out.printf(
                "%s: %d records in %d files, %d bytes (%d newline-separated lines for raw)%n",
                profile, records, FILES, bytes, lines);
        for (int round = -1; round < repeat; round++) {
            for (int q = 0; q < queries.length; q++) {
                long t0 = System.nanoTime();
                env.executeSql(queries[q]).await();
                long t = System.nanoTime() - t0;
                if (round >= 0) {
                    nanos[q][round] = t;
                    System.out.printf("  run %d %-12s %8.3f s%n", round + 1, names[q], t / 1e9);
                }
            }
        }
        double rows = median(nanos[0]) / 1e9;
        double recs = median(nanos[1]) / 1e9;
        double raw = median(nanos[2]) / 1e9;
        double fixed = median(nanos[3]) / 1e9;
        List<Double> ratios = new ArrayList<>();
        List<Double> parsed = new ArrayList<>();
        for (int r = 0; r < repeat; r++) {
            ratios.add((double) nanos[2][r] / nanos[0][r]);
            parsed.add((double) nanos[1][r] / nanos[0][r]);
        }
        ratios.sort(null);
        parsed.sort(null);
        System.out.printf(
                "%s medians: tfrecord %.3f s (%.0f rows/s, %.1f MB/s), tfrecord-raw %.3f s (%.0f"
                        + " rows/s), raw %.3f s (%.0f rows/s, %.1f MB/s), empty job %.3f s%n",
                profile,
                rows,
                records / rows,
                bytes / rows / 1e6,
                recs,
                records / recs,
                raw,
                lines / raw,
                bytes / raw / 1e6,
                fixed);
        System.out.printf(
                "%s tfrecord / raw (same files, per run, sorted): %s; without the empty job's"
                        + " time: %.0f%%; tfrecord-raw / raw %.0f%%%n",
                profile,
                ratios.stream()
                        .map(x -> String.format(Locale.ROOT, "%.0f%%", 100 * x))
                        .collect(Collectors.joining(" ")),
                100 * (raw - fixed) / (rows - fixed),
                100 * raw / recs);
        System.out.printf(
                "%s tfrecord / tfrecord-raw (per run, sorted): %s%n",
                profile,
                parsed.stream()
                        .map(x -> String.format(Locale.ROOT, "%.0f%%", 100 * x))
                        .collect(Collectors.joining(" ")));
    }

    private static long write(ExampleProfile profile, Path data, int records) throws IOException {
        long bytes = 0;
        int perFile = records / FILES;
        List<byte[]> chunk = profile.records(perFile);
        for (int f = 0; f < FILES; f++) {
            Path file = data.resolve("part-" + f + ".tfrecord");
            try (TfRecordWriter w = TfRecordFiles.newWriter(file, Compression.NONE)) {
                for (byte[] r : chunk) {
                    w.write(r);
                }
            }
            bytes += Files.size(file);
        }
        return bytes;
    }

    private static long lines(Path data) throws IOException {
        long n = 0;
        try (var files = Files.list(data)) {
            for (Path f : files.toList()) {
                byte[] b = Files.readAllBytes(f);
                for (byte x : b) {
                    if (x == '\n') {
                        n++;
                    }
                }
                n++;
            }
        }
        return n;
    }

    private static double median(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
    }
}
