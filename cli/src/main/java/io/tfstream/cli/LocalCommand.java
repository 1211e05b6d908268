package io.tfstream.cli;

import io.tfstream.convert.InputFormat;
import io.tfstream.job.JobConfigException;
import io.tfstream.job.JobSchemaRejectedException;
import io.tfstream.local.LocalOptions;
import io.tfstream.local.LocalRun;
import io.tfstream.local.LocalSummary;
import io.tfstream.tfrecord.Compression;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tfstream local}: the whole pipeline on this machine with one command — an embedded Kafka
 * broker, sample data, the real job on an embedded Flink cluster with the web UI, and every output
 * on disk under {@code --out} (docs/getting-started.md#what-tfstream-local-leaves-on-disk).
 */
@Command(
        name = "local",
        header =
                "Runs the whole pipeline on this machine: embedded Kafka, sample data, the job,"
                        + " outputs on disk.",
        mixinStandardHelpOptions = true,
        description = {
            "Starts a Kafka broker in this JVM (or uses --broker), produces the input (the seed-001"
                    + " sample dataset, or every record of --input) with --corrupt-fraction of it"
                    + " broken, runs the streaming job on an embedded Flink cluster with the web UI"
                    + " until every record is processed and committed, and leaves in --out:"
                    + " shards/ (TFRecord shards), dlq.jsonl (dead letters), batches.tfrecord"
                    + " (tensor payloads), summary.json.",
            "Exit code 0 when the run completed (whatever the data), 2 for a usage error or"
                    + " unreadable input, 3 for a rejected schema, 4 when the job failed."
        })
final class LocalCommand implements Callable<Integer> {
    @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--schema",
            paramLabel = "SCHEMA.pbtxt",
            description = "TFMD schema of the input (default: the seed-001 sample's).")
    private Path schema;

    @Option(
            names = "--feature-spec",
            paramLabel = "SPEC.json",
            description = "A SPEC.json or SEQSPEC.json instead of a schema.")
    private Path featureSpec;

    @Option(
            names = "--input",
            paramLabel = "FILE.tfrecord",
            description =
                    "Produce every record of this TFRecord file (any compression), in file order,"
                            + " round-robin over the partitions; default: the seed-001 sample.")
    private Path input;

    @Option(
            names = "--input-format",
            paramLabel = "example|json|avro",
            defaultValue = "example",
            description =
                    "What --input holds: example (a TFRecord file of Examples, default), json (JSON"
                            + " Lines: one object per line, each produced as one message) or avro"
                            + " (an Avro container file: each record produced as Avro binary, the"
                            + " file's schema the job's source.avro.schema-path).")
    private String inputFormat;

    @Option(
            names = "--files",
            paramLabel = "DIR",
            description =
                    "Run the job on the TFRecord files under DIR (source.type files, bounded)"
                            + " instead of producing to Kafka; damaged regions are dead-lettered"
                            + " as corrupt_input.")
    private Path files;

    @Option(
            names = "--records",
            paramLabel = "N",
            description =
                    "Records of the sample to produce (default 10000); with --input, at most the"
                            + " first N of the file.")
    private Integer records;

    @Option(
            names = "--corrupt-fraction",
            paramLabel = "F",
            defaultValue = "0",
            description =
                    "Share of the records (0..1) replaced by broken ones: truncated, flipped"
                            + " bytes or a feature of the wrong type (default ${DEFAULT-VALUE}).")
    private double corruptFraction;

    @Option(
            names = "--seed",
            paramLabel = "S",
            defaultValue = "1",
            description = "Seed of the sample data and of the broken records' positions.")
    private long seed;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            defaultValue = "tfstream-local",
            description =
                    "Output directory (default ${DEFAULT-VALUE}); a previous run's outputs in it"
                            + " are replaced, other files refused.")
    private Path out;

    @Option(
            names = "--partitions",
            paramLabel = "P",
            defaultValue = "2",
            description = "Partitions of the input topic (default ${DEFAULT-VALUE}).")
    private int partitions;

    @Option(
            names = "--parallelism",
            paramLabel = "K",
            defaultValue = "2",
            description = "Parallelism of the job (default ${DEFAULT-VALUE}).")
    private int parallelism;

    @Option(
            names = "--compression",
            paramLabel = "none|gzip|zlib",
            description = "Shard compression (default: the job's, none; gzip with shards.splits).")
    private Compression compression;

    @Option(
            names = "--config",
            paramLabel = "job.yaml",
            description = "Job options (see tfstream run) over the local defaults.")
    private Path config;

    @Option(
            names = "--set",
            paramLabel = "key=value",
            description = "Sets one job option; repeatable; wins over --config.")
    private List<String> sets = new ArrayList<>();

    @Option(
            names = "--summary-json",
            paramLabel = "FILE",
            description = "Also write the summary to FILE.")
    private Path summaryJson;

    @Option(
            names = "--broker",
            paramLabel = "HOST:PORT",
            description = "Use this Kafka broker instead of an embedded one (topics get a run id).")
    private String broker;

    @Option(
            names = "--broker-config",
            paramLabel = "FILE",
            description =
                    "Kafka client settings for --broker (security.protocol, sasl.*, ssl.*), a"
                            + " properties file as Kafka's tools take with --command-config. The"
                            + " job refers to its secrets as ${file:FILE:KEY}, read where its"
                            + " clients run.")
    private Path brokerConfig;

    @Option(
            names = "--s3",
            paramLabel = "ENDPOINT",
            description =
                    "Write the shards to this S3 endpoint (with --s3-bucket; credentials from"
                            + " the environment or --set s3.credentials-file=...).")
    private String s3Endpoint;

    @Option(names = "--s3-bucket", paramLabel = "BUCKET", description = "Bucket for --s3.")
    private String s3Bucket;

    @Option(
            names = "--s3proxy",
            description =
                    "Start S3Proxy as a local object store and write the shards there (objects"
                            + " under DIR/s3/).")
    private boolean s3proxy;

    @Option(
            names = "--rest-port",
            paramLabel = "PORT",
            defaultValue = "8081",
            description = "Port of the web UI (default ${DEFAULT-VALUE}; 0: any free port).")
    private int restPort;

    @Option(
            names = "--metrics-port",
            paramLabel = "PORT",
            description =
                    "Serve the job's and Flink's metrics for Prometheus at"
                            + " http://127.0.0.1:PORT/metrics while the job runs (Flink's"
                            + " Prometheus reporter; docs/operations.md).")
    private Integer metricsPort;

    @Option(
            names = "--next-schema",
            paramLabel = "FILE",
            description =
                    "A new TFMD schema (or SPEC.json with --feature-spec) taken up while the job"
                            + " runs (schema.update: poll, docs/schema-changes.md): written to the"
                            + " path the job watches after --next-schema-after records.")
    private Path nextSchema;

    @Option(
            names = "--next-schema-after",
            paramLabel = "N",
            description =
                    "With --next-schema: the job reads the first N records, the file is written,"
                            + " then the rest of the records are produced.")
    private Long nextSchemaAfter;

    @Override
    public Integer call() throws Exception {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String usage = usageError();
        if (usage != null) {
            err.println("tfstream local: " + usage);
            return ExitCodes.USAGE;
        }
        LocalOptions.S3Target s3 =
                s3Endpoint == null
                        ? null
                        : new LocalOptions.S3Target(s3Endpoint, s3Bucket, null, true);
        LocalOptions options =
                new LocalOptions(
                        schema,
                        featureSpec,
                        input,
                        records,
                        corruptFraction,
                        seed,
                        out,
                        partitions,
                        parallelism,
                        compression,
                        config,
                        sets,
                        summaryJson,
                        broker,
                        brokerConfig,
                        s3,
                        s3proxy,
                        restPort,
                        metricsPort,
                        files,
                        InputFormat.valueOf(inputFormat.toUpperCase(java.util.Locale.ROOT)),
                        nextSchema,
                        nextSchemaAfter == null ? 0 : nextSchemaAfter);
        LocalSummary s;
        try {
            s = new LocalRun(options, stdout, err, StderrTerminal.isTerminal()).run();
        } catch (LocalRun.UsageException e) {
            err.println("tfstream local: " + e.getMessage());
            return ExitCodes.USAGE;
        } catch (JobSchemaRejectedException e) {
            err.println("tfstream local: " + e.getMessage());
            return ExitCodes.SPEC_REJECTED;
        } catch (JobConfigException e) {
            err.println("tfstream local: " + e.getMessage());
            return ExitCodes.USAGE;
        } catch (LocalRun.JobFailedException e) {
            err.println("tfstream local: " + e.getMessage());
            return ExitCodes.JOB_FAILED;
        }
        s.print(out.toAbsolutePath(), stdout);
        return ExitCodes.OK;
    }

    /** The first combination of options that makes no sense, or null. */
    private String usageError() {
        if (s3Endpoint != null && s3Bucket == null) {
            return "--s3 needs --s3-bucket";
        }
        if (!(corruptFraction >= 0 && corruptFraction <= 1)) {
            return "--corrupt-fraction must be between 0 and 1, got " + corruptFraction;
        }
        if (schema != null && featureSpec != null) {
            return "give at most one of --schema and --feature-spec";
        }
        if (partitions < 1 || parallelism < 1) {
            return "--partitions and --parallelism must be at least 1";
        }
        if (records != null && records < 0) {
            return "--records must be >= 0, got " + records;
        }
        if (!inputFormat.matches("example|json|avro")) {
            return "--input-format must be example, json or avro, got " + inputFormat;
        }
        if (!inputFormat.equals("example") && input == null) {
            return "--input-format " + inputFormat + " needs --input FILE";
        }
        if (files != null) {
            if (input != null || corruptFraction > 0 || records != null) {
                return "--files reads the files as they are: it does not go with --input,"
                        + " --records or --corrupt-fraction";
            }
            if (!Files.isDirectory(files) && !Files.isRegularFile(files)) {
                return "--files: no such file or directory: " + files;
            }
        }
        if (s3Endpoint != null && s3proxy) {
            return "give at most one of --s3 and --s3proxy";
        }
        if ((nextSchema == null) != (nextSchemaAfter == null)) {
            return "--next-schema and --next-schema-after go together";
        }
        if (nextSchema != null) {
            if (nextSchemaAfter < 0) {
                return "--next-schema-after must be >= 0, got " + nextSchemaAfter;
            }
            if (files != null) {
                return "--next-schema changes the schema between produced records: it does not"
                        + " go with --files";
            }
            if (!Files.isReadable(nextSchema)) {
                return "--next-schema: cannot read " + nextSchema;
            }
        }
        return null;
    }
}
