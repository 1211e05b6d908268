package io.tfstream.cli;

import io.tfstream.spec.MalformedSpecFileException;
import io.tfstream.spec.schema.SchemaLoader;
import io.tfstream.text.Quoted;
import io.tfstream.tfrecord.CorruptRecordException;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import io.tfstream.validation.Alert;
import io.tfstream.validation.AlertJson;
import io.tfstream.validation.SchemaLintException;
import io.tfstream.validation.SeverityPolicy;
import io.tfstream.validation.ValidationOptions;
import io.tfstream.validation.ValidationSchema;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.flink.util.TimeUtils;
import org.tensorflow.metadata.v0.Schema;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tfstream validate --schema S FILE...}: validates the records of TFRecord files against a
 * TFMD schema with the streaming job's checks ({@code io.tfstream.validation}) and prints one alert
 * JSON line per alert (docs/validation.md#alert-format), nothing else on stdout.
 */
@Command(
        name = "validate",
        header =
                "Validates TFRecord files against a TFMD schema; prints one alert JSON line per"
                        + " anomaly.",
        mixinStandardHelpOptions = true,
        description = {
            "Checks every record against the schema (per-record checks, rolled up per window),"
                    + " then each window (presence, domain mass, unique counts, dataset"
                    + " constraints) and, with --window DURATION, drift between consecutive"
                    + " windows. Schema problems are SCHEMA alerts. Example references name the"
                    + " file (\"topic\") and the record index (\"offset\", partition 0).",
            "Exit code 0 when there is no anomaly, 1 when there are anomalies (or records that"
                    + " do not parse, or have no event time with --window DURATION), 2 on a usage"
                    + " error or a file that cannot be read or is damaged (the records before the"
                    + " damage are still validated), 3 when the schema is rejected."
        })
final class ValidateCommand implements Callable<Integer> {
    /** The job name that goes into alert ids. */
    static final String JOB = "tfstream-validate";

    /** Unit of the {@code --event-time-feature} values. */
    enum EventTimeUnit {
        MS(1),
        S(1000);

        final long millis;

        EventTimeUnit(long millis) {
            this.millis = millis;
        }
    }

    @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

    @Parameters(
            arity = "1..*",
            paramLabel = "FILE",
            description =
                    "TFRecord files to validate; a directory: the shards under it (names starting with . or _ and manifests skipped).")
    private List<Path> files;

    @Option(
            names = "--schema",
            required = true,
            paramLabel = "SCHEMA",
            description = "TFMD Schema, text format (.pbtxt) or binary (.pb).")
    private Path schemaFile;

    @Option(
            names = "--environment",
            paramLabel = "ENV",
            description = "Validation environment, one of the schema's default_environment.")
    private String environment;

    @Option(
            names = "--window",
            defaultValue = "all",
            paramLabel = "all|DURATION",
            description =
                    "all (default): the whole input is one window; DURATION (e.g. 1h, 10 min,"
                            + " 30s): tumbling event-time windows, drift compared between"
                            + " consecutive windows. Needs --event-time-feature.")
    private String window;

    @Option(
            names = "--event-time-feature",
            paramLabel = "NAME",
            description =
                    "int64 feature (one value; SequenceExample: a context feature) holding the"
                            + " record's event time.")
    private String eventTimeFeature;

    @Option(
            names = "--event-time-unit",
            defaultValue = "ms",
            paramLabel = "ms|s",
            description = "Unit of --event-time-feature: epoch ms (default) or epoch seconds.")
    private EventTimeUnit eventTimeUnit;

    @Option(
            names = "--min-drift-examples",
            defaultValue = "" + ValidationOptions.DEFAULT_MIN_DRIFT_EXAMPLES,
            paramLabel = "N",
            description =
                    "Fewest examples with a feature in each of two windows before their drift is"
                            + " compared (default: ${DEFAULT-VALUE}).")
    private long minDriftExamples;

    @Option(
            names = "--severity-override",
            paramLabel = "TYPE=SEVERITY",
            description =
                    "TFDV's severity_overrides: the severity (ERROR or WARNING) of the alerts of"
                            + " anomaly type TYPE, e.g. SCHEMA_NEW_COLUMN=WARNING; repeatable."
                            + " Dataset-level anomalies stay ERROR.")
    private List<String> severityOverrides = new ArrayList<>();

    @Option(
            names = {"--sequence", "--seq"},
            description = "Records are tf.train.SequenceExamples.")
    private boolean sequence;

    @CommandLine.Mixin private CompressionOption compression;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        try {
            files = ManifestChecks.shardsOf(files); // a directory: the shards under it
        } catch (IOException e) {
            err.println("tfstream validate: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        long size;
        try {
            size = windowSize();
        } catch (IllegalArgumentException e) {
            err.println("tfstream validate: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        try {
            // the check of the job's validation.min-drift-examples
            io.tfstream.api.options.ValidationOptions.OPTIONS.check(
                    io.tfstream.api.options.ValidationOptions.MIN_DRIFT_EXAMPLES,
                    minDriftExamples,
                    "--min-drift-examples");
        } catch (IllegalArgumentException e) {
            err.println("tfstream validate: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        SeverityPolicy severity;
        try {
            severity = SeverityPolicy.parse(severityOverrides);
        } catch (IllegalArgumentException e) {
            err.println("tfstream validate: --severity-override " + e.getMessage());
            return ExitCodes.USAGE;
        }
        Schema parsed;
        try {
            parsed = SchemaLoader.load(schemaFile);
        } catch (MalformedSpecFileException e) {
            err.println("tfstream validate: schema rejected: " + e.getMessage());
            return ExitCodes.SPEC_REJECTED;
        } catch (IOException e) {
            err.println("tfstream validate: " + FileErrors.describe(schemaFile, e));
            return ExitCodes.USAGE;
        }
        if (environment != null && !parsed.getDefaultEnvironmentList().contains(environment)) {
            // TFDV refuses an environment the schema does not declare: a mistake of the command
            // line, not of the schema.
            err.println(
                    "tfstream validate: --environment "
                            + environment
                            + ": "
                            + (parsed.getDefaultEnvironmentCount() == 0
                                    ? "the schema declares no environments (default_environment);"
                                            + " leave --environment out"
                                    : "the schema's environments are "
                                            + String.join(
                                                    ", ", parsed.getDefaultEnvironmentList())));
            return ExitCodes.USAGE;
        }
        ValidationSchema schema;
        try {
            schema =
                    ValidationSchema.build(
                            parsed,
                            ValidationOptions.defaults()
                                    .withEnvironment(environment)
                                    .withMinDriftExamples(minDriftExamples));
        } catch (SchemaLintException e) {
            err.println("tfstream validate: schema rejected: " + e.getMessage());
            return ExitCodes.SPEC_REJECTED;
        }
        Progress progress =
                Progress.onTerminal(
                        spec.commandLine().getOut(),
                        err,
                        files.size(),
                        VerifyCommand.totalSize(files));
        ValidationRun run =
                new ValidationRun(
                        schema,
                        new ValidationWindows(schema, size, severity),
                        eventTimeFeature == null
                                ? null
                                : new EventTimeReader(
                                        eventTimeFeature,
                                        eventTimeUnit.millis,
                                        schema.options().parseLimits()),
                        size > 0,
                        sequence,
                        progress.err());
        int exit = ExitCodes.OK;
        TfRecordReadOptions options = compression.applyTo(TfRecordReadOptions.defaults());
        for (Path file : files) {
            exit = Math.max(exit, read(file, options, run, progress));
            progress.fileDone(VerifyCommand.sizeOf(file));
        }
        progress.done();
        List<Alert> alerts = run.windows().alerts(JOB, System.currentTimeMillis());
        PrintWriter out = progress.out();
        for (Alert a : alerts) {
            out.println(AlertJson.write(a));
        }
        out.flush();
        exit = Math.max(exit, run.report(files.size(), alerts.size()));
        return alerts.isEmpty() ? exit : Math.max(exit, ExitCodes.DATA_ERROR);
    }

    /** The window length in ms, 0 for {@code all}; refuses a bad value or a missing feature. */
    private long windowSize() {
        if (window.equals("all")) {
            return 0;
        }
        Duration d;
        try {
            d = TimeUtils.parseDuration(window);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new IllegalArgumentException(
                    "--window must be 'all' or a duration such as 1h, 10 min, 30s; got '"
                            + Quoted.cut(window)
                            + "'",
                    e);
        }
        if (d.toMillis() <= 0) {
            throw new IllegalArgumentException(
                    "--window must be at least 1 ms, got '" + Quoted.cut(window) + "'");
        }
        if (eventTimeFeature == null) {
            throw new IllegalArgumentException(
                    "--window "
                            + window
                            + " windows records by event time: set --event-time-feature to"
                            + " the int64 feature that holds it (or use --window all)");
        }
        return d.toMillis();
    }

    /** Validates every record of {@code file}; returns the exit code the file alone earns. */
    private static int read(
            Path file, TfRecordReadOptions options, ValidationRun run, Progress progress) {
        try (TfRecordReader reader = ProgressInput.openReader(file, options, progress)) {
            while (reader.next()) {
                run.record(
                        file.toString(),
                        reader.recordIndex(),
                        reader.recordOffset(),
                        reader.buffer(),
                        reader.offset(),
                        reader.length());
            }
            return ExitCodes.OK;
        } catch (CorruptRecordException e) {
            progress.err().println("tfstream validate: " + VerifyCommand.damageLine(file, e));
            return ExitCodes.USAGE;
        } catch (IOException e) {
            progress.err().println("tfstream validate: " + FileErrors.describe(file, e));
            return ExitCodes.USAGE;
        }
    }
}
