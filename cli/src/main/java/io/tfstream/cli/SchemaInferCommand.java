package io.tfstream.cli;

import com.google.protobuf.TextFormat;
import io.tfstream.stats.ExampleStatistics;
import io.tfstream.stats.SchemaInference;
import io.tfstream.stats.StatsOptions;
import io.tfstream.tfrecord.TfRecordReadOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.tensorflow.metadata.v0.DatasetFeatureStatistics;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tfstream schema infer}: a TFMD schema from statistics ({@code tfstream stats --out}, or
 * TFDV's) or from TFRecord files of Examples, by TFDV's {@code infer_schema} rules.
 */
@Command(
        name = "infer",
        header = "Infers a TFMD schema from statistics or from TFRecord files, as TFDV does.",
        mixinStandardHelpOptions = true,
        description = {
            "Prints the schema TFDV's infer_schema gives for the statistics (a"
                    + " DatasetFeatureStatisticsList, binary or text: tfstream stats, TFDV's"
                    + " generate_statistics) or for the Examples of the files, in text format:"
                    + " types, presence, shape or value counts, bool, int and string domains.",
            "Exit code 0 with a schema, 1 when a file held records that are not Examples or a"
                    + " feature of two kinds, 2 on a usage error."
        })
final class SchemaInferCommand implements Callable<Integer> {
    @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--stats",
            paramLabel = "stats.pb",
            description = "Statistics to infer from (instead of FILEs).")
    private Path stats;

    @Parameters(
            arity = "0..*",
            paramLabel = "FILE",
            description = "TFRecord files of Examples (or directories of shards) to infer from.")
    private List<Path> files = new ArrayList<>();

    @Option(
            names = {"--seq", "--sequence"},
            description = "The FILEs hold tf.train.SequenceExamples.")
    private boolean sequence;

    @Option(
            names = "--no-infer-shape",
            description =
                    "value_count instead of a fixed shape for features that always have the same"
                            + " number of values (TFDV's infer_feature_shape=False).")
    private boolean noShape;

    @Option(
            names = "--max-string-domain-size",
            defaultValue = "100",
            paramLabel = "N",
            description =
                    "A string feature gets a domain of its values when it has at most N distinct"
                            + " ones (default ${DEFAULT-VALUE}, TFDV's).")
    private int maxStringDomainSize;

    @Option(
            names = "--split",
            paramLabel = "NAME",
            description = "The dataset of the statistics to infer from, when they hold several.")
    private String split;

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        if ((stats == null) == files.isEmpty()) {
            err.println("tfstream schema infer: give --stats stats.pb or FILEs (one of them)");
            return ExitCodes.USAGE;
        }
        if (maxStringDomainSize < 0) {
            err.println("tfstream schema infer: --max-string-domain-size must not be negative");
            return ExitCodes.USAGE;
        }
        DatasetFeatureStatistics dataset;
        int exit = ExitCodes.OK;
        if (stats != null) {
            dataset =
                    StatisticsFiles.dataset(
                            "tfstream schema infer", StatisticsFiles.read(stats), split, err);
            if (dataset == null) {
                return ExitCodes.USAGE;
            }
        } else {
            ExampleStatistics s = new ExampleStatistics(StatsOptions.DEFAULTS);
            try {
                exit =
                        StatsCommand.add(
                                "tfstream schema infer",
                                files,
                                TfRecordReadOptions.defaults(),
                                sequence,
                                s,
                                err);
            } catch (IllegalArgumentException e) {
                err.println("tfstream schema infer: " + e.getMessage());
                return ExitCodes.DATA_ERROR;
            }
            if (exit == ExitCodes.USAGE) {
                return exit;
            }
            dataset = s.build("");
        }
        try {
            PrintWriter out = spec.commandLine().getOut();
            out.print(
                    TextFormat.printer()
                            .printToString(
                                    SchemaInference.infer(dataset, !noShape, maxStringDomainSize)));
            out.flush(); // print does not flush an autoflushing writer, println does
        } catch (IllegalArgumentException e) {
            err.println("tfstream schema infer: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        return exit;
    }
}
