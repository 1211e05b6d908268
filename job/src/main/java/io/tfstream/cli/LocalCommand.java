package io.tfstream.cli;

import io.tfstream.job.JobConfigException;
import io.tfstream.job.JobSchemaRejectedException;
import io.tfstream.local.LocalRun;
import io.tfstream.tfrecord.Compression;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
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
            defaultValue = "none",
            description = "Shard compression (default none).")
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

    @Override
    public Integer call() throws Exception {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (s3Endpoint != null && s3Bucket == null) {
            err.println("tfstream local: --s3 needs --s3-bucket");
            return ExitCodes.USAGE;
        }
        LocalRun.S3Target s3 =
                s3Endpoint == null
                        ? null
                        : new LocalRun.S3Target(s3Endpoint, s3Bucket, null, null, true);
        LocalRun.Options options =
                new LocalRun.Options(
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
                        s3,
                        s3proxy,
                        restPort,
                        files);
        LocalRun.Summary s;
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
        report(s, out.toAbsolutePath(), stdout);
        return ExitCodes.OK;
    }

    private static void report(LocalRun.Summary s, Path dir, PrintWriter out) {
        String reasons =
                s.deadLetteredByReason().isEmpty()
                        ? ""
                        : s.deadLetteredByReason().entrySet().stream()
                                .map(Map.Entry::toString)
                                .map(e -> e.replace('=', ' '))
                                .collect(Collectors.joining(", ", " (", ")"));
        out.printf(
                "tfstream local: %d records in = %d accepted + %d dead-lettered%s, %.1f s, %d"
                        + " checkpoints%n",
                s.recordsIn(),
                s.accepted(),
                s.deadLettered(),
                reasons,
                s.seconds(),
                s.checkpoints());
        String firstShard = s.shards().isEmpty() ? null : s.shards().get(0);
        boolean local = firstShard == null || !firstShard.contains("://");
        out.printf(
                "  shards:       %s  (%d files, %d records)%n",
                local
                        ? dir.resolve("shards")
                        : firstShard.substring(0, firstShard.lastIndexOf('/') + 1)
                                + "… (every path in summary.json)",
                s.shards().size(),
                s.shardRecords());
        out.printf(
                "  payloads:     %s  (%d TensorBatch messages, %d rows)%n",
                dir.resolve("batches.tfrecord"), s.batches(), s.batchRows());
        out.printf("  dead letters: %s%n", dir.resolve("dlq.jsonl"));
        out.printf("  summary:      %s%n", dir.resolve("summary.json"));
        if (firstShard != null && local) {
            out.printf(
                    "  read a shard:   python -c \"import tensorflow as tf;"
                            + " print(next(iter(tf.data.TFRecordDataset('%s'%s))))\"%n",
                    dir.resolve(firstShard),
                    firstShard.endsWith(".gz")
                            ? ", 'GZIP'"
                            : firstShard.endsWith(".zz") ? ", 'ZLIB'" : "");
        }
        out.println(
                "  read a payload: see README \"Tensor payloads\" (tensorflow + tensor_batch_pb2);"
                        + " tfstream cat / inspect read the shards");
        out.flush();
    }
}
