package io.tfstream.cli;

import io.tfstream.job.KafkaClientProperties;
import io.tfstream.text.Quoted;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of the {@code tfstream} command line: dispatches to one subcommand per task.
 *
 * <p>Exit codes are those of {@link ExitCodes}, listed by {@code tfstream --help}: 0 success, 1 bad
 * data reported, 2 usage error or unreadable input, 3 the schema or spec was rejected, 4 the
 * streaming job failed.
 */
@Command(
        name = "tfstream",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Streaming tf.train.Example pipelines on Apache Flink.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            ExitCodes.OK + ":Success.",
            ExitCodes.DATA_ERROR
                    + ":Bad data, reported: an error batch, a damaged file, a record skipped.",
            ExitCodes.USAGE + ":Usage error, or an input that cannot be read.",
            ExitCodes.SPEC_REJECTED + ":The schema or feature spec was rejected.",
            ExitCodes.JOB_FAILED + ":The streaming job failed (run, local), or a SQL job (sql)."
        },
        subcommands = {
            CommandLine.HelpCommand.class,
            SpecCommand.class,
            SchemaCommand.class,
            ParseCommand.class,
            ParseSeqCommand.class,
            VerifyCommand.class,
            IndexCommand.class,
            ConvertCommand.class,
            CountCommand.class,
            InspectCommand.class,
            StatsCommand.class,
            ReportCommand.class,
            CatCommand.class,
            ValidateCommand.class,
            RecoverCommand.class,
            ShardsCommand.class,
            RunCommand.class,
            LocalCommand.class,
            SqlCommand.class
        })
public final class TfstreamCli implements Runnable {

    @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        // The S3 file system's AWS SDK prints a multi-line end-of-support notice on stderr.
        if (System.getProperty("aws.java.v1.disableDeprecationAnnouncement") == null) {
            System.setProperty("aws.java.v1.disableDeprecationAnnouncement", "true");
        }
        // Started without deploy/jvm-flags.sh: no client setting may add a Kafka config provider.
        KafkaClientProperties.allowOnlyTfstreamProviders();
        System.exit(run(args));
    }

    /** Runs the CLI and returns its exit code instead of exiting; used by tests. */
    public static int run(String... args) {
        return newCommandLine().execute(args);
    }

    /** Runs the CLI with its standard output and error sent to {@code out} and {@code err}. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cl = newCommandLine();
        cl.setOut(out);
        cl.setErr(err);
        try {
            return cl.execute(args);
        } finally {
            out.flush();
            err.flush();
        }
    }

    static CommandLine newCommandLine() {
        CommandLine cl = new CommandLine(new TfstreamCli());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.getSubcommands()
                .get("run")
                .getCommandSpec()
                .usageMessage()
                .footer(io.tfstream.job.JobOptionsHelp.helpText().replace("%", "%%"));
        cl.setExitCodeExceptionMapper(ExitCodes::forException);
        cl.setParameterExceptionHandler(
                (ex, args) -> {
                    CommandLine cmd = ex.getCommandLine();
                    cmd.getErr()
                            .println(
                                    "tfstream: "
                                            + Quoted.cut(
                                                    ex.getMessage(), Quoted.MAX_MESSAGE_CHARS));
                    CommandLine.UnmatchedArgumentException.printSuggestions(ex, cmd.getErr());
                    cmd.getErr()
                            .println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help'.");
                    return ExitCodes.USAGE;
                });
        return cl;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getErr());
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing subcommand.");
    }
}
