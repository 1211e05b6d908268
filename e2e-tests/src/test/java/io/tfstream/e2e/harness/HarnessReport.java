package io.tfstream.e2e.harness;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tfstream.e2e.harness.ThroughputHarness.Latency;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The harness's report: Markdown and JSON tables of the runs (ratios to the pass-through job, the
 * cost of shard writing and of validation, CPU by stage, latency) and the PNG charts.
 */
final class HarnessReport {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HarnessSettings s;
    private final List<HarnessRun> runs;
    private final List<Latency> latencies;
    private final Map<String, Map<String, Long>> stages;
    private final ToLongFunction<String> recordsOf;

    HarnessReport(
            HarnessSettings s,
            List<HarnessRun> runs,
            List<Latency> latencies,
            Map<String, Map<String, Long>> stages,
            ToLongFunction<String> recordsOf) {
        this.s = s;
        this.runs = runs;
        this.latencies = latencies;
        this.stages = stages;
        this.recordsOf = recordsOf;
    }

    /** CPU per record of shard writing: the job with shards against the same job without. */
    private void shardCost(StringBuilder md, ObjectNode root) {
        if (!s.shardCost()) {
            return;
        }
        md.append(
                "\n## Shard writing cost (CPU per record, the same job with and without shards)\n\n");
        md.append(
                "| profile | no shards (CPU s per million) | shards local | added | of which kernel"
                        + " | gzip level 6 | added | gzip level 1 | added"
                        + " | shard MB: none / gzip 6 / gzip 1 |\n");
        md.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        ObjectNode cost = root.putObject("shard_cost");
        for (String profile : s.profiles()) {
            HarnessRun none = find(profile, "tfstream (no shards)");
            HarnessRun local = find(profile, "tfstream (shards local)");
            HarnessRun gzip = find(profile, "tfstream (shards local gzip)");
            HarnessRun gzip1 = find(profile, "tfstream (shards local gzip-1)");
            if (none == null || local == null || gzip == null || gzip1 == null) {
                continue;
            }
            double base = none.cpuSecondsPerMillion();
            double addedLocal = local.cpuSecondsPerMillion() / base - 1;
            double addedGzip = gzip.cpuSecondsPerMillion() / base - 1;
            double addedGzip1 = gzip1.cpuSecondsPerMillion() / base - 1;
            ObjectNode p = cost.putObject(profile);
            p.put("added_cpu_local", addedLocal);
            p.put("added_cpu_local_gzip", addedGzip);
            p.put("added_cpu_local_gzip_1", addedGzip1);
            double addedKernel =
                    (local.kernelCpuSecondsPerMillion() - none.kernelCpuSecondsPerMillion()) / base;
            p.put("added_kernel_cpu_local", addedKernel);
            p.put("shard_bytes_local", local.shardBytes());
            p.put("shard_bytes_gzip", gzip.shardBytes());
            p.put("shard_bytes_gzip_1", gzip1.shardBytes());
            md.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | %.1f | %.1f | %+.0f%% | %+.0f%% | %.1f | %+.0f%% | %.1f | %+.0f%%"
                                    + " | %.0f / %.0f / %.0f |%n",
                            profile,
                            base,
                            local.cpuSecondsPerMillion(),
                            addedLocal * 100,
                            addedKernel * 100,
                            gzip.cpuSecondsPerMillion(),
                            addedGzip * 100,
                            gzip1.cpuSecondsPerMillion(),
                            addedGzip1 * 100,
                            local.shardBytes() / 1e6,
                            gzip.shardBytes() / 1e6,
                            gzip1.shardBytes() / 1e6));
        }
    }

    /**
     * The job with local shards against Flink's own {@code FileSink} writing the same records'
     * bytes, exactly once: CPU per record of each, and their ratio.
     */
    private void fileSinkAnchor(StringBuilder md, ObjectNode root) {
        if (!s.shardCost()) {
            return;
        }
        table(
                md,
                "Against Flink's FileSink (raw record bytes, exactly once)",
                "profile",
                "FileSink (CPU s per million)",
                "pass-through",
                "tfstream, shards only",
                "shards only / FileSink",
                "tfstream (shards local, with payloads)",
                "shards local / FileSink");
        ObjectNode anchor = root.putObject("file_sink");
        for (String profile : s.profiles()) {
            HarnessRun fileSink = find(profile, ThroughputHarness.FILE_SINK);
            HarnessRun only = job(profile, ThroughputHarness.SHARDS_ONLY);
            HarnessRun local = find(profile, "tfstream (shards local)");
            HarnessRun pass = find(profile, "pass-through");
            if (fileSink == null || only == null || local == null || pass == null) {
                continue;
            }
            double ratio = only.cpuSecondsPerMillion() / fileSink.cpuSecondsPerMillion();
            double withPayloads = local.cpuSecondsPerMillion() / fileSink.cpuSecondsPerMillion();
            ObjectNode p = anchor.putObject(profile);
            p.put("file_sink_cpu_seconds_per_million", fileSink.cpuSecondsPerMillion());
            p.put("shards_only_vs_file_sink_cpu", ratio);
            p.put("shards_local_vs_file_sink_cpu", withPayloads);
            md.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | %.1f | %.1f | %.1f | %.2f× | %.1f | %.2f× |%n",
                            profile,
                            fileSink.cpuSecondsPerMillion(),
                            pass.cpuSecondsPerMillion(),
                            only.cpuSecondsPerMillion(),
                            ratio,
                            local.cpuSecondsPerMillion(),
                            withPayloads));
        }
    }

    /**
     * JSON and Avro input against Example input, the job without shards (payloads and dead letters)
     * over the same records: records/s and CPU per record of each, as ratios.
     */
    private void inputFormats(StringBuilder md, ObjectNode root) {
        if (s.inputs().isEmpty()) {
            return;
        }
        md.append("\n## Input formats (the job without shards, the same records)\n\n");
        md.append(
                "| profile | input | records/s | CPU s per million | throughput vs Example input |"
                        + " CPU per record vs Example input |\n| --- | --- | --- | --- | --- | --- |\n");
        ObjectNode formats = root.putObject("input_formats");
        for (String profile : s.profiles()) {
            HarnessRun example = job(profile, "none");
            if (example == null) {
                continue;
            }
            ObjectNode p = formats.putObject(profile);
            for (String format : s.inputs()) {
                HarnessRun r =
                        find(
                                profile,
                                ThroughputHarness.jobName(
                                        "none", ThroughputHarness.DEFAULT_BATCH, format));
                if (r == null) {
                    continue;
                }
                double throughput = r.recordsPerSecond() / example.recordsPerSecond();
                double cpu = r.cpuSecondsPerMillion() / example.cpuSecondsPerMillion();
                p.put(format + "_throughput_vs_example", throughput);
                p.put(format + "_cpu_vs_example", cpu);
                md.append(
                        String.format(
                                Locale.ROOT,
                                "| %s | %s | %.0f | %.1f | %.2f | %.2f |%n",
                                profile,
                                format,
                                r.recordsPerSecond(),
                                r.cpuSecondsPerMillion(),
                                throughput,
                                cpu));
            }
        }
    }

    /** What S3Proxy read and wrote for the shards of the S3 run, against the shards' bytes. */
    private void s3Io(StringBuilder md, ObjectNode root) {
        if (!s.s3()) {
            return;
        }
        md.append("\n## S3 (S3Proxy) I/O per shard byte\n\n");
        md.append(
                "| profile | shard MB | S3Proxy read (x shard bytes) | S3Proxy written (x shard"
                        + " bytes) |\n| --- | --- | --- | --- |\n");
        ObjectNode io = root.putObject("s3_io");
        for (String profile : s.profiles()) {
            HarnessRun r = find(profile, "tfstream (shards s3proxy)");
            if (r == null || r.shardBytes() == 0) {
                continue;
            }
            double read = (double) r.s3ProxyReadBytes() / r.shardBytes();
            double written = (double) r.s3ProxyWrittenBytes() / r.shardBytes();
            ObjectNode p = io.putObject(profile);
            p.put("shard_bytes", r.shardBytes());
            p.put("s3proxy_read_ratio", read);
            p.put("s3proxy_written_ratio", written);
            md.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | %.0f | %.2f | %.2f |%n",
                            profile,
                            r.shardBytes() / 1e6,
                            read,
                            written));
        }
    }

    /** A section's heading and its table's header row. */
    private static void table(StringBuilder md, String heading, String... columns) {
        md.append("\n## ").append(heading).append("\n\n|");
        for (String c : columns) {
            md.append(' ').append(c).append(" |");
        }
        md.append("\n|").append(" --- |".repeat(columns.length)).append('\n');
    }

    /** The tfstream run of {@code profile} with shards setting {@code shards}, default batches. */
    private HarnessRun job(String profile, String shards) {
        return find(profile, ThroughputHarness.jobName(shards, ThroughputHarness.DEFAULT_BATCH));
    }

    private HarnessRun find(String profile, String job) {
        return runs.stream()
                .filter(r -> r.profile().equals(profile) && r.job().equals(job))
                .findFirst()
                .orElse(null);
    }

    /** Writes report.md, report.json and the charts into the output directory. */
    Path write() throws IOException {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode settings = root.putObject("settings");
        ObjectNode loaded = settings.putObject("records");
        StringBuilder perProfile = new StringBuilder();
        for (String profile : s.profiles()) {
            loaded.put(profile, recordsOf.applyAsLong(profile));
            perProfile.append(perProfile.length() == 0 ? "" : ", ");
            perProfile.append(recordsOf.applyAsLong(profile)).append(' ').append(profile);
        }
        settings.put("partitions", s.partitions());
        settings.put("parallelism", s.parallelism());
        settings.put("checkpoint_interval_ms", s.checkpointInterval().toMillis());
        settings.put("repeat", s.repeat());
        settings.put("machine", machine());
        ArrayNode rs = root.putArray("runs");
        StringBuilder md = new StringBuilder("# tfstream throughput harness\n\n");
        md.append(
                String.format(
                        Locale.ROOT,
                        "Records loaded: %s; %d partitions, parallelism %d, checkpoint every %d ms;"
                                + " each figure the median of %d interleaved runs; %s.%n%n",
                        perProfile,
                        s.partitions(),
                        s.parallelism(),
                        s.checkpointInterval().toMillis(),
                        s.repeat(),
                        machine()));
        md.append(
                "| profile | job | records/s | CPU s per million | S3Proxy CPU s per million |"
                        + " vs pass-through (throughput) |\n");
        md.append("| --- | --- | --- | --- | --- | --- |\n");
        DefaultCategoryDataset bars = new DefaultCategoryDataset();
        for (HarnessRun r : runs) {
            HarnessRun base =
                    runs.stream()
                            .filter(
                                    x ->
                                            x.profile().equals(r.profile())
                                                    && x.job().equals("pass-through"))
                            .findFirst()
                            .orElse(r);
            double ratio = r.recordsPerSecond() / base.recordsPerSecond();
            ObjectNode j = rs.addObject();
            j.put("profile", r.profile());
            j.put("job", r.job());
            j.put("records", r.records());
            j.put("seconds", r.seconds());
            j.put("cpu_seconds", r.cpuSeconds());
            j.put("kernel_cpu_seconds", r.kernelCpuSeconds());
            j.put("records_per_second", r.recordsPerSecond());
            j.put("cpu_seconds_per_million", r.cpuSecondsPerMillion());
            j.put("throughput_vs_pass_through", ratio);
            j.put("s3proxy_cpu_seconds", r.s3ProxyCpuSeconds());
            md.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | %s | %.0f | %.1f | %s | %.2f |%n",
                            r.profile(),
                            r.job(),
                            r.recordsPerSecond(),
                            r.cpuSecondsPerMillion(),
                            r.s3ProxyCpuSeconds() > 0
                                    ? String.format(
                                            Locale.ROOT,
                                            "%.1f",
                                            r.s3ProxyCpuSeconds() * 1e6 / r.records())
                                    : "",
                            ratio));
            bars.addValue(r.recordsPerSecond(), r.job(), r.profile());
        }
        shardCost(md, root);
        fileSinkAnchor(md, root);
        inputFormats(md, root);
        s3Io(md, root);
        validationCost(md, root);
        md.append(
                "\n## CPU by stage (JFR execution samples of the tfstream run, shards local)\n\n");
        if (stages.isEmpty()) {
            md.append("Not profiled (harness.profiled-job off).\n");
        }
        ObjectNode st = root.putObject("stages");
        for (Map.Entry<String, Map<String, Long>> e : stages.entrySet()) {
            long total = e.getValue().values().stream().mapToLong(Long::longValue).sum();
            ObjectNode p = st.putObject(e.getKey());
            md.append("- ").append(e.getKey()).append(": ");
            List<String> parts = new ArrayList<>();
            for (Map.Entry<String, Long> x : e.getValue().entrySet()) {
                p.put(x.getKey(), x.getValue());
                parts.add(
                        String.format(
                                Locale.ROOT,
                                "%s %.0f%%",
                                x.getKey(),
                                total == 0 ? 0 : 100.0 * x.getValue() / total));
            }
            md.append(String.join(", ", parts))
                    .append(String.format(Locale.ROOT, " (%d samples)%n", total));
        }
        md.append("\n## End-to-end latency (append → visible to a read_committed consumer)\n\n");
        md.append(
                String.format(
                        Locale.ROOT,
                        "%d records/s for %d s, profile %s.%n%n",
                        s.latencyRate(),
                        s.latencyDuration().toSeconds(),
                        s.profiles().get(0)));
        md.append(
                "| batch delay | p50 ms | p99 ms | max ms | target p99 ≤ checkpoint + delay + 200 ms | records |\n");
        md.append("| --- | --- | --- | --- | --- | --- |\n");
        ArrayNode ls = root.putArray("latency");
        XYSeriesCollection cdf = new XYSeriesCollection();
        for (Latency l : latencies) {
            long target = s.checkpointInterval().toMillis() + l.batchDelayMs() + 200;
            ObjectNode j = ls.addObject();
            j.put("batch_delay_ms", l.batchDelayMs());
            j.put("p50_ms", l.p50());
            j.put("p99_ms", l.p99());
            j.put("max_ms", l.max());
            j.put("samples", l.samples());
            j.put("target_p99_ms", target);
            md.append(
                    String.format(
                            Locale.ROOT,
                            "| %d ms | %.0f | %.0f | %.0f | %d ms: %s | %d |%n",
                            l.batchDelayMs(),
                            l.p50(),
                            l.p99(),
                            l.max(),
                            target,
                            l.p99() <= target ? "met" : "missed",
                            l.samples()));
            XYSeries series = new XYSeries("batch delay " + l.batchDelayMs() + " ms");
            List<Double> sorted = l.sorted();
            int step = Math.max(1, sorted.size() / 500);
            for (int i = 0; i < sorted.size(); i += step) {
                series.add(sorted.get(i).doubleValue(), (double) (i + 1) / sorted.size());
            }
            if (!sorted.isEmpty()) {
                series.add(sorted.get(sorted.size() - 1).doubleValue(), 1.0);
            }
            cdf.addSeries(series);
        }
        md.append(
                "\n![throughput](throughput.png)\n\n![throughput by batch size](throughput-by-batch.png)"
                        + "\n\n![latency CDF](latency-cdf.png)\n");
        XYSeriesCollection byBatch = new XYSeriesCollection();
        for (String profile : s.profiles()) {
            XYSeries series = new XYSeries(profile + " (shards local)");
            for (int size : s.batchSizes()) {
                HarnessRun r = find(profile, ThroughputHarness.jobName("local", size));
                if (r != null) {
                    series.add(size, r.recordsPerSecond());
                }
            }
            byBatch.addSeries(series);
        }
        JFreeChart batchChart =
                ChartFactory.createXYLineChart(
                        "Throughput by batch.max-records",
                        "batch.max-records",
                        "records/s",
                        byBatch,
                        PlotOrientation.VERTICAL,
                        true,
                        false,
                        false);
        ChartUtils.saveChartAsPNG(
                s.out().resolve("throughput-by-batch.png").toFile(), batchChart, 900, 500);
        JFreeChart bar =
                ChartFactory.createBarChart(
                        "Throughput",
                        "profile",
                        "records/s",
                        bars,
                        PlotOrientation.VERTICAL,
                        true,
                        false,
                        false);
        ChartUtils.saveChartAsPNG(s.out().resolve("throughput.png").toFile(), bar, 900, 500);
        JFreeChart line =
                ChartFactory.createXYLineChart(
                        "End-to-end latency CDF",
                        "latency (ms)",
                        "fraction of records",
                        cdf,
                        PlotOrientation.VERTICAL,
                        true,
                        false,
                        false);
        ChartUtils.saveChartAsPNG(s.out().resolve("latency-cdf.png").toFile(), line, 900, 500);
        Files.writeString(
                s.out().resolve("report.json"),
                JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n");
        Path report = s.out().resolve("report.md");
        Files.writeString(report, md.toString());
        System.out.println("[harness] report: " + report.toAbsolutePath());
        return report;
    }

    private static String machine() {
        return Runtime.getRuntime().availableProcessors()
                + " cores, "
                + System.getProperty("java.vm.name")
                + " "
                + System.getProperty("java.version")
                + ", "
                + System.getProperty("os.name")
                + " "
                + System.getProperty("os.arch");
    }

    /**
     * CPU per record of validation and of window statistics: the job with shards local, with
     * validation, and with validation and statistics.
     */
    private void validationCost(StringBuilder md, ObjectNode root) {
        if (!s.validation()) {
            return;
        }
        md.append("\n## Validation cost (CPU per record, the same job with and without)\n\n");
        md.append(
                "| profile | shards local (CPU s per million) | with validation | added |"
                        + " throughput vs pass-through | with statistics too | statistics added |"
                        + " throughput vs pass-through |\n");
        md.append("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
        ObjectNode cost = root.putObject("validation_cost");
        for (String profile : s.profiles()) {
            HarnessRun local = find(profile, "tfstream (shards local)");
            HarnessRun validated = job(profile, ThroughputHarness.VALIDATED);
            HarnessRun statistics = job(profile, ThroughputHarness.WITH_STATISTICS);
            HarnessRun pass = find(profile, "pass-through");
            if (local == null || validated == null || pass == null) {
                continue;
            }
            double added = validated.cpuSecondsPerMillion() / local.cpuSecondsPerMillion() - 1;
            double ratio = validated.recordsPerSecond() / pass.recordsPerSecond();
            ObjectNode p = cost.putObject(profile);
            p.put("added_cpu", added);
            p.put("throughput_vs_pass_through", ratio);
            String withStatistics = "| - | - | - |";
            if (statistics != null) {
                double statsAdded =
                        statistics.cpuSecondsPerMillion() / validated.cpuSecondsPerMillion() - 1;
                double statsRatio = statistics.recordsPerSecond() / pass.recordsPerSecond();
                p.put("statistics_added_cpu", statsAdded);
                p.put("statistics_throughput_vs_pass_through", statsRatio);
                withStatistics =
                        String.format(
                                Locale.ROOT,
                                "| %.1f | %+.0f%% | %.2f |",
                                statistics.cpuSecondsPerMillion(),
                                statsAdded * 100,
                                statsRatio);
            }
            md.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | %.1f | %.1f | %+.0f%% | %.2f %s%n",
                            profile,
                            local.cpuSecondsPerMillion(),
                            validated.cpuSecondsPerMillion(),
                            added * 100,
                            ratio,
                            withStatistics));
        }
        bucketStatisticsCost(md, cost);
    }

    /** CPU per record of each finished bucket's statistics: shards local with and without. */
    private void bucketStatisticsCost(StringBuilder md, ObjectNode cost) {
        md.append(
                "\n## Bucket statistics cost (shards.statistics, CPU per record, the same job with"
                        + " and without)\n\n");
        md.append(
                "| profile | shards local (CPU s per million) | with bucket statistics | added |"
                        + " throughput vs pass-through |\n");
        md.append("| --- | --- | --- | --- | --- |\n");
        for (String profile : s.profiles()) {
            HarnessRun local = find(profile, "tfstream (shards local)");
            HarnessRun buckets = job(profile, ThroughputHarness.BUCKET_STATISTICS);
            HarnessRun pass = find(profile, "pass-through");
            if (local == null || buckets == null || pass == null) {
                continue;
            }
            double added = buckets.cpuSecondsPerMillion() / local.cpuSecondsPerMillion() - 1;
            double ratio = buckets.recordsPerSecond() / pass.recordsPerSecond();
            ObjectNode p =
                    cost.has(profile) ? (ObjectNode) cost.get(profile) : cost.putObject(profile);
            p.put("bucket_statistics_added_cpu", added);
            p.put("bucket_statistics_throughput_vs_pass_through", ratio);
            md.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | %.1f | %.1f | %+.0f%% | %.2f |%n",
                            profile,
                            local.cpuSecondsPerMillion(),
                            buckets.cpuSecondsPerMillion(),
                            added * 100,
                            ratio));
        }
    }
}
