package io.tfstream.cli;

import io.tfstream.spec.MalformedSpecFileException;
import io.tfstream.spec.schema.SchemaLoader;
import io.tfstream.stats.ExampleStatistics;
import io.tfstream.stats.StatsOptions;
import io.tfstream.stats.StatsRole;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import io.tfstream.validation.report.ReportAnomaly;
import io.tfstream.validation.report.StatsReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.tensorflow.metadata.v0.DatasetFeatureStatistics;
import org.tensorflow.metadata.v0.Schema;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tfstream report STATS --out report.html}: one self-contained HTML page of TFDV's
 * statistics ({@link StatsReport}), optionally beside a second dataset's with each feature's drift,
 * with the anomalies of alert JSON lines marked.
 */
@Command(
        name = "report",
        header = "A self-contained HTML page of feature statistics, drift and anomalies.",
        mixinStandardHelpOptions = true,
        description = {
            "Writes one HTML file (styles, script and charts inline; it loads nothing from the"
                    + " network) of the statistics: numeric and categorical features in two"
                    + " tables with count, missing, zeros, min/mean/median/max/std dev, values per"
                    + " example, unique and top values, a STANDARD and a QUANTILES histogram per"
                    + " numeric feature and the most frequent values of a categorical one; sort by"
                    + " name, missing, non-uniformity, drift or anomalies; filter by name.",
            "STATS and --compare are statistics (a DatasetFeatureStatisticsList, binary or"
                    + " text: tfstream stats --out, a bucket's FeatureStats.pb, TFDV's"
                    + " generate_statistics) or TFRecord files of Examples, whose statistics are"
                    + " computed first (as tfstream stats with its defaults).",
            "Exit code 0 with the report written, 1 when a TFRecord input held records that are"
                    + " not Examples (left out, as tfstream stats does), 2 on a usage error or an"
                    + " unreadable input, 3 when the schema is rejected."
        })
final class ReportCommand implements Callable<Integer> {
    @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

    @Parameters(
            index = "0",
            paramLabel = "STATS",
            description = "Statistics (binary or text), or a TFRecord file or directory of shards.")
    private Path stats;

    @Option(
            names = "--out",
            required = true,
            paramLabel = "report.html",
            description = "Where to write the page.")
    private Path out;

    @Option(
            names = "--compare",
            paramLabel = "OTHER_STATS",
            description =
                    "A second dataset (statistics or TFRecord files) shown beside the first, each"
                            + " feature with its drift from it: the L-infinity distance of a"
                            + " categorical feature's values, the Jensen-Shannon divergence of a"
                            + " numeric feature's STANDARD histograms (as the drift alerts compute"
                            + " them); features sorted by it.")
    private Path compare;

    @Option(
            names = "--anomalies",
            paramLabel = "ALERTS.jsonl",
            description =
                    "Alert JSON lines (tfstream validate's output, the alerts topic's records,"
                            + " tfstream local's alerts.jsonl): each feature's anomalies are marked"
                            + " on it with TFDV's texts, the dataset's above the tables.")
    private Path anomalies;

    @Option(
            names = "--schema",
            paramLabel = "SCHEMA",
            description =
                    "A TFMD schema (text or binary): each feature shows its type, presence and"
                            + " domain in it, and the schema's features without statistics are"
                            + " listed; TFRecord inputs get statistics shaped by it (as tfstream"
                            + " stats --schema).")
    private Path schemaFile;

    @Option(
            names = "--split",
            paramLabel = "NAME",
            description = "The dataset to show, when statistics hold several (data splits).")
    private String split;

    @Option(
            names = "--compare-split",
            paramLabel = "NAME",
            description = "The dataset of --compare to show, when it holds several.")
    private String compareSplit;

    @Option(
            names = "--title",
            defaultValue = "Feature statistics",
            paramLabel = "TEXT",
            description = "The page's title (default: ${DEFAULT-VALUE}).")
    private String title;

    @Option(
            names = {"--seq", "--sequence"},
            description = "TFRecord inputs hold tf.train.SequenceExamples.")
    private boolean sequence;

    @CommandLine.Mixin private CompressionOption compression;

    private int exit = ExitCodes.OK;

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        Schema schema = null;
        Map<String, StatsRole> roles = Map.of();
        if (schemaFile != null) {
            try {
                schema = SchemaLoader.load(schemaFile);
                roles = StatsRole.of(schema);
            } catch (MalformedSpecFileException e) {
                err.println("tfstream report: schema rejected: " + e.getMessage());
                return ExitCodes.SPEC_REJECTED;
            } catch (IOException e) {
                err.println("tfstream report: " + FileErrors.describe(schemaFile, e));
                return ExitCodes.USAGE;
            }
        }
        DatasetFeatureStatistics lhs = dataset(stats, split, roles, err);
        if (lhs == null) {
            return ExitCodes.USAGE;
        }
        StatsReport.Builder report = StatsReport.of(name(stats), lhs).title(title);
        if (compare != null) {
            DatasetFeatureStatistics rhs = dataset(compare, compareSplit, roles, err);
            if (rhs == null) {
                return ExitCodes.USAGE;
            }
            report.compare(name(compare), rhs);
        }
        if (anomalies != null) {
            try {
                report.anomalies(ReportAnomaly.readAlerts(anomalies));
            } catch (IOException e) {
                err.println("tfstream report: --anomalies: " + FileErrors.describe(anomalies, e));
                return ExitCodes.USAGE;
            }
        }
        if (schema != null) {
            report.schema(schema);
        }
        try {
            Files.writeString(out, report.build().html());
        } catch (IOException e) {
            err.println("tfstream report: " + FileErrors.describe(out, e));
            return ExitCodes.USAGE;
        }
        spec.commandLine()
                .getOut()
                .println(
                        lhs.getNumExamples()
                                + " examples, "
                                + lhs.getFeaturesCount()
                                + " features: "
                                + out);
        return exit;
    }

    /** The name a dataset is shown under: its file's name. */
    private static String name(Path p) {
        Path f = p.getFileName();
        return f == null ? p.toString() : f.toString();
    }

    /**
     * The statistics of {@code input}: read, or computed from its TFRecords; null when reported.
     */
    private DatasetFeatureStatistics dataset(
            Path input, String splitName, Map<String, StatsRole> roles, PrintWriter err)
            throws IOException {
        TfRecordReadOptions options = compression.applyTo(TfRecordReadOptions.defaults());
        if (!Files.exists(input)) {
            err.println("tfstream report: " + input + ": no such file or directory");
            return null;
        }
        if (Files.isDirectory(input) || holdsRecords(input, options)) {
            ExampleStatistics s;
            try {
                s = new ExampleStatistics(StatsOptions.DEFAULTS, null, roles);
            } catch (IllegalArgumentException e) {
                err.println("tfstream report: --schema: " + e.getMessage());
                return null;
            }
            int code;
            try {
                code =
                        StatsCommand.add(
                                "tfstream report", List.of(input), options, sequence, s, err);
            } catch (IllegalArgumentException e) {
                err.println("tfstream report: " + e.getMessage());
                return null;
            }
            if (code == ExitCodes.USAGE) {
                return null;
            }
            exit = Math.max(exit, code);
            return s.build("");
        }
        try {
            return StatisticsFiles.dataset(
                    "tfstream report", StatisticsFiles.read(input), splitName, err);
        } catch (IOException e) {
            err.println(
                    "tfstream report: "
                            + input
                            + " is neither statistics (binary or text) nor TFRecords: "
                            + e.getMessage());
            return null;
        }
    }

    /** Whether {@code file} starts with a well-framed TFRecord (both CRCs checked). */
    private static boolean holdsRecords(Path file, TfRecordReadOptions options) {
        try (TfRecordReader r = TfRecordFiles.openReader(file, options)) {
            return r.next();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
