package io.tfstream.e2e.soak;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The soak's report: what ran on which machine, the tallies of every output, the faults with their
 * recovery times, the slope of every resource figure over the second half of the load, what the
 * checker saw while it ran, and PNG charts of lag, checkpoint size and heap with the faults marked.
 */
final class SoakReport {
    /** What a run was: its settings and everything measured. */
    record Run(
            String title,
            String command,
            long startMillis,
            long endMillis,
            int rate,
            long produced,
            int failedSends,
            List<SoakChecker.Tally> tallies,
            List<SoakFaults.Done> faults,
            List<SoakSampler.Sample> samples,
            List<SoakChecker.Event> events,
            List<SoakSampler.Failure> failures,
            List<String> checks) {
        /**
         * Minutes from the start of the load to {@code atMillis}: the charts' and the CSV's axis.
         */
        double minute(long atMillis) {
            return (atMillis - startMillis) / 60_000.0;
        }
    }

    /**
     * A figure's trend: least squares over the second half, per hour and as a share of its mean.
     */
    record Trend(String figure, double first, double last, double mean, double perHour) {
        double percentOfMeanPerHour() {
            return mean == 0 ? 0 : 100 * perHour / mean;
        }
    }

    private SoakReport() {}

    /** Writes {@code report.md} and the charts into {@code dir}; returns the report's path. */
    static Path write(Run run, Path dir) throws IOException {
        Files.createDirectories(dir);
        StringBuilder md = new StringBuilder();
        md.append("# ").append(run.title()).append("\n\n");
        md.append("- Machine: ").append(machine()).append('\n');
        md.append("- Started: ").append(Instant.ofEpochMilli(run.startMillis())).append('\n');
        md.append("- Duration: ")
                .append(minutes(run.endMillis() - run.startMillis()))
                .append(" min of load and faults (the last fault may run past the duration),")
                .append(" then the drain and the audit\n");
        md.append("- Command: `").append(run.command()).append("`\n");
        md.append("- Input: ")
                .append(run.produced())
                .append(" records at ")
                .append(run.rate())
                .append("/s (wide Examples, 1% broken)")
                .append(run.failedSends() > 0 ? ", " + run.failedSends() + " sends failed" : "")
                .append("\n\n");

        md.append("## Outputs\n\n| output | expected | found | lost | duplicated |\n");
        md.append("| --- | ---: | ---: | ---: | ---: |\n");
        for (SoakChecker.Tally t : run.tallies()) {
            md.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | %d | %d | %d | %d |%n",
                            t.output(),
                            t.expected(),
                            t.found(),
                            t.lost(),
                            t.duplicated()));
        }

        md.append(
                "\n## Faults\n\n| fault | count | recovery p50 | recovery max | not recovered |\n");
        md.append("| --- | ---: | ---: | ---: | ---: |\n");
        Map<SoakFaults.Kind, List<SoakFaults.Done>> byKind = new EnumMap<>(SoakFaults.Kind.class);
        for (SoakFaults.Done d : run.faults()) {
            byKind.computeIfAbsent(d.kind(), k -> new ArrayList<>()).add(d);
        }
        for (var e : byKind.entrySet()) {
            List<Long> times = new ArrayList<>();
            for (SoakFaults.Done d : e.getValue()) {
                if (d.recovery() != null) {
                    times.add(d.recovery().toMillis());
                }
            }
            times.sort(null);
            md.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | %d | %s | %s | %d |%n",
                            e.getKey().description,
                            e.getValue().size(),
                            times.isEmpty() ? "–" : seconds(times.get((times.size() - 1) / 2)),
                            times.isEmpty() ? "–" : seconds(times.get(times.size() - 1)),
                            e.getValue().size() - times.size()));
        }

        md.append("\n## Resources\n\nSampled every minute; the slope is the least-squares")
                .append(" trend over the second half of the load (the drain left out), the")
                .append(
                        " window the trend check judges. Every sample: [samples.csv](samples.csv).\n\n")
                .append("| figure | first | last | mean (2nd half) | slope per hour |")
                .append(
                        " slope, % of mean per hour |\n| --- | ---: | ---: | ---: | ---: | ---: |\n");
        for (Trend t : trends(load(run.samples(), run.endMillis()))) {
            md.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | %.2f | %.2f | %.2f | %+.2f | %+.1f%% |%n",
                            t.figure(),
                            t.first(),
                            t.last(),
                            t.mean(),
                            t.perHour(),
                            t.percentOfMeanPerHour()));
        }

        md.append("\n## Checks\n\n");
        for (String c : run.checks()) {
            md.append("- ").append(c).append('\n');
        }

        md.append("\n## What the job failed on\n\n");
        if (run.failures().isEmpty()) {
            md.append("Nothing in Flink's exception history.\n");
        } else {
            md.append(
                    "Root causes in Flink's exception history (collected every minute), by"
                            + " count:\n\n| root cause | count |\n| --- | ---: |\n");
            Map<String, Integer> byCause = new java.util.TreeMap<>();
            for (SoakSampler.Failure f : run.failures()) {
                byCause.merge(f.rootCause().replace("|", "\\|"), 1, Integer::sum);
            }
            byCause.forEach(
                    (cause, n) ->
                            md.append("| ").append(cause).append(" | ").append(n).append(" |\n"));
        }

        md.append("\n## What the checker saw while the job ran\n\n");
        if (run.events().isEmpty()) {
            md.append("Nothing: no duplicate, no foreign record, nothing overdue.\n");
        }
        int shown = 0;
        for (SoakChecker.Event e : run.events()) {
            if (shown++ == 50) {
                md.append("- … ").append(run.events().size() - 50).append(" more\n");
                break;
            }
            md.append(
                    String.format(
                            Locale.ROOT,
                            "- %s min: %s: %s%n",
                            minutes(e.atMillis() - run.startMillis()),
                            e.output(),
                            e.what()));
        }

        md.append("\n## Charts\n\nFaults are the vertical lines.\n\n");
        chart(run, dir, "soak-lag.png", "Consumer lag", "records", "consumer lag (records)");
        chart(run, dir, "soak-checkpoint.png", "Checkpoint size", "MB", "checkpoint size (MB)");
        chart(
                run,
                dir,
                "soak-heap.png",
                "Heap after GC",
                "MB",
                "JobManager heap after GC (MB)",
                "TaskManager heap after GC (MB, max)");
        md.append("![lag](soak-lag.png)\n![checkpoint size](soak-checkpoint.png)\n")
                .append("![heap after GC](soak-heap.png)\n");
        writeSamples(run, dir.resolve("samples.csv"));
        Path report = dir.resolve("report.md");
        Files.writeString(report, md.toString());
        return report;
    }

    /** The samples taken until the load ended: the drain's catch-up is no trend of the run. */
    static List<SoakSampler.Sample> load(List<SoakSampler.Sample> samples, long loadEndMillis) {
        return samples.stream().filter(s -> s.atMillis() <= loadEndMillis).toList();
    }

    /**
     * Every sample as CSV (minutes since the start, then each figure), so a report can be redone.
     */
    static void writeSamples(Run run, Path csv) throws IOException {
        StringBuilder out = new StringBuilder("minute");
        for (String figure : SoakSampler.FIGURES) {
            out.append(",\"").append(figure).append('"');
        }
        out.append('\n');
        for (SoakSampler.Sample s : run.samples()) {
            out.append(String.format(Locale.ROOT, "%.2f", run.minute(s.atMillis())));
            for (String figure : SoakSampler.FIGURES) {
                Double v = s.values().get(figure);
                out.append(',').append(v == null ? "" : String.format(Locale.ROOT, "%.2f", v));
            }
            out.append('\n');
        }
        Files.writeString(csv, out);
    }

    /** The trend of each figure over the second half of the samples. */
    static List<Trend> trends(List<SoakSampler.Sample> samples) {
        List<Trend> out = new ArrayList<>();
        if (samples.isEmpty()) {
            return out;
        }
        long mid = (samples.get(0).atMillis() + samples.get(samples.size() - 1).atMillis()) / 2;
        for (String figure : SoakSampler.FIGURES) {
            List<double[]> points = new ArrayList<>();
            double first = Double.NaN;
            double last = Double.NaN;
            for (SoakSampler.Sample s : samples) {
                Double v = s.values().get(figure);
                if (v == null) {
                    continue;
                }
                if (Double.isNaN(first)) {
                    first = v;
                }
                last = v;
                if (s.atMillis() >= mid) {
                    points.add(new double[] {s.atMillis() / 3_600_000.0, v});
                }
            }
            if (points.size() >= 2) {
                out.add(fit(figure, first, last, points));
            }
        }
        return out;
    }

    private static Trend fit(String figure, double first, double last, List<double[]> points) {
        double n = points.size();
        double sx = 0;
        double sy = 0;
        for (double[] p : points) {
            sx += p[0];
            sy += p[1];
        }
        double mx = sx / n;
        double my = sy / n;
        double sxy = 0;
        double sxx = 0;
        for (double[] p : points) {
            sxy += (p[0] - mx) * (p[1] - my);
            sxx += (p[0] - mx) * (p[0] - mx);
        }
        return new Trend(figure, first, last, my, sxx == 0 ? 0 : sxy / sxx);
    }

    private static void chart(
            Run run, Path dir, String file, String title, String unit, String... figures)
            throws IOException {
        XYSeriesCollection data = new XYSeriesCollection();
        for (String figure : figures) {
            XYSeries series = new XYSeries(figure);
            for (SoakSampler.Sample s : run.samples()) {
                Double v = s.values().get(figure);
                if (v != null) {
                    series.add(run.minute(s.atMillis()), v);
                }
            }
            data.addSeries(series);
        }
        JFreeChart chart =
                ChartFactory.createXYLineChart(
                        title, "minutes", unit, data, PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        for (SoakFaults.Done d : run.faults()) {
            ValueMarker m = new ValueMarker(run.minute(d.atMillis()));
            m.setPaint(Color.GRAY);
            m.setStroke(new BasicStroke(1f));
            m.setLabel(d.kind().flag());
            plot.addDomainMarker(m);
        }
        ChartUtils.saveChartAsPNG(dir.resolve(file).toFile(), chart, 1000, 450);
    }

    static String machine() {
        String cpu = "unknown CPU";
        long memKb = 0;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    cpu = line.substring(line.indexOf(':') + 1).trim();
                    break;
                }
            }
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    memKb = Long.parseLong(line.replaceAll("\\D", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            // a machine without /proc: the cores and the JVM still say something
        }
        return String.format(
                Locale.ROOT,
                "%s, %d cores, %.0f GB, %s %s",
                cpu,
                Runtime.getRuntime().availableProcessors(),
                memKb / 1024.0 / 1024.0,
                System.getProperty("java.vm.name"),
                System.getProperty("java.version"));
    }

    private static String minutes(long millis) {
        return String.format(Locale.ROOT, "%.1f", millis / 60_000.0);
    }

    private static String seconds(long millis) {
        return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }

    static String duration(Duration d) {
        return d.toMinutes() >= 60 && d.toMinutesPart() == 0
                ? d.toHours() + " h"
                : d.toMinutes() + " min";
    }
}
