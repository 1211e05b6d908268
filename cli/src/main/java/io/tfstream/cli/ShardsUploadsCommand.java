package io.tfstream.cli;

import io.tfstream.job.JobOptions;
import io.tfstream.job.S3Settings;
import io.tfstream.operators.shards.store.S3ShardStoreFactory;
import io.tfstream.operators.shards.store.SnapshotReferences;
import io.tfstream.operators.shards.store.UploadCleanup;
import io.tfstream.text.Quoted;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.flink.util.TimeUtils;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tfstream shards uploads PATH}: lists what shard stores left uncommitted under a shard path
 * (S3 multipart uploads, hidden in-progress files elsewhere) with shard name, job id, run and age,
 * and removes them with {@code --abort}. The job never removes them itself once a checkpoint may
 * hold them (docs/design.md).
 */
@Command(
        name = "uploads",
        header = "Lists (and with --abort removes) the uncommitted uploads under a shard path.",
        mixinStandardHelpOptions = true,
        description = {
            "PATH is the job's shards.path: s3://BUCKET/PREFIX (incomplete multipart uploads whose"
                    + " keys are shard names) or a directory on any other file system (hidden"
                    + " in-progress files .<shard>.inprogress.*, in every bucket below it).",
            "One line per upload: its age, job id, run, the shard's URI and the upload id. A live"
                    + " job holds the uploads of its open shards, and a retained checkpoint or"
                    + " savepoint those it was taken with: abort only uploads older than any"
                    + " snapshot you may still restore (--older-than), or of jobs whose snapshots"
                    + " are gone. A restore of a snapshot that held an aborted upload fails, or with"
                    + " shards.on-lost-shard: drop, goes on without that shard.",
            "--abort aborts only with --older-than or --job: without either it is refused (exit"
                    + " 2), since a running job holds the uploads of its open shards.",
            "--checkpoints and --keep-savepoint spare what snapshots hold: every upload whose id"
                    + " (every in-progress file whose name) a completed checkpoint there or a kept"
                    + " savepoint holds, and every upload of a job with checkpoints there opened"
                    + " since its latest checkpoint began (its running writer may hold those)."
                    + " Each kept one is listed with why.",
            "Exit code 0, 2 when PATH or a snapshot cannot be read, an abort failed or --abort"
                    + " lacks --older-than and --job."
        })
final class ShardsUploadsCommand implements Callable<Integer> {
    @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "PATH", description = "The shard path (shards.path).")
    private String path;

    @Option(
            names = "--older-than",
            paramLabel = "DURATION",
            description =
                    "Only uploads initiated (files modified) longer ago than this: 7 d, 36 h.")
    private String olderThan;

    @Option(
            names = "--job",
            paramLabel = "JOBID",
            description = "Only the uploads of this job (32 hex digits, as listed).")
    private String job;

    @Option(
            names = "--abort",
            description =
                    "Abort (delete) the uploads listed; refused without --older-than or --job,"
                            + " which keep it off a live job's open shards.")
    private boolean abort;

    @Option(
            names = "--checkpoints",
            paramLabel = "URI",
            description =
                    "A checkpoint directory (execution.checkpointing.dir, a job's directory below"
                            + " it, or one chk-N): what its completed checkpoints hold, and what"
                            + " their jobs opened since their latest checkpoint began, is kept;"
                            + " repeatable.")
    private List<String> checkpoints = new ArrayList<>();

    @Option(
            names = "--keep-savepoint",
            paramLabel = "PATH",
            description =
                    "A savepoint (its directory or _metadata) whose uploads are kept;"
                            + " repeatable.")
    private List<String> savepoints = new ArrayList<>();

    @Option(
            names = "--checkpoint-timeout",
            paramLabel = "DURATION",
            defaultValue = "10 min",
            description =
                    "The jobs' execution.checkpointing.timeout (default ${DEFAULT-VALUE}, as"
                            + " Flink's): how long before its _metadata was written a checkpoint"
                            + " may have begun.")
    private String checkpointTimeout;

    /** The clock ages are measured against; tests set it. */
    Clock clock = Clock.systemUTC();

    @Option(
            names = "--set",
            paramLabel = "key=value",
            description =
                    "A job option that applies: shards.prefix, s3.endpoint, s3.path-style-access,"
                            + " s3.credentials-file (without it, the AWS default chain);"
                            + " repeatable.")
    private List<String> sets = new ArrayList<>();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Map<String, String> options = new HashMap<>();
        for (String s : sets) {
            int eq = s.indexOf('=');
            if (eq < 1) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(), "--set takes key=value, got '" + Quoted.cut(s) + "'");
            }
            options.put(s.substring(0, eq).trim(), s.substring(eq + 1).trim());
        }
        if (abort && olderThan == null && job == null) {
            // A running job holds the uploads of its open shards, a retained checkpoint or
            // savepoint those it was taken with: aborting them all loses their records.
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "--abort needs --older-than DURATION (older than any checkpoint or savepoint"
                            + " you may restore) or --job JOBID (a job that no longer runs and"
                            + " whose snapshots are gone): a running job's open shards and its"
                            + " retained snapshots hold the uploads it would abort");
        }
        Duration minAge = olderThan == null ? Duration.ZERO : duration("--older-than", olderThan);
        Duration timeout = duration("--checkpoint-timeout", checkpointTimeout);
        String prefix =
                options.getOrDefault(
                        JobOptions.SHARDS_PREFIX.key(), JobOptions.SHARDS_PREFIX.defaultValue());
        boolean s3 = path.startsWith("s3://") || path.startsWith("s3a://");
        try {
            UploadCleanup.Result r =
                    UploadCleanup.run(
                            new UploadCleanup.Request(
                                    path,
                                    prefix,
                                    minAge,
                                    job,
                                    abort,
                                    snapshots(options, timeout),
                                    s3 ? factory(options, prefix, path) : null),
                            clock.instant());
            r.lines().forEach(out::println);
            return ExitCodes.OK;
        } catch (IOException | RuntimeException e) {
            err.println(
                    "tfstream shards uploads: "
                            + Quoted.cut(path)
                            + ": "
                            + Quoted.cut(String.valueOf(e.getMessage()), Quoted.MAX_MESSAGE_CHARS));
            return ExitCodes.USAGE;
        }
    }

    private Duration duration(String option, String value) {
        try {
            return TimeUtils.parseDuration(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    option + ": " + Quoted.cut(e.getMessage(), Quoted.MAX_MESSAGE_CHARS));
        }
    }

    /** What --checkpoints and --keep-savepoint hold, or null without either. */
    private SnapshotReferences snapshots(Map<String, String> options, Duration timeout)
            throws IOException {
        if (checkpoints.isEmpty() && savepoints.isEmpty()) {
            return null;
        }
        String file = options.get(JobOptions.S3_CREDENTIALS_FILE.key());
        S3Settings.initializeFileSystems(
                options.get(JobOptions.S3_ENDPOINT.key()),
                Boolean.parseBoolean(options.get(JobOptions.S3_PATH_STYLE_ACCESS.key())),
                file == null ? null : Path.of(file));
        return SnapshotReferences.read(checkpoints, savepoints, timeout);
    }

    private static S3ShardStoreFactory factory(
            Map<String, String> options, String prefix, String path) {
        String file = options.get(JobOptions.S3_CREDENTIALS_FILE.key());
        return new S3ShardStoreFactory(
                path,
                prefix,
                options.get(JobOptions.S3_ENDPOINT.key()),
                Boolean.parseBoolean(options.get(JobOptions.S3_PATH_STYLE_ACCESS.key())),
                null,
                file == null ? null : Path.of(file).toAbsolutePath().toString(),
                S3ShardStoreFactory.DEFAULT_PART_SIZE);
    }
}
