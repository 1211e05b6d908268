package io.tfstream.cli;

import io.tfstream.job.LoopbackListeners;
import io.tfstream.text.Quoted;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.ResultKind;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tfstream sql}: runs Flink SQL statements on an embedded cluster, with the {@code
 * tf-example} and {@code tfrecord} formats (and the Kafka and filesystem connectors) available; the
 * rows of each query go to stdout as JSON lines ({@link SqlJsonRows}), nothing else.
 */
@Command(
        name = "sql",
        header = "Runs Flink SQL statements on an embedded cluster; query rows as JSON lines.",
        mixinStandardHelpOptions = true,
        description = {
            "Runs the statements of --file or -e in order (separated by ';'), batch mode unless"
                    + " SET 'execution.runtime-mode' = 'streaming'. Each query's rows are printed"
                    + " as JSON lines (column name -> value; in streaming mode with \"op\"). INSERT"
                    + " statements run to completion before the next statement.",
            "Exit code 0 when every statement succeeded, 2 for a usage error or a statement that"
                    + " does not parse or validate, 4 when a job failed; the error line on stderr"
                    + " names the statement (--verbose: Flink's own log and the stack trace too)."
        })
final class SqlCommand implements Callable<Integer> {
    private static final String RUNTIME_MODE = ExecutionOptions.RUNTIME_MODE.key();

    @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

    @ArgGroup(multiplicity = "1")
    private Input input;

    @Option(
            names = "--verbose",
            description =
                    "Also Flink's own log on stderr (warnings, the stack traces of failed tasks)"
                            + " and the stack trace of a failure.")
    private boolean verbose;

    static final class Input {
        @Option(names = "--file", paramLabel = "SCRIPT.sql", description = "The statements.")
        Path file;

        @Option(names = "-e", paramLabel = "STATEMENTS", description = "The statements inline.")
        String statements;
    }

    @Override
    public Integer call() {
        QuietLogs quiet = QuietLogs.unless(verbose);
        try {
            return run();
        } finally {
            if (quiet != null) {
                quiet.close();
            }
        }
    }

    private int run() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String script;
        try {
            script =
                    input.file != null
                            ? Files.readString(input.file, StandardCharsets.UTF_8)
                            : input.statements;
        } catch (IOException e) {
            err.println("tfstream sql: " + FileErrors.describe(input.file, e));
            return ExitCodes.USAGE;
        }
        List<String> statements = SqlScript.split(script);
        RuntimeExecutionMode mode;
        try {
            mode = runtimeMode(statements);
        } catch (IllegalArgumentException e) {
            err.println("tfstream sql: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        // The script's embedded cluster listens on loopback only, without jar upload.
        Configuration conf = LoopbackListeners.apply(new Configuration());
        conf.set(ExecutionOptions.RUNTIME_MODE, mode);
        TableEnvironment env =
                TableEnvironment.create(
                        EnvironmentSettings.newInstance().withConfiguration(conf).build());
        boolean streaming = mode == RuntimeExecutionMode.STREAMING;
        for (int i = 0; i < statements.size(); i++) {
            String s = statements.get(i);
            String[] set = SqlScript.set(s);
            String name = "statement " + (i + 1) + " (" + SqlScript.summary(s) + ")";
            if (set != null) {
                // The runtime mode was applied when the environment was created.
                if (!set[0].equals(RUNTIME_MODE)) {
                    try {
                        env.getConfig().set(set[0], set[1]);
                    } catch (RuntimeException e) {
                        err.println("tfstream sql: " + name + ": " + rootMessage(e));
                        return ExitCodes.USAGE;
                    }
                }
                continue;
            }
            String inline = SqlTableSecrets.inline(s);
            if (inline != null) {
                err.println(
                        // the statement's number only: its text holds the secret
                        "tfstream sql: statement "
                                + (i + 1)
                                + ": "
                                + inline
                                + ": a secret is only taken as a reference resolved where the"
                                + " Kafka client runs, ${file:/path/to/file.properties:key} or"
                                + " ${env:NAME} (a table's options travel in the job graph)");
                return ExitCodes.USAGE;
            }
            TableResult result;
            try {
                result = env.executeSql(s);
            } catch (RuntimeException e) {
                err.println("tfstream sql: " + name + ": " + rootMessage(e));
                return ExitCodes.USAGE;
            }
            try {
                if (result.getJobClient().isPresent() && !isQuery(s)) {
                    result.await();
                } else if (result.getResultKind() == ResultKind.SUCCESS_WITH_CONTENT) {
                    print(result, streaming, out);
                }
            } catch (Exception e) {
                out.flush();
                err.println("tfstream sql: " + name + " failed: " + rootMessage(e));
                if (verbose) {
                    e.printStackTrace(err);
                }
                return ExitCodes.JOB_FAILED;
            }
        }
        out.flush();
        return ExitCodes.OK;
    }

    private static void print(TableResult result, boolean streaming, PrintWriter out)
            throws Exception {
        SqlJsonRows rows = new SqlJsonRows(result.getResolvedSchema().getColumnNames(), streaming);
        CloseableIterator<Row> it = result.collect();
        try {
            while (it.hasNext()) {
                out.println(rows.line(it.next()));
            }
        } finally {
            it.close();
        }
        out.flush();
    }

    private static boolean isQuery(String statement) {
        String k = SqlScript.keyword(statement);
        return k.equals("SELECT") || k.equals("WITH") || k.equals("VALUES");
    }

    /** The script's runtime mode: its {@code SET 'execution.runtime-mode'}, batch by default. */
    static RuntimeExecutionMode runtimeMode(List<String> statements) {
        String mode = null;
        for (String s : statements) {
            String[] set = SqlScript.set(s);
            if (set == null || !set[0].equals(RUNTIME_MODE)) {
                continue;
            }
            String v = set[1].toLowerCase(Locale.ROOT);
            if (!v.equals("batch") && !v.equals("streaming")) {
                throw new IllegalArgumentException(
                        "'"
                                + RUNTIME_MODE
                                + "' must be 'batch' or 'streaming', got '"
                                + set[1]
                                + "'");
            }
            if (mode != null && !mode.equals(v)) {
                throw new IllegalArgumentException(
                        "a script runs in one mode: '"
                                + RUNTIME_MODE
                                + "' is set to both '"
                                + mode
                                + "' and '"
                                + v
                                + "'");
            }
            mode = v;
        }
        return "streaming".equals(mode)
                ? RuntimeExecutionMode.STREAMING
                : RuntimeExecutionMode.BATCH;
    }

    /** The innermost message of {@code t}'s cause chain that says something. */
    static String rootMessage(Throwable t) {
        String message = t.toString();
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c.getMessage() != null && !c.getMessage().isBlank()) {
                message = c.getMessage();
            }
        }
        return Quoted.cut(message.strip().replaceAll("\\s*\\n\\s*", " "), Quoted.MAX_MESSAGE_CHARS);
    }
}
