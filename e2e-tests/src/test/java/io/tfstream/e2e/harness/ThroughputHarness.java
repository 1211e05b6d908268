package io.tfstream.e2e.harness;

import io.tfstream.embedded.EmbeddedKafka;
import io.tfstream.embedded.S3ProxyProcess;
import io.tfstream.job.EmbeddedCluster;
import io.tfstream.job.JobConfig;
import io.tfstream.job.JobLauncher;
import io.tfstream.job.TfstreamPipeline;
import io.tfstream.operators.kafka.AcceptedRecordSerializationSchema;
import io.tfstream.operators.source.SourceRecordDeserializer;
import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testing.WideProfileCorpus;
import io.tfstream.testkit.KafkaTestCluster;
import io.tfstream.testkit.TestFiles;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import jdk.jfr.Recording;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The throughput harness: the whole tfstream job against a pass-through job (Kafka → Kafka, bytes
 * unchanged, exactly once), side by side in one run on this machine, over the same topic loaded
 * once per profile; then end-to-end latency at a fixed input rate for several batch delays; a
 * per-stage CPU breakdown from a JFR recording of the tfstream run; a report (Markdown and JSON)
 * and PNG charts in the output directory.
 *
 * <p>Everything runs in this JVM: a KRaft broker ({@link EmbeddedKafka}), a Flink MiniCluster per
 * run ({@link EmbeddedCluster}, same parallelism and checkpoint interval for every job), and
 * S3Proxy as a process for the S3 shards run. CPU is the process CPU time, so it includes the
 * broker's work in both jobs alike.
 */
public final class ThroughputHarness {
    /** Latency of one batch delay. */
    public record Latency(
            long batchDelayMs,
            long samples,
            double p50,
            double p99,
            double max,
            List<Double> sorted) {}

    private final HarnessSettings s;

    /** Records loaded for {@code profile}: {@code harness.records.<profile>}, else the default. */
    long recordsOf(String profile) {
        return Long.getLong("harness.records." + profile, s.records());
    }

    /** The shards setting of the run with validation on (shards local). */
    static final String VALIDATED = "local, validation";

    /** The same with each window's TFDV statistics written too. */
    static final String WITH_STATISTICS = "local, validation, statistics";

    /** The shards local job with each finished bucket's statistics ({@code shards.statistics}). */
    static final String BUCKET_STATISTICS = "local, bucket statistics";

    /** The job writing the records' bytes with Flink's own FileSink (with harness.shard-cost). */
    static final String FILE_SINK = "flink FileSink";

    /** The shards local job without tensor payloads: parse, dead letters and shards only. */
    static final String SHARDS_ONLY = "local, shards only";

    /** The input format of the Example topic (the others: {@link ConvertedInputs}). */
    static final String EXAMPLE_INPUT = "example";

    /** {@code harness.profiled-job} of a run without a JFR profile. */
    static final String NOT_PROFILED = "off";

    /** The job's default batch.max-records. */
    static final int DEFAULT_BATCH = 1024;

    private final List<HarnessRun> runs = new ArrayList<>();
    private final List<Latency> latencies = new ArrayList<>();
    private final Map<String, Map<String, Long>> stages = new LinkedHashMap<>();
    private EmbeddedKafka kafka;
    private HarnessTopics topics;
    private Path work;

    public ThroughputHarness(HarnessSettings settings) {
        this.s = settings;
    }

    public static void main(String[] args) throws Exception {
        new ThroughputHarness(HarnessSettings.fromSystemProperties()).run();
    }

    /** Runs everything and writes the report; returns the report's path. */
    public Path run() throws Exception {
        Files.createDirectories(s.out());
        work = Files.createTempDirectory("tfstream-harness");
        try (EmbeddedKafka k = EmbeddedKafka.start(Duration.ofMinutes(15).toMillis())) {
            kafka = k;
            topics = new HarnessTopics(k, s.partitions());
            for (String profile : s.profiles()) {
                ParseSpec spec = spec(profile);
                Path specFile = work.resolve(profile + "-spec.json");
                Files.writeString(specFile, SpecJsonWriter.write(spec));
                String in = profile + "-in";
                topics.createWithOutputs(in);
                List<byte[]> examples = pool(profile);
                topics.load(in, examples, recordsOf(profile));
                for (String format : s.inputs()) {
                    // The same records as JSON or Avro, read by the job without shards.
                    String converted = ConvertedInputs.topic(profile, format);
                    topics.createWithOutputs(converted);
                    topics.load(
                            converted,
                            ConvertedInputs.pool(format, profile, spec, examples),
                            recordsOf(profile));
                }
                if (s.warmUp()) {
                    // Unmeasured: the first job in a JVM pays for class loading and compilation,
                    // which would otherwise count against whichever job runs first.
                    passThrough(profile, in);
                    tfstream(profile, in, specFile, "local", false);
                }
                // Interleaved repeats, each job's median kept: drift of the machine over the run
                // falls on every job alike, and one disturbed run does not decide a ratio.
                Map<String, List<HarnessRun>> samples = new LinkedHashMap<>();
                for (int rep = 0; rep < s.repeat(); rep++) {
                    sample(samples, passThrough(profile, in));
                    sample(samples, tfstream(profile, in, specFile, "local", false));
                    if (s.s3()) {
                        sample(samples, tfstream(profile, in, specFile, "s3proxy", false));
                    }
                    if (s.shardCost() || !s.inputs().isEmpty()) {
                        sample(samples, tfstream(profile, in, specFile, "none", false));
                    }
                    for (String format : s.inputs()) {
                        sample(samples, converted(profile, format, specFile));
                    }
                    if (s.shardCost()) {
                        sample(samples, fileSink(profile, in));
                        sample(samples, tfstream(profile, in, specFile, SHARDS_ONLY, false));
                        sample(samples, tfstream(profile, in, specFile, "local gzip", false));
                        sample(samples, tfstream(profile, in, specFile, "local gzip-1", false));
                    }
                    if (s.validation()) {
                        sample(samples, tfstream(profile, in, specFile, VALIDATED, false));
                        sample(samples, tfstream(profile, in, specFile, WITH_STATISTICS, false));
                        sample(samples, tfstream(profile, in, specFile, BUCKET_STATISTICS, false));
                    }
                    for (int size : s.batchSizes()) {
                        if (size != DEFAULT_BATCH) {
                            sample(
                                    samples,
                                    tfstream(
                                            profile,
                                            in,
                                            specFile,
                                            "local",
                                            false,
                                            size,
                                            EXAMPLE_INPUT));
                        }
                    }
                }
                samples.values().forEach(list -> runs.add(HarnessRun.median(list)));
                // Profiled apart from the measured runs: JFR sampling slows the job it records.
                if (!s.profiledJob().equals(NOT_PROFILED)) {
                    tfstream(profile, in, specFile, s.profiledJob(), true);
                }
            }
            String profile = s.profiles().get(0);
            Path specFile = work.resolve(profile + "-spec.json");
            for (Duration d : s.batchDelays()) {
                latencies.add(latency(profile, specFile, d));
            }
        } finally {
            TestFiles.deleteTree(work);
        }
        return new HarnessReport(s, runs, latencies, stages, this::recordsOf).write();
    }

    private static void sample(Map<String, List<HarnessRun>> samples, HarnessRun r) {
        samples.computeIfAbsent(r.job(), k -> new ArrayList<>()).add(r);
    }

    /**
     * This process's system (kernel) CPU time so far: field 15, {@code stime}, of {@code
     * /proc/self/stat}, in clock ticks of 1/100 s; 0 where there is no such file.
     */
    static double kernelCpuSeconds() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[15 - 3]) / 100.0;
        } catch (IOException | RuntimeException notLinux) {
            return 0;
        }
    }

    private static ParseSpec spec(String profile) {
        return profile.equals("wide") ? WideProfileCorpus.spec() : Seed001Corpus.spec();
    }

    /** A pool of distinct records cycled through when loading (the profile's generator). */
    private static List<byte[]> pool(String profile) {
        return profile.equals("wide")
                ? WideProfileCorpus.records(10_000, 1)
                : Seed001Corpus.records(50_000, 1);
    }

    private Configuration flink() {
        Configuration c = new Configuration();
        c.setString("pipeline.generic-types", "false");
        return c;
    }

    /** The input topic from its start to its end as loaded, read committed, as the job reads it. */
    private KafkaSource<io.tfstream.api.model.SourceRecord> source(
            String profile, String in, String job) {
        Properties consumer = new Properties();
        consumer.setProperty("isolation.level", "read_committed");
        return KafkaSource.<io.tfstream.api.model.SourceRecord>builder()
                .setBootstrapServers(kafka.bootstrapServers())
                .setTopics(in)
                .setGroupId(profile + "-" + job)
                .setStartingOffsets(OffsetsInitializer.earliest())
                .setBounded(OffsetsInitializer.latest())
                .setDeserializer(new SourceRecordDeserializer())
                .setProperties(consumer)
                .build();
    }

    /** Kafka → Kafka, bytes, key and headers unchanged, exactly once. */
    private HarnessRun passThrough(String profile, String in) throws Exception {
        Configuration flink = flink();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
        env.setParallelism(s.parallelism());
        env.enableCheckpointing(s.checkpointInterval().toMillis(), CheckpointingMode.EXACTLY_ONCE);
        Properties producer = new Properties();
        producer.setProperty("transaction.timeout.ms", "300000");
        env.fromSource(
                        source(profile, in, "pass-through"),
                        WatermarkStrategy.noWatermarks(),
                        "kafka-source")
                .sinkTo(
                        KafkaSink.<io.tfstream.api.model.SourceRecord>builder()
                                .setBootstrapServers(kafka.bootstrapServers())
                                .setKafkaProducerConfig(producer)
                                .setRecordSerializer(
                                        new AcceptedRecordSerializationSchema(in + "-copy"))
                                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                                .setTransactionalIdPrefix(profile + "-pass-through")
                                .build());
        try {
            return measure(profile, "pass-through", flink, env, null);
        } finally {
            topics.resetOutputs(in);
        }
    }

    /**
     * Kafka → Flink's own {@code FileSink} on local disk, each record's bytes as they came, exactly
     * once: the cost of "just write the bytes", which the job with local shards is held against.
     */
    private HarnessRun fileSink(String profile, String in) throws Exception {
        Configuration flink = flink();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
        env.setParallelism(s.parallelism());
        env.enableCheckpointing(s.checkpointInterval().toMillis(), CheckpointingMode.EXACTLY_ONCE);
        Path out = work.resolve(profile + "-file-sink");
        Encoder<io.tfstream.api.model.SourceRecord> bytes = (r, o) -> o.write(r.value());
        env.fromSource(
                        source(profile, in, "file-sink"),
                        WatermarkStrategy.noWatermarks(),
                        "kafka-source")
                .sinkTo(
                        FileSink.forRowFormat(new org.apache.flink.core.fs.Path(out.toUri()), bytes)
                                .build());
        try {
            return measure(profile, FILE_SINK, flink, env, null);
        } finally {
            TestFiles.deleteTree(out);
        }
    }

    private Map<String, Object> jobSettings(String profile, String in, Path specFile) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("job.name", profile + "-tfstream");
        m.put("parallelism", s.parallelism());
        m.put("checkpoint.interval", s.checkpointInterval().toMillis() + " ms");
        m.put("source.bootstrap-servers", kafka.bootstrapServers());
        m.put("source.topics", List.of(in));
        m.put("source.starting-offsets", "earliest");
        m.put("spec.path", specFile.toString());
        m.put("dlq.topic", in + "-dlq");
        m.put("output.batches.topic", in + "-batches");
        m.put("output.transaction-timeout", "5 min");
        m.put("shards.max-bucket-skew", "3650 d");
        return m;
    }

    /** The whole job, bounded at the loaded end: parse, dead letters, shards, payloads. */
    private HarnessRun tfstream(
            String profile, String in, Path specFile, String shards, boolean profiled)
            throws Exception {
        return tfstream(profile, in, specFile, shards, profiled, DEFAULT_BATCH, EXAMPLE_INPUT);
    }

    /**
     * The job without shards over the profile's records as {@code format}: payloads and dead
     * letters, where converting is all that differs from the Example input. Every record must
     * convert and parse: a dead letter fails the run.
     */
    private HarnessRun converted(String profile, String format, Path specFile) throws Exception {
        return tfstream(
                profile,
                ConvertedInputs.topic(profile, format),
                specFile,
                "none",
                false,
                DEFAULT_BATCH,
                format);
    }

    private HarnessRun tfstream(
            String profile,
            String in,
            Path specFile,
            String shards,
            boolean profiled,
            int batchSize,
            String format)
            throws Exception {
        Map<String, Object> m = jobSettings(profile, in, specFile);
        m.put("source.stopping-offsets", "latest");
        m.put("batch.max-records", batchSize);
        String id =
                shards.replace(' ', '-')
                        + (batchSize == DEFAULT_BATCH ? "" : "-" + batchSize)
                        + (format.equals(EXAMPLE_INPUT) ? "" : "-" + format);
        if (!format.equals(EXAMPLE_INPUT)) {
            ConvertedInputs.configure(m, format, profile, spec(profile), work);
        }
        m.put("source.group-id", profile + "-tfstream-" + id);
        m.put("job.name", profile + "-tfstream-" + id);
        S3ProxyProcess proxy = null;
        try {
            if (shards.equals(VALIDATED) || shards.equals(WITH_STATISTICS)) {
                // The same job with TFDV validation on: the profile's TFMD schema instead of its
                // spec (the same spec derives from it), alerts to a topic, shards local.
                Path schemaFile = work.resolve(profile + "-schema.pbtxt");
                Files.writeString(schemaFile, HarnessSchemas.of(profile));
                m.remove("spec.path");
                m.put("schema.path", schemaFile.toString());
                m.put("validation.enabled", true);
                m.put("validation.alerts-topic", in + "-alerts");
                // Window state beyond the JobManager's in-memory checkpoint storage limit: both
                // runs checkpoint to a directory, so that they compare alike.
                m.put(
                        "flink.execution.checkpointing.dir",
                        work.resolve(profile + "-checkpoints-" + id).toUri().toString());
                if (shards.equals(WITH_STATISTICS)) {
                    m.put("statistics.enabled", true);
                    m.put("statistics.topic", in + "-statistics");
                }
            }
            if (shards.equals(BUCKET_STATISTICS)) {
                // The shards local job with bucket statistics shaped by the profile's schema; the
                // open shards' sketches are in every checkpoint, kept in a directory.
                Path schemaFile = work.resolve(profile + "-schema.pbtxt");
                Files.writeString(schemaFile, HarnessSchemas.of(profile));
                m.remove("spec.path");
                m.put("schema.path", schemaFile.toString());
                m.put("shards.statistics", true);
                m.put(
                        "flink.execution.checkpointing.dir",
                        work.resolve(profile + "-checkpoints-" + id).toUri().toString());
            }
            if (shards.equals(SHARDS_ONLY)) {
                m.remove("output.batches.topic"); // shards and dead letters: FileSink's peer
            }
            if (shards.equals("none")) {
                // the same job without shards: what shard writing costs
            } else if (shards.startsWith("local")) {
                m.put("shards.path", work.resolve(profile + "-shards-" + id).toUri().toString());
                if (shards.contains("gzip")) {
                    m.put("shards.compression", "gzip");
                }
                if (shards.endsWith("gzip-1")) {
                    m.put("shards.compression-level", 1);
                }
            } else {
                proxy = S3ProxyProcess.start(work.resolve(profile + "-s3"));
                proxy.createBucket("harness");
                Path credentials = proxy.writeCredentials(work.resolve("s3.properties"));
                m.put("shards.path", "s3://harness/" + profile);
                m.put("s3.endpoint", proxy.endpoint());
                m.put("s3.path-style-access", "true");
                m.put("s3.credentials-file", credentials.toString());
                // S3 shards keep each open shard's unfinished tail in the checkpoint.
                m.put(
                        "checkpoint.dir",
                        work.resolve(profile + "-checkpoints-" + id).toUri().toString());
            }
            JobLauncher.Prepared job = JobLauncher.prepare(JobConfig.of(m));
            Configuration flink = JobLauncher.flinkConfiguration(job.config());
            JobLauncher.initializeFileSystems(job.config(), flink);
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.getExecutionEnvironment(flink);
            env.setParallelism(s.parallelism());
            TfstreamPipeline.build(env, job.config(), job.schema());
            long[] proxyBefore = proxy != null ? proxy.ioBytes() : new long[2];
            HarnessRun r =
                    measure(
                            profile,
                            jobName(shards, batchSize, format),
                            flink,
                            env,
                            profiled ? profile : null);
            if (!format.equals(EXAMPLE_INPUT)) {
                long dead =
                        KafkaTestCluster.readCommitted(kafka.bootstrapServers(), in + "-dlq")
                                .size();
                if (dead > 0) {
                    throw new IllegalStateException(
                            dead + " records of " + in + " did not convert and parse");
                }
            }
            long[] proxyAfter = proxy != null ? proxy.ioBytes() : new long[2];
            Path shardDir =
                    proxy != null
                            ? proxy.bucketDir("harness").resolve(profile)
                            : work.resolve(profile + "-shards-" + id);
            return r.withShards(
                    HarnessFiles.shardBytes(shardDir),
                    proxyAfter[0] - proxyBefore[0],
                    proxyAfter[1] - proxyBefore[1],
                    proxy != null ? proxy.cpuSeconds() : 0);
        } finally {
            if (proxy != null) {
                proxy.close();
            }
            // What a run leaves (gigabytes at full size) must not pile up over the runs.
            TestFiles.deleteTree(work.resolve(profile + "-shards-" + id));
            TestFiles.deleteTree(work.resolve(profile + "-s3"));
            topics.resetOutputs(in);
        }
    }

    /** Deletes and creates again the output topics of {@code in}: each run starts empty. */
    /** The report's name of a tfstream run. */
    static String jobName(String shards, int batchSize) {
        return jobName(shards, batchSize, EXAMPLE_INPUT);
    }

    static String jobName(String shards, int batchSize, String format) {
        String base = shards.equals("none") ? "tfstream (no shards" : "tfstream (shards " + shards;
        return base
                + (batchSize == DEFAULT_BATCH ? "" : ", batch " + batchSize)
                + (format.equals(EXAMPLE_INPUT) ? ")" : ", " + format + " input)");
    }

    /** Runs the job to its end; wall and process CPU time, and a JFR profile when asked. */
    private HarnessRun measure(
            String profile,
            String name,
            Configuration flink,
            StreamExecutionEnvironment env,
            String stagesOf)
            throws Exception {
        var os =
                (com.sun.management.OperatingSystemMXBean)
                        ManagementFactory.getOperatingSystemMXBean();
        try (EmbeddedCluster cluster = EmbeddedCluster.start(flink, 0, s.parallelism())) {
            Recording jfr = null;
            if (stagesOf != null) {
                jfr = new Recording();
                jfr.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
                jfr.start();
            }
            long cpu0 = os.getProcessCpuTime();
            double kernel0 = kernelCpuSeconds();
            long t0 = System.nanoTime();
            JobID id = cluster.submit(env, profile + "-" + name);
            JobResult result = cluster.await(id);
            double seconds = (System.nanoTime() - t0) / 1e9;
            double cpu = (os.getProcessCpuTime() - cpu0) / 1e9;
            double kernel = kernelCpuSeconds() - kernel0;
            if (jfr != null) {
                jfr.stop();
                Path file = work.resolve(profile + ".jfr");
                jfr.dump(file);
                jfr.close();
                stages.put(profile, JfrStages.of(file));
                // Kept beside the report for a closer look (jfr print, JDK Mission Control).
                Files.createDirectories(s.out());
                Files.copy(
                        file,
                        s.out().resolve(profile + ".jfr"),
                        StandardCopyOption.REPLACE_EXISTING);
            }
            if (result.getSerializedThrowable().isPresent()) {
                throw new IllegalStateException(
                        name + " failed",
                        result.getSerializedThrowable()
                                .get()
                                .deserializeError(getClass().getClassLoader()));
            }
            HarnessRun r =
                    new HarnessRun(
                            profile, name, recordsOf(profile), seconds, cpu, kernel, 0, 0, 0, 0);
            System.out.printf(
                    Locale.ROOT,
                    "[harness] %s %s: %.0f records/s, %.1f CPU s per million%n",
                    profile,
                    name,
                    r.recordsPerSecond(),
                    r.cpuSecondsPerMillion());
            return r;
        }
    }

    /**
     * The tfstream job unbounded, with the records topic on; records produced at a fixed rate;
     * latency = when a read_committed consumer sees the accepted record − its append time.
     */
    private Latency latency(String profile, Path specFile, Duration batchDelay) throws Exception {
        String in = profile + "-lat-" + batchDelay.toMillis();
        topics.create(in, in + "-dlq", in + "-batches", in + "-records");
        Map<String, Object> m = jobSettings(profile, in, specFile);
        m.put("job.name", in);
        m.put("source.group-id", in);
        m.put("batch.max-delay", batchDelay.toMillis() + " ms");
        m.put("output.records.topic", in + "-records");
        m.put("shards.path", work.resolve(in + "-shards").toUri().toString());
        JobLauncher.Prepared job = JobLauncher.prepare(JobConfig.of(m));
        Configuration flink = JobLauncher.flinkConfiguration(job.config());
        List<Double> samples = new ArrayList<>();
        List<byte[]> pool = pool(profile);
        try (EmbeddedCluster cluster = EmbeddedCluster.start(flink, 0, s.parallelism())) {
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.getExecutionEnvironment(flink);
            env.setParallelism(s.parallelism());
            TfstreamPipeline.build(env, job.config(), job.schema());
            JobID id = cluster.submit(env, in);
            AtomicBoolean producing = new AtomicBoolean(true);
            long total = s.latencyRate() * s.latencyDuration().toSeconds();
            Thread consumerThread =
                    new Thread(
                            () ->
                                    LatencyConsumer.consume(
                                            kafka.bootstrapServers(),
                                            in + "-records",
                                            total,
                                            samples,
                                            producing));
            consumerThread.start();
            Thread.sleep(3000); // the job is running and has taken its first checkpoint
            try (KafkaProducer<byte[], byte[]> producer = topics.producer()) {
                long start = System.nanoTime();
                for (long i = 0; i < total; i++) {
                    long due = start + (long) (i * 1e9 / s.latencyRate());
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                    producer.send(
                            new ProducerRecord<>(
                                    in,
                                    (int) (i % s.partitions()),
                                    System.currentTimeMillis(),
                                    null,
                                    pool.get((int) (i % pool.size()))));
                }
                producer.flush();
            }
            producing.set(false);
            consumerThread.join(Duration.ofMinutes(2).toMillis());
            cluster.miniCluster().cancelJob(id).get(1, TimeUnit.MINUTES);
        }
        List<Double> sorted = new ArrayList<>(samples);
        sorted.sort(null);
        Latency l =
                new Latency(
                        batchDelay.toMillis(),
                        sorted.size(),
                        LatencyConsumer.percentile(sorted, 0.50),
                        LatencyConsumer.percentile(sorted, 0.99),
                        sorted.isEmpty() ? Double.NaN : sorted.get(sorted.size() - 1),
                        sorted);
        System.out.printf(
                Locale.ROOT,
                "[harness] latency, batch delay %d ms: p50 %.0f ms, p99 %.0f ms, max %.0f ms (%d records)%n",
                l.batchDelayMs(),
                l.p50(),
                l.p99(),
                l.max(),
                l.samples());
        return l;
    }
}
