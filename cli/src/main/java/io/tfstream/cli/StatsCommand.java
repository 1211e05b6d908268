package io.tfstream.cli;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.TextFormat;
import com.google.protobuf.util.JsonFormat;
import io.tfstream.spec.MalformedSpecFileException;
import io.tfstream.spec.schema.SchemaLoader;
import io.tfstream.stats.ExampleStatistics;
import io.tfstream.stats.StatsOptions;
import io.tfstream.stats.StatsRole;
import io.tfstream.tfrecord.CorruptRecordException;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import io.tfstream.validation.report.StatsReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.tensorflow.example.SequenceExample;
import org.tensorflow.metadata.v0.DatasetFeatureStatisticsList;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tfstream stats FILE...}: TFDV's feature statistics of the Examples in TFRecord files, as a
 * {@code DatasetFeatureStatisticsList} that {@code tfdv.load_stats_binary} and TFX read.
 */
@Command(
        name = "stats",
        header =
                "Feature statistics of the Examples (or SequenceExamples) in TFRecord files, as"
                        + " TFDV computes them.",
        mixinStandardHelpOptions = true,
        description = {
            "Computes TFDV's statistics (common, numeric and string statistics per feature, with"
                    + " TFDV's histograms, top values and rank histogram) of every tf.train.Example"
                    + " in the files, and prints the DatasetFeatureStatisticsList in text"
                    + " format; --out writes it binary (tfdv.load_stats_binary), --json as JSON.",
            "A record that is not an Example, or a damaged file, is reported on stderr and left"
                    + " out (exit 1); a feature of two kinds (int64 in one record, bytes in"
                    + " another) stops the command (exit 1), as it stops TFDV.",
            "Exit code 0 when every record was counted, 1 when one was left out, 2 on a usage"
                    + " error or an unreadable file, 3 when the schema is rejected."
        })
final class StatsCommand implements Callable<Integer> {
    @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

    @Parameters(
            arity = "1..*",
            paramLabel = "FILE",
            description =
                    "TFRecord files of Examples; a directory: the shards under it (names starting"
                            + " with . or _ and manifests skipped).")
    private List<Path> files;

    @CommandLine.Mixin private CompressionOption compression;

    @Option(
            names = "--out",
            paramLabel = "stats.pb",
            description = "Write the statistics here, binary, instead of printing them.")
    private Path out;

    @Option(
            names = {"--seq", "--sequence"},
            description =
                    "The records are tf.train.SequenceExamples: context features as top-level"
                            + " features, feature lists under ##SEQUENCE##, as TFDV reports them.")
    private boolean sequence;

    @Option(
            names = "--weight-feature",
            paramLabel = "NAME",
            description =
                    "Also weighted statistics, each record weighted by this feature's one int64"
                            + " or float value (TFDV's weight_feature; a SequenceExample's context"
                            + " feature).")
    private String weightFeature;

    @Option(
            names = "--schema",
            paramLabel = "SCHEMA",
            description =
                    "A TFMD schema (text or binary) that shapes the statistics as TFDV's"
                            + " StatsOptions(schema=...): image_domain features get bytes"
                            + " statistics, categorical int (int_domain.is_categorical, bool_domain,"
                            + " natural_language_domain) and float (float_domain.is_categorical,"
                            + " needs --sketch-top-values) features string statistics of their"
                            + " values as text, string_domain.is_categorical decides sketched top"
                            + " values.")
    private Path schemaFile;

    @Option(names = "--json", description = "Print the statistics as JSON (protobuf's mapping).")
    private boolean json;

    @Option(
            names = "--html",
            paramLabel = "report.html",
            description =
                    "Also write the statistics' page (tfstream report's, with the --schema's"
                            + " word on each feature).")
    private Path html;

    @Option(
            names = "--name",
            defaultValue = "",
            paramLabel = "NAME",
            description = "The dataset's name (a data split's name, e.g. train; default none).")
    private String name;

    @Option(
            names = "--num-top-values",
            defaultValue = "20",
            paramLabel = "N",
            description = "Top values of a string feature (TFDV's default ${DEFAULT-VALUE}).")
    private int numTopValues;

    @Option(
            names = "--num-rank-histogram-buckets",
            defaultValue = "1000",
            paramLabel = "N",
            description =
                    "Rank histogram entries of a string feature (TFDV's default ${DEFAULT-VALUE});"
                            + " schema inference takes string domains from them.")
    private int numRankBuckets;

    @Option(
            names = "--epsilon",
            defaultValue = "0.01",
            paramLabel = "EPS",
            description =
                    "Error of the quantile sketches behind medians and histograms, as a fraction of"
                            + " the total weight (TFDV's epsilon, default ${DEFAULT-VALUE}: exact"
                            + " up to 11 402 values per feature); 0 keeps every distinct value"
                            + " (exact, memory grows with the data).")
    private double epsilon;

    @Option(
            names = "--sketch-top-values",
            description =
                    "Top values and unique counts from TFDV's Misra-Gries (1 024 counters) and KMV"
                            + " (16 384 fingerprints) sketches, as TFDV's"
                            + " use_sketch_based_topk_uniques, instead of counting every distinct"
                            + " value: bounded memory on features with millions of values.")
    private boolean sketchTopValues;

    @Override
    public Integer call() throws IOException {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (out != null && json) {
            err.println("tfstream stats: --out and --json: choose one");
            return ExitCodes.USAGE;
        }
        StatsOptions options;
        try {
            options =
                    new StatsOptions(
                                    numTopValues,
                                    numRankBuckets,
                                    StatsOptions.DEFAULTS.numValuesHistogramBuckets(),
                                    StatsOptions.DEFAULTS.numHistogramBuckets(),
                                    StatsOptions.DEFAULTS.numQuantilesHistogramBuckets())
                            .withEpsilon(epsilon)
                            .withSketchTopValues(sketchTopValues);
        } catch (IllegalArgumentException e) {
            err.println("tfstream stats: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        java.util.Map<String, StatsRole> roles = java.util.Map.of();
        org.tensorflow.metadata.v0.Schema schema = null;
        if (schemaFile != null) {
            try {
                schema = SchemaLoader.load(schemaFile);
                roles = StatsRole.of(schema);
            } catch (MalformedSpecFileException e) {
                err.println("tfstream stats: schema rejected: " + e.getMessage());
                return ExitCodes.SPEC_REJECTED;
            } catch (IOException e) {
                err.println("tfstream stats: " + FileErrors.describe(schemaFile, e));
                return ExitCodes.USAGE;
            }
        }
        ExampleStatistics stats;
        try {
            stats = new ExampleStatistics(options, weightFeature, roles);
        } catch (IllegalArgumentException e) {
            err.println("tfstream stats: --schema: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        int exit;
        try {
            exit =
                    add(
                            "tfstream stats",
                            files,
                            compression.applyTo(TfRecordReadOptions.defaults()),
                            sequence,
                            stats,
                            err);
        } catch (IllegalArgumentException e) {
            err.println("tfstream stats: " + e.getMessage());
            return ExitCodes.DATA_ERROR;
        }
        if (exit == ExitCodes.USAGE) {
            return exit;
        }
        DatasetFeatureStatisticsList list =
                DatasetFeatureStatisticsList.newBuilder().addDatasets(stats.build(name)).build();
        if (html != null) {
            StatsReport.Builder report =
                    StatsReport.of(
                            files.size() == 1
                                    ? String.valueOf(files.get(0).getFileName())
                                    : files.size() + " inputs",
                            list.getDatasets(0));
            if (schema != null) {
                report.schema(schema);
            }
            try {
                Files.writeString(html, report.build().html());
            } catch (IOException e) {
                err.println("tfstream stats: " + FileErrors.describe(html, e));
                return ExitCodes.USAGE;
            }
            err.println("tfstream stats: report: " + html);
        }
        if (out != null) {
            Files.write(out, list.toByteArray());
            stdout.println(
                    stats.numExamples()
                            + " examples, "
                            + list.getDatasets(0).getFeaturesCount()
                            + " features: "
                            + out);
        } else if (json) {
            stdout.println(JsonFormat.printer().print(list));
        } else {
            stdout.print(TextFormat.printer().printToString(list));
            stdout.flush(); // print does not flush an autoflushing writer, println does
        }
        return exit;
    }

    /**
     * Adds every Example (SequenceExample) of {@code files} (directories: their shards) to {@code
     * stats}; returns the exit code so far.
     *
     * @throws IllegalArgumentException when a feature holds values of two kinds
     */
    static int add(
            String command,
            List<Path> files,
            TfRecordReadOptions options,
            boolean sequence,
            ExampleStatistics stats,
            PrintWriter err)
            throws IOException {
        List<Path> all;
        try {
            all = ManifestChecks.shardsOf(files);
        } catch (IOException e) {
            err.println(command + ": " + e.getMessage());
            return ExitCodes.USAGE;
        }
        int exit = ExitCodes.OK;
        for (Path file : all) {
            try (TfRecordReader r = io.tfstream.tfrecord.TfRecordFiles.openReader(file, options)) {
                long index = 0;
                while (r.next()) {
                    try {
                        if (sequence) {
                            stats.add(SequenceExample.parseFrom(r.copy()));
                        } else {
                            stats.addSerialized(r.copy());
                        }
                    } catch (InvalidProtocolBufferException e) {
                        err.println(
                                file
                                        + ": record "
                                        + index
                                        + " at byte "
                                        + r.recordOffset()
                                        + " is not a tf.train."
                                        + (sequence ? "SequenceExample" : "Example")
                                        + ", left out");
                        exit = ExitCodes.DATA_ERROR;
                    }
                    index++;
                }
            } catch (CorruptRecordException e) {
                err.println(VerifyCommand.damageLine(file, e) + ", the records before it counted");
                exit = ExitCodes.DATA_ERROR;
            } catch (IOException e) {
                err.println(command + ": " + FileErrors.describe(file, e));
                return ExitCodes.USAGE;
            }
        }
        return exit;
    }
}
