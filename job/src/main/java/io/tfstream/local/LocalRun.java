package io.tfstream.local;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tfstream.job.EmbeddedCluster;
import io.tfstream.job.JobConfig;
import io.tfstream.job.JobConfigException;
import io.tfstream.job.JobConfigFiles;
import io.tfstream.job.JobLauncher;
import io.tfstream.job.JobOptions;
import io.tfstream.job.JobSchema;
import io.tfstream.job.KafkaStartupChecks;
import io.tfstream.job.TfstreamPipeline;
import io.tfstream.operators.deadletter.DeadLetterHeaders;
import io.tfstream.parse.LenientBatchParser;
import io.tfstream.parse.ParseLimits;
import io.tfstream.proto.v1.TensorBatch;
import io.tfstream.sample.SeedDataset;
import io.tfstream.shards.ShardManifest;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import io.tfstream.tfrecord.TfRecordWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * {@code tfstream local}: the whole pipeline on this machine. Starts (or uses) a Kafka broker,
 * produces the input (the seed-001 sample or a TFRecord file, with broken records mixed in if
 * asked), runs the streaming job bounded at the produced end offsets on an embedded Flink cluster
 * with the web UI, and once the job has finished (its final checkpoint committed every output)
 * drains the dead-letter and batches topics (and, with validation on, the alerts topic) into files
 * and writes {@code summary.json} (job contract §5).
 */
public final class LocalRun {
    private static final ObjectMapper JSON = new ObjectMapper();

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

    /** What to run. */
    public record Options(
            Path schema,
            Path featureSpec,
            Path input,
            Integer records,
            double corruptFraction,
            long seed,
            Path out,
            int partitions,
            int parallelism,
            Compression compression,
            Path config,
            List<String> sets,
            Path summaryJson,
            String broker,
            S3Target s3,
            boolean s3proxy,
            int restPort,
            Path files) {}

    /**
     * Shards on an object store: {@code endpoint} (null: AWS), {@code bucket}, the credentials, and
     * whether requests are path-style (S3Proxy, MinIO).
     */
    public record S3Target(
            String endpoint,
            String bucket,
            String accessKey,
            String secretKey,
            boolean pathStyle) {}

    /** The run's counts, as in {@code summary.json}. */
    public record Summary(
            long recordsIn,
            long accepted,
            long deadLettered,
            Map<String, Long> deadLetteredByReason,
            List<String> shards,
            long shardRecords,
            long batches,
            long batchRows,
            long alerts,
            long checkpoints,
            double seconds) {}

    /** Entries a previous run leaves in {@code --out}; only those are replaced. */
    static final List<String> OUTPUTS =
            List.of(
                    "shards",
                    "s3",
                    "dlq.jsonl",
                    "batches.tfrecord",
                    "alerts.jsonl",
                    "summary.json");

    private final Options o;
    private final String runId = runId();
    private Path work;
    private S3Target s3;
    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean terminal;

    public LocalRun(Options options, PrintWriter out, PrintWriter err, boolean terminal) {
        this.o = options;
        this.out = out;
        this.err = err;
        this.terminal = terminal;
    }

    /** Runs everything; throws {@link UsageException}, {@link JobFailedException}. */
    public Summary run() throws Exception {
        long start = System.nanoTime();
        if (!(o.corruptFraction() >= 0 && o.corruptFraction() <= 1)) {
            throw new UsageException(
                    "--corrupt-fraction must be between 0 and 1, got " + o.corruptFraction());
        }
        if (o.schema() != null && o.featureSpec() != null) {
            throw new UsageException("give at most one of --schema and --feature-spec");
        }
        if (o.partitions() < 1 || o.parallelism() < 1) {
            throw new UsageException("--partitions and --parallelism must be at least 1");
        }
        if (o.records() != null && o.records() < 0) {
            throw new UsageException("--records must be >= 0, got " + o.records());
        }
        if (o.files() != null) {
            if (o.input() != null || o.corruptFraction() > 0 || o.records() != null) {
                throw new UsageException(
                        "--files reads the files as they are: it does not go with --input,"
                                + " --records or --corrupt-fraction");
            }
            if (!Files.isDirectory(o.files()) && !Files.isRegularFile(o.files())) {
                throw new UsageException("--files: no such file or directory: " + o.files());
            }
        }
        if (o.s3() != null && o.s3proxy()) {
            throw new UsageException("give at most one of --s3 and --s3proxy");
        }
        s3 = o.s3();
        Path outDir = o.out().toAbsolutePath();
        checkOut(outDir);
        checkPortFree(o.restPort());
        work = Files.createTempDirectory("tfstream-local");
        try {
            Path schemaFile = schemaFile(work);
            // Everything that can be refused is checked before anything is written to --out.
            Map<String, Object> settings = jobSettings(schemaFile, "localhost:9", topics("x"));
            JobConfig probe = config(settings);
            JobSchema schema = JobSchema.load(probe);
            List<byte[]> records;
            int broken;
            long itemsIn;
            String inputText;
            if (o.files() != null) {
                // Read by the job itself: count what it will see (records and damaged regions).
                records = List.of();
                broken = 0;
                itemsIn = countFileItems(o.files());
                inputText = itemsIn + " records in the files under " + o.files().toAbsolutePath();
            } else {
                records = inputRecords();
                LenientBatchParser parser = LenientBatchParser.create(schema.spec(), limits(probe));
                CorruptRecords.Result mixed =
                        CorruptRecords.mix(records, o.corruptFraction(), o.seed(), parser);
                records = mixed.records();
                broken = mixed.positions().length;
                itemsIn = records.size();
                inputText = null;
            }

            prepareOut(outDir);
            Path shardsDir = outDir.resolve("shards");
            try (S3ProxyProcess proxy =
                            o.s3proxy() ? S3ProxyProcess.start(work, outDir.resolve("s3")) : null;
                    EmbeddedKafka embedded =
                            o.broker() == null
                                    ? EmbeddedKafka.start(Duration.ofMinutes(15).toMillis())
                                    : null) {
                if (proxy != null) {
                    proxy.createBucket(S3PROXY_BUCKET);
                    s3 =
                            new S3Target(
                                    proxy.endpoint(),
                                    S3PROXY_BUCKET,
                                    S3ProxyProcess.ACCESS_KEY,
                                    S3ProxyProcess.SECRET_KEY,
                                    true);
                }
                String bootstrap = embedded != null ? embedded.bootstrapServers() : o.broker();
                Topics topics = topics(embedded != null ? "" : runId);
                createTopics(bootstrap, topics);
                if (o.files() == null) {
                    produce(bootstrap, topics.input(), records);
                }
                settings = jobSettings(schemaFile, bootstrap, topics);
                if (s3 == null) {
                    settings.put(JobOptions.SHARDS_PATH.key(), shardsDir.toUri().toString());
                }
                JobConfig config = config(settings);
                for (String w : config.warnings()) {
                    err.println("tfstream local: warning: " + w);
                }
                KafkaStartupChecks.check(config);
                Configuration flink = JobLauncher.flinkConfiguration(config);
                JobLauncher.initializeFileSystems(flink);
                long checkpoints;
                try (EmbeddedCluster cluster =
                        EmbeddedCluster.start(flink, o.restPort(), o.parallelism())) {
                    StreamExecutionEnvironment env =
                            StreamExecutionEnvironment.getExecutionEnvironment(flink);
                    env.setParallelism(o.parallelism());
                    TfstreamPipeline.build(env, config, schema);
                    JobID id = cluster.submit(env, config.get(JobOptions.JOB_NAME));
                    URI ui = cluster.restAddress();
                    if (inputText == null) {
                        inputText =
                                records.size()
                                        + " records ("
                                        + broken
                                        + " broken) in topic '"
                                        + topics.input()
                                        + "' on "
                                        + bootstrap;
                    }
                    out.println(
                            "tfstream local: "
                                    + inputText
                                    + "; job running at parallelism "
                                    + o.parallelism()
                                    + "; web UI: "
                                    + ui);
                    out.flush();
                    JobResult result;
                    try (LocalProgress progress =
                            new LocalProgress(ui, id, err, terminal, itemsIn)) {
                        result = cluster.await(id);
                        progress.finish();
                    }
                    if (result.getSerializedThrowable().isPresent()) {
                        Throwable cause =
                                result.getSerializedThrowable()
                                        .get()
                                        .deserializeError(getClass().getClassLoader());
                        throw new JobFailedException("the job failed: " + cause, cause);
                    }
                    checkpoints = completedCheckpoints(cluster, id);
                }
                Map<String, Long> byReason = new TreeMap<>();
                long dead = drainDeadLetters(bootstrap, topics.dlq(), outDir, byReason);
                long[] batches = drainBatches(bootstrap, topics.batches(), outDir);
                long alerts =
                        config.get(JobOptions.VALIDATION_ENABLED)
                                ? AlertsDrain.drain(
                                        bootstrap,
                                        config.get(JobOptions.VALIDATION_ALERTS_TOPIC),
                                        outDir.resolve("alerts.jsonl"))
                                : 0;
                List<String> shardNames = new ArrayList<>();
                long shardRecords =
                        s3 == null
                                ? countLocalShards(shardsDir, shardNames)
                                : countS3Shards(config.get(JobOptions.SHARDS_PATH), shardNames);
                Summary s =
                        new Summary(
                                itemsIn,
                                itemsIn - dead,
                                dead,
                                byReason,
                                shardNames,
                                shardRecords,
                                batches[0],
                                batches[1],
                                alerts,
                                checkpoints,
                                (System.nanoTime() - start) / 1e9);
                writeSummary(s, outDir.resolve("summary.json"));
                if (o.summaryJson() != null) {
                    writeSummary(s, o.summaryJson());
                }
                // Payloads are made by the parse, before the records it accepted are validated:
                // records dead-lettered after it (reason validation) are rows too.
                long parsed =
                        s.accepted() + s.deadLetteredByReason().getOrDefault("validation", 0L);
                if (s.shardRecords() != s.accepted() || s.batchRows() != parsed) {
                    throw new JobFailedException(
                            "the outputs do not add up: "
                                    + s.accepted()
                                    + " accepted, "
                                    + s.shardRecords()
                                    + " in shards, "
                                    + s.batchRows()
                                    + " in payloads",
                            null);
                }
                return s;
            }
        } finally {
            EmbeddedKafka.deleteTree(work);
        }
    }

    /** Topic names of a run. */
    record Topics(String input, String dlq, String records, String batches, String alerts) {}

    private static Topics topics(String runId) {
        String base = runId.isEmpty() ? "examples" : "tfstream-local-" + runId;
        return new Topics(
                base, base + "-dlq", base + "-records", base + "-batches", base + "-alerts");
    }

    private static String runId() {
        return java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
                        .withZone(java.time.ZoneOffset.UTC)
                        .format(java.time.Instant.now())
                + "-"
                + HexFormat.of().toHexDigits((short) new java.util.Random().nextInt());
    }

    private Path schemaFile(Path work) throws IOException {
        Path given = o.schema() != null ? o.schema() : o.featureSpec();
        if (given != null) {
            if (!Files.isReadable(given)) {
                throw new UsageException(
                        (o.schema() != null ? "--schema" : "--feature-spec")
                                + ": cannot read "
                                + given);
            }
            return given.toAbsolutePath();
        }
        Path seed = work.resolve("seed-001-schema.pbtxt");
        Files.write(seed, SeedDataset.schemaPbtxt());
        return seed;
    }

    /** The job's settings: the run's own, then --config, then --set. */
    private Map<String, Object> jobSettings(Path schemaFile, String bootstrap, Topics topics) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(JobOptions.JOB_NAME.key(), "tfstream-local");
        m.put(JobOptions.PARALLELISM.key(), o.parallelism());
        m.put(JobOptions.CHECKPOINT_INTERVAL.key(), "1 s");
        m.put(JobOptions.SOURCE_BOOTSTRAP_SERVERS.key(), bootstrap);
        m.put(JobOptions.SOURCE_TOPICS.key(), List.of(topics.input()));
        m.put(JobOptions.SOURCE_STARTING_OFFSETS.key(), "earliest");
        m.put(JobOptions.SOURCE_STOPPING_OFFSETS.key(), "latest");
        m.put(JobOptions.SOURCE_GROUP_ID.key(), "tfstream-local");
        if (o.featureSpec() != null) {
            m.put(JobOptions.SPEC_PATH.key(), schemaFile.toString());
        } else {
            m.put(JobOptions.SCHEMA_PATH.key(), schemaFile.toString());
        }
        m.put(JobOptions.DLQ_TOPIC.key(), topics.dlq());
        m.put(JobOptions.OUTPUT_RECORDS_TOPIC.key(), topics.records());
        m.put(JobOptions.OUTPUT_BATCHES_TOPIC.key(), topics.batches());
        // Used when validation is on (--set validation.enabled=true).
        m.put(JobOptions.VALIDATION_ALERTS_TOPIC.key(), topics.alerts());
        m.put(JobOptions.SHARDS_COMPRESSION.key(), o.compression().name().toLowerCase());
        m.put(JobOptions.BATCH_MAX_DELAY.key(), "200 ms");
        m.put(JobOptions.OUTPUT_TRANSACTION_TIMEOUT.key(), "5 min");
        if (o.files() != null) {
            m.remove(JobOptions.SOURCE_TOPICS.key());
            m.remove(JobOptions.SOURCE_STOPPING_OFFSETS.key());
            m.put(JobOptions.SOURCE_TYPE.key(), "files");
            m.put(
                    JobOptions.SOURCE_FILES_PATHS.key(),
                    List.of(o.files().toAbsolutePath().toUri().toString()));
            m.put(JobOptions.SOURCE_FILES_MODE.key(), "bounded");
        }
        if (s3 != null) {
            m.put(JobOptions.SHARDS_PATH.key(), "s3://" + s3.bucket() + "/tfstream-local/" + runId);
            if (s3.endpoint() != null) {
                m.put(JobOptions.S3_ENDPOINT.key(), s3.endpoint());
            }
            m.put(JobOptions.S3_PATH_STYLE_ACCESS.key(), s3.pathStyle());
            if (s3.accessKey() != null) {
                Path credentials;
                try {
                    credentials =
                            io.tfstream.job.S3Settings.writeCredentialsFile(
                                    work.resolve("s3-credentials.properties"),
                                    s3.accessKey(),
                                    s3.secretKey());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                m.put(JobOptions.S3_CREDENTIALS_FILE.key(), credentials.toString());
            }
        }
        Map<String, Object> user;
        try {
            user = JobConfigFiles.read(o.config(), o.sets());
        } catch (JobConfigException e) {
            throw new UsageException(e.getMessage(), e);
        }
        for (String managed :
                List.of(
                        JobOptions.SOURCE_BOOTSTRAP_SERVERS.key(),
                        JobOptions.SOURCE_TOPICS.key(),
                        JobOptions.SOURCE_TOPIC_PATTERN.key(),
                        JobOptions.SOURCE_STOPPING_OFFSETS.key(),
                        JobOptions.SOURCE_TYPE.key(),
                        JobOptions.SOURCE_FILES_PATHS.key(),
                        JobOptions.DLQ_TOPIC.key(),
                        JobOptions.OUTPUT_BATCHES_TOPIC.key(),
                        JobOptions.OUTPUT_RECORDS_TOPIC.key(),
                        JobOptions.VALIDATION_ALERTS_TOPIC.key(),
                        JobOptions.SHARDS_PATH.key(),
                        JobOptions.SCHEMA_PATH.key(),
                        JobOptions.SPEC_PATH.key(),
                        JobOptions.PARALLELISM.key())) {
            if (user.containsKey(managed)) {
                throw new UsageException(
                        managed
                                + " is set by tfstream local itself (see its options: --broker,"
                                + " --schema, --feature-spec, --parallelism, --s3); remove it from"
                                + " --config/--set");
            }
        }
        m.putAll(user);
        return m;
    }

    private JobConfig config(Map<String, Object> settings) throws IOException {
        Map<String, Object> m = new LinkedHashMap<>(settings);
        if (!m.containsKey(JobOptions.SCHEMA_KIND.key())) {
            Path file =
                    Path.of(
                            String.valueOf(
                                    m.containsKey(JobOptions.SPEC_PATH.key())
                                            ? m.get(JobOptions.SPEC_PATH.key())
                                            : m.get(JobOptions.SCHEMA_PATH.key())));
            if (sequenceSchema(file)) {
                m.put(JobOptions.SCHEMA_KIND.key(), "sequence_example");
            }
        }
        try {
            return JobConfig.of(m);
        } catch (JobConfigException e) {
            throw new UsageException(e.getMessage(), e);
        }
    }

    /** Whether the schema or spec file describes SequenceExamples; false when unreadable. */
    private static boolean sequenceSchema(Path file) {
        try {
            return io.tfstream.spec.SpecSource.parse(
                            Files.readAllBytes(file),
                            file.getFileName().toString(),
                            io.tfstream.spec.schema.FixedLenDefaults.NONE)
                    instanceof SequenceFeatureSpecs;
        } catch (Exception e) {
            // JobSchema.load reports the problem with its own message.
            return false;
        }
    }

    private static ParseLimits limits(JobConfig c) {
        return new ParseLimits(
                (int) c.get(JobOptions.MAX_RECORD_BYTES).getBytes(),
                c.get(JobOptions.MAX_VALUES_PER_FEATURE),
                c.get(JobOptions.MAX_FEATURES_PER_EXAMPLE),
                (int) c.get(JobOptions.MAX_BYTES_PER_VALUE).getBytes(),
                c.get(JobOptions.MAX_RAGGED_ROWS));
    }

    /**
     * Records and damaged regions in the TFRecord files under {@code path}, as the job reads them.
     */
    private static long countFileItems(Path path) throws IOException {
        io.tfstream.operators.files.FilePaths paths =
                io.tfstream.operators.files.FilePaths.of(
                        List.of(path.toAbsolutePath().toUri().toString()));
        io.tfstream.operators.files.TfRecordFileFormat format =
                new io.tfstream.operators.files.TfRecordFileFormat(
                        io.tfstream.operators.files.TfRecordFileFormat.OnCorruption.DEAD_LETTER,
                        TfRecordReadOptions.DEFAULT_MAX_RECORD_LENGTH,
                        0);
        long n = 0;
        for (var split : paths.enumerator().create().enumerateSplits(paths.bases(), 1)) {
            try (var reader = format.createReader(new Configuration(), split)) {
                for (var batch = reader.readBatch(); batch != null; batch = reader.readBatch()) {
                    while (batch.next() != null) {
                        n++;
                    }
                    batch.releaseBatch();
                }
            }
        }
        return n;
    }

    private List<byte[]> inputRecords() {
        int limit = o.records() != null ? o.records() : Integer.MAX_VALUE;
        if (o.input() == null) {
            return SeedDataset.records(o.records() != null ? o.records() : 10_000, o.seed());
        }
        List<byte[]> records = new ArrayList<>();
        try (TfRecordReader r =
                TfRecordFiles.openReader(o.input(), TfRecordReadOptions.defaults())) {
            while (records.size() < limit && r.next()) {
                records.add(r.copy());
            }
        } catch (java.nio.file.NoSuchFileException e) {
            throw new UsageException("--input: no such file: " + o.input(), e);
        } catch (IOException | RuntimeException e) {
            throw new UsageException("--input " + o.input() + ": " + e.getMessage(), e);
        }
        return records;
    }

    private static void checkOut(Path dir) {
        if (Files.exists(dir)) {
            if (!Files.isDirectory(dir)) {
                throw new UsageException("--out " + dir + " exists and is not a directory");
            }
            if (!Files.isWritable(dir)) {
                throw new UsageException("--out " + dir + " is not writable");
            }
            try (Stream<Path> entries = Files.list(dir)) {
                List<String> others =
                        entries.map(p -> p.getFileName().toString())
                                .filter(n -> !OUTPUTS.contains(n))
                                .sorted()
                                .toList();
                if (!others.isEmpty()) {
                    throw new UsageException(
                            "--out "
                                    + dir
                                    + " holds files that are not a tfstream local output ("
                                    + String.join(
                                            ", ", others.subList(0, Math.min(3, others.size())))
                                    + "): give an empty or new directory");
                }
            } catch (IOException e) {
                throw new UsageException("--out " + dir + ": " + e.getMessage(), e);
            }
            return;
        }
        Path parent = dir.getParent();
        while (parent != null && !Files.exists(parent)) {
            parent = parent.getParent();
        }
        if (parent == null || !Files.isDirectory(parent) || !Files.isWritable(parent)) {
            throw new UsageException(
                    "--out "
                            + dir
                            + " cannot be created: "
                            + parent
                            + " is not a writable directory");
        }
    }

    /** Removes a previous run's outputs, creates the directory. */
    private static void prepareOut(Path dir) throws IOException {
        Files.createDirectories(dir);
        for (String name : OUTPUTS) {
            EmbeddedKafka.deleteTree(dir.resolve(name));
        }
    }

    private static void checkPortFree(int port) {
        if (port == 0) {
            return;
        }
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("localhost", port));
        } catch (IOException e) {
            throw new UsageException(
                    "port "
                            + port
                            + " (the web UI) is in use: pass --rest-port with a free port, or 0"
                            + " for any");
        }
    }

    private void createTopics(String bootstrap, Topics t) throws Exception {
        Properties p = new Properties();
        p.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.setProperty(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000");
        try (Admin admin = Admin.create(p)) {
            admin.createTopics(
                            List.of(
                                    new NewTopic(t.input(), o.partitions(), (short) 1),
                                    new NewTopic(t.dlq(), o.partitions(), (short) 1),
                                    new NewTopic(t.records(), o.partitions(), (short) 1),
                                    new NewTopic(t.batches(), o.partitions(), (short) 1),
                                    new NewTopic(t.alerts(), o.partitions(), (short) 1)))
                    .all()
                    .get(60, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new UsageException(
                    "cannot create the run's topics on " + bootstrap + ": " + e.getCause(), e);
        }
    }

    /** Every record, in order, round-robin over the partitions; returns once all are acked. */
    private void produce(String bootstrap, String topic, List<byte[]> records) throws Exception {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.setProperty(ProducerConfig.ACKS_CONFIG, "all");
        p.setProperty(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.setProperty(ProducerConfig.LINGER_MS_CONFIG, "5");
        long largest = records.stream().mapToLong(r -> r.length).max().orElse(0);
        p.setProperty(
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                Long.toString(Math.max(1 << 20, largest + 1024)));
        List<Future<RecordMetadata>> acks = new ArrayList<>(records.size());
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            long now = System.currentTimeMillis();
            for (int i = 0; i < records.size(); i++) {
                acks.add(
                        producer.send(
                                new ProducerRecord<>(
                                        topic,
                                        i % o.partitions(),
                                        now,
                                        Integer.toString(i).getBytes(StandardCharsets.UTF_8),
                                        records.get(i))));
            }
            producer.flush();
            for (Future<RecordMetadata> f : acks) {
                f.get(60, TimeUnit.SECONDS);
            }
        }
    }

    private static long completedCheckpoints(EmbeddedCluster cluster, JobID id) throws Exception {
        var stats =
                cluster.miniCluster()
                        .getArchivedExecutionGraph(id)
                        .get(30, TimeUnit.SECONDS)
                        .getCheckpointStatsSnapshot();
        return stats == null ? 0 : stats.getCounts().getNumberOfCompletedCheckpoints();
    }

    /** Writes {@code dlq.jsonl}; returns the count, by reason into {@code byReason}. */
    private static long drainDeadLetters(
            String bootstrap, String topic, Path outDir, Map<String, Long> byReason)
            throws IOException {
        long[] n = {0};
        try (Writer w = Files.newBufferedWriter(outDir.resolve("dlq.jsonl"))) {
            TopicDrain.readCommitted(
                    bootstrap,
                    topic,
                    r -> {
                        ObjectNode line = JSON.createObjectNode();
                        String reason = header(r.headers().lastHeader(DeadLetterHeaders.REASON));
                        line.put("reason", reason);
                        line.put("error", header(r.headers().lastHeader(DeadLetterHeaders.ERROR)));
                        ObjectNode source = line.putObject("source");
                        String file = header(r.headers().lastHeader(DeadLetterHeaders.SOURCE_FILE));
                        if (!file.isEmpty()) {
                            source.put("file", file);
                            source.put(
                                    "byte_offset",
                                    Long.parseLong(
                                            header(
                                                    r.headers()
                                                            .lastHeader(
                                                                    DeadLetterHeaders
                                                                            .SOURCE_BYTE_OFFSET))));
                        } else {
                            source.put(
                                    "topic",
                                    header(r.headers().lastHeader(DeadLetterHeaders.SOURCE_TOPIC)));
                            source.put(
                                    "partition",
                                    Integer.parseInt(
                                            header(
                                                    r.headers()
                                                            .lastHeader(
                                                                    DeadLetterHeaders
                                                                            .SOURCE_PARTITION))));
                            source.put(
                                    "offset",
                                    Long.parseLong(
                                            header(
                                                    r.headers()
                                                            .lastHeader(
                                                                    DeadLetterHeaders
                                                                            .SOURCE_OFFSET))));
                            source.put(
                                    "timestamp",
                                    Long.parseLong(
                                            header(
                                                    r.headers()
                                                            .lastHeader(
                                                                    DeadLetterHeaders
                                                                            .SOURCE_TIMESTAMP))));
                        }
                        if (r.key() == null) {
                            line.putNull("key");
                        } else {
                            line.put("key", Base64.getEncoder().encodeToString(r.key()));
                        }
                        line.put("value", Base64.getEncoder().encodeToString(r.value()));
                        try {
                            w.write(JSON.writeValueAsString(line));
                            w.write('\n');
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                        byReason.merge(reason, 1L, Long::sum);
                        n[0]++;
                    });
        }
        return n[0];
    }

    private static String header(Header h) {
        return h == null ? "" : new String(h.value(), StandardCharsets.UTF_8);
    }

    /** Writes {@code batches.tfrecord}; returns {payloads, rows}. */
    private static long[] drainBatches(String bootstrap, String topic, Path outDir)
            throws IOException {
        long[] n = {0, 0};
        try (TfRecordWriter w =
                TfRecordFiles.newWriter(outDir.resolve("batches.tfrecord"), Compression.NONE)) {
            TopicDrain.readCommitted(
                    bootstrap,
                    topic,
                    r -> {
                        try {
                            n[1] += TensorBatch.parseFrom(r.value()).getRows();
                            w.write(r.value(), 0, r.value().length);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                        n[0]++;
                    });
        }
        return n;
    }

    /**
     * Finished shards under {@code dir} (names not starting with '.' or '_', manifests left out);
     * their records.
     */
    private static long countLocalShards(Path dir, List<String> names) throws IOException {
        if (!Files.exists(dir)) {
            return 0;
        }
        List<Path> shards;
        try (Stream<Path> all = Files.walk(dir)) {
            shards =
                    all.filter(Files::isRegularFile)
                            .filter(p -> !hidden(dir.relativize(p)))
                            .filter(p -> !ShardManifest.isManifest(p.getFileName().toString()))
                            .sorted()
                            .toList();
        }
        long records = 0;
        for (Path p : shards) {
            names.add(dir.getParent().relativize(p).toString());
            try (TfRecordReader r = TfRecordFiles.openReader(p, TfRecordReadOptions.defaults())) {
                while (r.next()) {
                    records++;
                }
            }
        }
        return records;
    }

    private static boolean hidden(Path relative) {
        for (Path part : relative) {
            String n = part.toString();
            if (n.startsWith(".") || n.startsWith("_")) {
                return true;
            }
        }
        return false;
    }

    /** As {@link #countLocalShards} on an object store, through Flink's file system. */
    private static long countS3Shards(String base, List<String> names) throws IOException {
        org.apache.flink.core.fs.Path root = new org.apache.flink.core.fs.Path(base);
        FileSystem fs = root.getFileSystem();
        List<org.apache.flink.core.fs.Path> shards = new ArrayList<>();
        collect(fs, root, shards);
        shards.sort(null);
        long records = 0;
        for (org.apache.flink.core.fs.Path p : shards) {
            names.add(p.toUri().toString());
            try (InputStream in = fs.open(p);
                    TfRecordReader r =
                            TfRecordReader.open(in, p.toString(), TfRecordReadOptions.defaults())) {
                while (r.next()) {
                    records++;
                }
            }
        }
        return records;
    }

    private static void collect(
            FileSystem fs,
            org.apache.flink.core.fs.Path dir,
            List<org.apache.flink.core.fs.Path> into)
            throws IOException {
        FileStatus[] entries;
        try {
            entries = fs.listStatus(dir);
        } catch (java.io.FileNotFoundException e) {
            return;
        }
        if (entries == null) {
            return;
        }
        for (FileStatus s : entries) {
            String n = s.getPath().getName();
            if (n.startsWith(".") || n.startsWith("_")) {
                continue;
            }
            if (s.isDir()) {
                collect(fs, s.getPath(), into);
            } else if (!ShardManifest.isManifest(n)) {
                into.add(s.getPath());
            }
        }
    }

    static void writeSummary(Summary s, Path file) throws IOException {
        ObjectNode j = JSON.createObjectNode();
        j.put("records_in", s.recordsIn());
        j.put("accepted", s.accepted());
        j.put("dead_lettered", s.deadLettered());
        ObjectNode reasons = j.putObject("dead_lettered_by_reason");
        s.deadLetteredByReason().forEach(reasons::put);
        ArrayNode shards = j.putArray("shards");
        s.shards().forEach(shards::add);
        j.put("shard_records", s.shardRecords());
        j.put("batches", s.batches());
        j.put("batch_rows", s.batchRows());
        j.put("alerts", s.alerts());
        j.put("checkpoints", s.checkpoints());
        j.put("seconds", Math.round(s.seconds() * 10) / 10.0);
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(j) + "\n");
    }
}
