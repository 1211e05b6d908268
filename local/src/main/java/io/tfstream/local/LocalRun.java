package io.tfstream.local;

import io.tfstream.convert.InputFormat;
import io.tfstream.embedded.EmbeddedKafka;
import io.tfstream.embedded.FileTrees;
import io.tfstream.embedded.S3ProxyProcess;
import io.tfstream.job.JobConfig;
import io.tfstream.job.JobConfigException;
import io.tfstream.job.JobOptions;
import io.tfstream.job.JobSchema;
import io.tfstream.job.PrometheusEndpoint;
import io.tfstream.sample.SeedDataset;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Random;

/**
 * {@code tfstream local}: the whole pipeline on this machine. Starts (or uses) a Kafka broker,
 * produces the input (the seed-001 sample or a TFRecord file, with broken records mixed in if
 * asked), runs the streaming job bounded at the produced end offsets on an embedded Flink cluster
 * with the web UI, and once the job has finished (its final checkpoint committed every output)
 * drains the dead-letter and batches topics (and, with validation on, the alerts topic) into files
 * and writes {@code summary.json} (docs/getting-started.md#what-tfstream-local-leaves-on-disk).
 */
public final class LocalRun {
    /** The bucket made in the S3Proxy of {@code --s3proxy}. */
    public static final String S3PROXY_BUCKET = "tfstream";

    /** Raised for a usage problem: the message is the one line to print. */
    public static final class UsageException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public UsageException(String message) {
            super(message);
        }

        public UsageException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Raised when the job failed or its outputs do not add up. */
    public static final class JobFailedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public JobFailedException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final LocalOptions o;
    private final String runId = runId();
    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean terminal;

    public LocalRun(LocalOptions options, PrintWriter out, PrintWriter err, boolean terminal) {
        this.o = options;
        this.out = out;
        this.err = err;
        this.terminal = terminal;
    }

    private static void checkMetricsPort(int port) {
        try {
            PrometheusEndpoint.checkPort(port, "--metrics-port");
        } catch (JobConfigException e) {
            throw new UsageException(e.getMessage(), e);
        }
    }

    /** Runs everything; throws {@link UsageException}, {@link JobFailedException}. */
    public LocalSummary run() throws Exception {
        long start = System.nanoTime();
        Path outDir = o.out().toAbsolutePath();
        LocalOutDir.check(outDir);
        LocalJob.checkPortFree(o.restPort());
        if (o.metricsPort() != null) {
            checkMetricsPort(o.metricsPort());
        }
        Path work = Files.createTempDirectory("tfstream-local");
        try {
            Path avsc = null;
            if (o.inputFormat() == InputFormat.AVRO) {
                // The container file's own schema is the writer schema of the produced records.
                avsc =
                        Files.writeString(
                                work.resolve("input.avsc"), ConvertedInput.avroSchema(o.input()));
            }
            LocalJobSettings settings =
                    new LocalJobSettings(
                            o, schemaFile(work), outDir.resolve("shards"), runId, avsc);
            // Everything that can be refused is checked before anything is written to --out.
            JobConfig probe =
                    settings.config(
                            LocalBroker.of("localhost:9", o.brokerConfig()),
                            LocalTopics.of("x"),
                            o.s3());
            JobSchema schema = JobSchema.load(probe);
            LocalInput input = LocalInput.read(o, schema, probe);

            LocalOutDir.prepare(outDir);
            try (S3ProxyProcess proxy =
                            o.s3proxy() ? S3ProxyProcess.start(work, outDir.resolve("s3")) : null;
                    EmbeddedKafka embedded =
                            o.broker() == null
                                    ? EmbeddedKafka.start(Duration.ofMinutes(15).toMillis())
                                    : null) {
                LocalOptions.S3Target s3 = proxy != null ? proxyTarget(proxy, work) : o.s3();
                LocalBroker bootstrap =
                        embedded != null
                                ? LocalBroker.of(embedded.bootstrapServers(), null)
                                : LocalBroker.of(o.broker(), o.brokerConfig());
                LocalTopics topics = LocalTopics.of(embedded != null ? "" : runId);
                topics.create(bootstrap, o.partitions());
                JobConfig config = settings.config(bootstrap, topics, s3);
                LocalJob.Driver driver = null;
                if (o.nextSchema() != null) {
                    NextSchemaStep step =
                            new NextSchemaStep(
                                    o.nextSchema(), settings.schemaFile(), o.nextSchemaAfter());
                    String group = config.get(JobOptions.SOURCE_GROUP_ID);
                    Path savepoints = work.resolve("savepoints");
                    driver =
                            (cluster, id) ->
                                    step.run(
                                            cluster,
                                            id,
                                            input,
                                            bootstrap,
                                            topics.input(),
                                            o.partitions(),
                                            group,
                                            savepoints);
                } else {
                    input.produce(bootstrap, topics.input(), o.partitions());
                }
                long checkpoints =
                        new LocalJob(
                                        o.parallelism(),
                                        o.restPort(),
                                        o.metricsPort(),
                                        out,
                                        err,
                                        terminal)
                                .run(
                                        config,
                                        schema,
                                        input.describe(bootstrap, topics.input()),
                                        input.items(),
                                        driver);
                LocalOutputs outputs =
                        LocalOutputs.collect(bootstrap, topics, config, outDir, s3 != null);
                String stats =
                        LocalStats.write(
                                outDir,
                                outputs.shards(),
                                config.get(JobOptions.SCHEMA_KIND)
                                        == io.tfstream.api.options.SchemaOptions.Kind
                                                .SEQUENCE_EXAMPLE);
                LocalSummary s =
                        LocalSummary.of(
                                input.items(),
                                outputs,
                                checkpoints,
                                (System.nanoTime() - start) / 1e9,
                                LocalSchemaCopies.write(outDir, schema, o.nextSchema()),
                                stats);
                s.write(outDir.resolve("summary.json"));
                if (o.summaryJson() != null) {
                    s.write(o.summaryJson());
                }
                s.checkAddsUp();
                return s;
            }
        } finally {
            FileTrees.deleteQuietly(work);
        }
    }

    /** The bucket of the S3Proxy just started, reached with its keys. */
    private static LocalOptions.S3Target proxyTarget(S3ProxyProcess proxy, Path work)
            throws IOException {
        proxy.createBucket(S3PROXY_BUCKET);
        return new LocalOptions.S3Target(
                proxy.endpoint(),
                S3PROXY_BUCKET,
                proxy.writeCredentials(work.resolve("s3-credentials.properties")),
                true);
    }

    /**
     * The schema or spec the job reads: the one given, else the sample's written to {@code work}.
     */
    private Path schemaFile(Path work) throws IOException {
        Path given = o.schema() != null ? o.schema() : o.featureSpec();
        if (given != null) {
            if (!Files.isReadable(given)) {
                throw new UsageException(
                        (o.schema() != null ? "--schema" : "--feature-spec")
                                + ": cannot read "
                                + given);
            }
            if (o.nextSchema() == null) {
                return given.toAbsolutePath();
            }
            // The run writes the next schema over the watched file: a copy, not the user's file.
            Path watched =
                    Files.createDirectories(work.resolve("schema")).resolve(given.getFileName());
            return Files.copy(given, watched);
        }
        Path seed = work.resolve("seed-001-schema.pbtxt");
        Files.write(seed, SeedDataset.schemaPbtxt());
        return seed;
    }

    /** Names the topics on a shared broker and the prefix on S3: UTC time and a random suffix. */
    private static String runId() {
        return DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
                        .withZone(ZoneOffset.UTC)
                        .format(Instant.now())
                + "-"
                + HexFormat.of().toHexDigits((short) new Random().nextInt());
    }
}
