package io.tfstream.e2e.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tfstream.e2e.cluster.JobWatch;
import io.tfstream.e2e.cluster.LocalCluster;
import io.tfstream.e2e.cluster.OutputAudit;
import io.tfstream.e2e.harness.HarnessSchemas;
import io.tfstream.job.shards.ShardRunChecks;
import io.tfstream.testkit.Waits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The soak: the full job (shards on S3 with bucket statistics, payloads, dead letters, validation
 * and window statistics) on the local cluster of {@code deploy/local/} for {@code
 * tfstream.soak.duration}, records produced at a steady rate, a fault every {@code
 * tfstream.soak.fault-every} cycling through {@code tfstream.soak.faults}, a checker comparing
 * every output with the input the whole time and resource figures sampled every minute; then a
 * drain, the audit and the report ({@code tfstream.soak.out}/report.md with PNG charts).
 *
 * <p>It fails on any record lost or duplicated, anything the checker saw besides records late
 * during a fault, a shard TensorFlow does not read back alike, a {@code _SUCCESS} marker that does
 * not list exactly the finished shards, checkpoints grown past 1.5× (+1 MB) their size in minutes
 * 2–4, a job that did not recover within 5 minutes of a fault, or an upload left after the cleanup
 * command. Runs only when {@code tfstream.soak.duration} is set ({@code deploy/local/soak}; {@code
 * .ci/run} runs 6 minutes after the warm-up).
 */
class SoakITCase {
    private static final String DURATION = System.getProperty("tfstream.soak.duration", "");
    private static final int RATE =
            Integer.parseInt(System.getProperty("tfstream.soak.rate", "200"));
    private static final String FAULTS =
            System.getProperty("tfstream.soak.faults", "tm,jm,broker,s3,zombie,rescale,slow-s3");
    private static final String EVERY = System.getProperty("tfstream.soak.fault-every", "70s");

    /**
     * Input without faults before minute 0: the statistics' sketch buffers (11 402 values per
     * feature) fill in about two minutes per subtask at 200 wide records a second, and the
     * checkpoints reach their steady size, against which minutes 2–4 judge growth.
     */
    private static final String WARM_UP = System.getProperty("tfstream.soak.warm-up", "2m");

    private static final String SHARDS = "s3://tfstream/soak-shards";

    @Test
    void soak() throws Exception {
        assumeTrue(!DURATION.isBlank(), "tfstream.soak.duration is not set");
        Duration duration = parse(DURATION);
        Duration every = parse(EVERY);
        List<SoakFaults.Kind> kinds = new ArrayList<>();
        for (String f : FAULTS.split(",")) {
            if (!f.isBlank() && !f.equals("none")) {
                kinds.add(SoakFaults.Kind.of(f));
            }
        }
        Path out = Path.of(System.getProperty("tfstream.soak.out", "target/soak")).toAbsolutePath();
        Files.createDirectories(out);
        Path state = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "soak-");
        Clock clock = Clock.systemUTC();

        LocalCluster cluster = LocalCluster.create(state);
        try (cluster;
                FaultProxy proxy =
                        new FaultProxy(
                                java.net.URI.create(cluster.s3Endpoint()).getPort(), 2_000)) {
            // every S3 request of the cluster (checkpoints, HA metadata, shards) through the proxy
            Path flinkYaml = state.resolve("soak-flink.yaml");
            Files.writeString(flinkYaml, "s3.endpoint: " + proxy.endpoint() + "\n");
            cluster.flinkConfig(flinkYaml);
            cluster.up(2);
            cluster.createTopics(
                    "in-soak:4", "batches-soak:2", "dlq-soak", "alerts-soak", "stats-soak");
            Path config = jobConfig(state, cluster);
            JobWatch first = new JobWatch(cluster, cluster.submit(config, 2));

            try (SoakProducer producer =
                            new SoakProducer(cluster.bootstrapServers(), "in-soak", RATE, clock);
                    SoakChecker checker =
                            new SoakChecker(
                                    producer,
                                    cluster.bootstrapServers(),
                                    "in-soak",
                                    "batches-soak",
                                    "dlq-soak",
                                    cluster.objects("tfstream").resolve("soak-shards"),
                                    clock)) {
                SoakFaults faults =
                        new SoakFaults(
                                cluster,
                                proxy,
                                config,
                                first,
                                2,
                                what -> checker.event("cluster", what));
                SoakSampler sampler =
                        new SoakSampler(
                                cluster,
                                () -> faults.job().jobId(),
                                "in-soak",
                                "soak",
                                () -> openUploads(cluster));
                producer.start();
                checker.start();
                faults.job().awaitCheckpoints(2, SoakFaults.RECOVERY_TIMEOUT);
                Thread.sleep(parse(WARM_UP).toMillis()); // the schedule, not a wait on state
                long start = clock.millis();
                ScheduledExecutorService minutes = Executors.newSingleThreadScheduledExecutor();
                minutes.scheduleAtFixedRate(
                        () -> {
                            sampler.sample();
                            checker.overdue();
                        },
                        0,
                        1,
                        TimeUnit.MINUTES);
                List<SoakFaults.Done> done = new ArrayList<>();
                long end = start + duration.toMillis();
                for (int k = 1; ; k++) {
                    long next = start + k * every.toMillis();
                    if (next >= end || kinds.isEmpty()) {
                        break;
                    }
                    long wait = next - clock.millis();
                    if (wait > 0) {
                        Thread.sleep(wait); // the fault schedule, not a wait on any state
                    }
                    SoakFaults.Kind kind = kinds.get((k - 1) % kinds.size());
                    System.out.println("[soak] fault " + k + ": " + kind.description);
                    done.add(faults.inflict(kind));
                    assertNull(producer.error(), "the producer failed");
                }
                long wait = end - clock.millis();
                if (wait > 0) {
                    Thread.sleep(wait);
                }
                faults.replaceDeadTaskManagers();
                long loadEnd = clock.millis();
                minutes.shutdownNow();

                // the drain: input stops, every record reaches the Kafka outputs, the job ends
                // with a savepoint that finishes every shard
                producer.stopAndFlush();
                Waits.waitFor(
                        () ->
                                checker.missing("payloads") == 0
                                        && checker.missing("dead letters") == 0,
                        Duration.ofMinutes(10),
                        "every record produced in the payloads and the dead letters");
                cluster.stopJob(faults.job().jobId(), true);
                List<String> checks = new ArrayList<>();
                String state1 = faults.job().state();
                checks.add("the job after the drain: " + state1);
                checker.awaitCaughtUp("batches-soak", "dlq-soak");
                List<SoakChecker.Tally> tallies = checker.tallies(producer.sent());
                List<SoakSampler.Sample> samples = new ArrayList<>(sampler.samples());
                samples.add(sampler.sample());

                String tensorFlow = readShardsWithTensorFlow(checker.shardsRead());
                checks.add(tensorFlow);
                String markers = markersListTheShards(cluster, checker.shardsRead());
                checks.add(markers);
                // the savepoint of the drain is no checkpoint of the running job
                List<SoakSampler.Sample> loadSamples = SoakReport.load(samples, loadEnd);
                String checkpoints = checkpointGrowth(loadSamples, start);
                checks.add(checkpoints);
                String trends = trendsFlat(loadSamples, duration);
                checks.add(trends);
                String uploads = cleanUploads(cluster);
                checks.add(uploads);
                List<SoakChecker.Event> events = checker.events();
                long unexpected =
                        events.stream().filter(e -> !e.what().contains(" unseen ")).count();
                checks.add(unexpected + " events besides records late during a fault");
                long notRecovered = done.stream().filter(d -> d.recovery() == null).count();
                checks.add(notRecovered + " faults without a checkpoint within 5 min");
                List<SoakSampler.Failure> failures = sampler.jobFailures();
                long outOfMemory =
                        failures.stream().filter(SoakSampler.Failure::outOfMemory).count();
                checks.add(outOfMemory + " job failures out of memory");

                Path report =
                        SoakReport.write(
                                new SoakReport.Run(
                                        String.format(
                                                Locale.ROOT,
                                                "Soak: %s on Flink %s, %d records/s, a fault every"
                                                        + " %s",
                                                SoakReport.duration(duration),
                                                cluster.flinkLine(),
                                                RATE,
                                                EVERY),
                                        command(),
                                        start,
                                        loadEnd,
                                        RATE,
                                        producer.sent(),
                                        producer.failedCount(),
                                        tallies,
                                        done,
                                        samples,
                                        events,
                                        failures,
                                        checks),
                                out);
                System.out.println("[soak] report: " + report);

                assertEquals("FINISHED", state1, "the job after the drain");
                for (SoakChecker.Tally t : tallies) {
                    assertTrue(t.exact(), t.toString());
                }
                assertEquals(0, unexpected, events.toString());
                assertEquals(0, notRecovered, done.toString());
                assertEquals(0, outOfMemory, "job failures out of memory: " + failures);
                assertTrue(checkpoints.startsWith("checkpoints flat"), checkpoints);
                assertFalse(trends.startsWith("rising"), trends);
                assertTrue(uploads.startsWith("0 uploads left"), uploads);
            }
        }
    }

    /** The job: everything on, shards on S3 rolled every minute, a checkpoint every 5 s. */
    private static Path jobConfig(Path state, LocalCluster cluster) throws Exception {
        Path schema = state.resolve("wide-schema.pbtxt");
        Files.writeString(schema, HarnessSchemas.wide());
        Path config = state.resolve("soak.yaml");
        Files.writeString(
                config,
                String.join(
                        "\n",
                        "job.name: soak",
                        "checkpoint.interval: 5 s",
                        "source:",
                        "  bootstrap-servers: " + cluster.bootstrapServers(),
                        "  topics: [in-soak]",
                        "  starting-offsets: earliest",
                        "  group-id: soak",
                        "schema.path: " + schema,
                        "batch.max-delay: 100 ms",
                        "dlq.topic: dlq-soak",
                        "output.batches.topic: batches-soak",
                        // longer than any outage the faults cause, JobManager's included
                        "output.transaction-timeout: 15 min",
                        "validation.enabled: true",
                        "validation.alerts-topic: alerts-soak",
                        "statistics.enabled: true",
                        "statistics.topic: stats-soak",
                        "shards.path: " + SHARDS,
                        "shards.max-age: 1 min",
                        "shards.statistics: true",
                        ""));
        return config;
    }

    private static long openUploads(LocalCluster cluster) {
        Matcher m =
                Pattern.compile(": (\\d+) incomplete uploads")
                        .matcher(
                                ShardRunChecks.uploads(
                                        SHARDS, cluster.s3Endpoint(), cluster.s3CredentialsFile()));
        if (!m.find()) {
            throw new IllegalStateException("no count of uploads");
        }
        return Long.parseLong(m.group(1));
    }

    /** TensorFlow's TFRecordReaderV2 reads every finished shard to the same records. */
    private static String readShardsWithTensorFlow(List<Path> shards) throws Exception {
        long records = 0;
        for (int i = 0; i < shards.size(); i++) {
            records += OutputAudit.readAlikeByTensorFlow(shards.get(i));
            if ((i + 1) % 100 == 0 || i + 1 == shards.size()) {
                // hundreds of shards after hours: the audit shows that it moves
                System.out.println(
                        "[soak] audit: TensorFlow read " + (i + 1) + " of " + shards.size());
            }
        }
        return "TensorFlow read " + shards.size() + " shards, " + records + " records, alike";
    }

    /** The {@code _SUCCESS} markers list every finished shard once, and nothing else. */
    private static String markersListTheShards(LocalCluster cluster, List<Path> shards)
            throws Exception {
        List<Path> listed =
                ShardRunChecks.listedShards(cluster.objects("tfstream").resolve("soak-shards"));
        assertEquals(listed.size(), new HashSet<>(listed).size(), "a shard listed twice");
        assertEquals(new HashSet<>(shards), new HashSet<>(listed), "the markers' shards");
        return "the _SUCCESS markers list the " + listed.size() + " finished shards exactly";
    }

    /** What may not trend upward over the second half of a run of an hour or more. */
    static final List<String> FLAT =
            List.of(
                    "checkpoint size (MB)",
                    "JobManager heap after GC (MB)",
                    "TaskManager heap after GC (MB, max)");

    /**
     * Checkpoint size and heap after GC over the second half of a run of at least an hour: a slope
     * of at most 5% of the mean per hour. A shorter half is too short to tell a trend from the
     * swing of one fault.
     */
    static String trendsFlat(List<SoakSampler.Sample> samples, Duration duration) {
        if (duration.compareTo(Duration.ofHours(1)) < 0) {
            return "trends not judged: the run is shorter than an hour";
        }
        List<String> rising = new ArrayList<>();
        List<String> flat = new ArrayList<>();
        for (SoakReport.Trend t : SoakReport.trends(samples)) {
            if (!FLAT.contains(t.figure())) {
                continue;
            }
            String one =
                    String.format(
                            Locale.ROOT,
                            "%s %+.1f%% of its mean an hour",
                            t.figure(),
                            t.percentOfMeanPerHour());
            (t.percentOfMeanPerHour() > 5 ? rising : flat).add(one);
        }
        if (flat.size() + rising.size() < FLAT.size()) {
            return "rising or unknown: too few samples of " + FLAT;
        }
        return (rising.isEmpty()
                        ? "flat over the second half (at most +5% of the mean an hour): "
                        : "rising over the second half (more than +5% of the mean an hour): ")
                + String.join(", ", rising.isEmpty() ? flat : rising);
    }

    /**
     * The median checkpoint size of the last three samples against the median over minutes 2–4: at
     * most 1.5× it, plus 1 MB.
     */
    static String checkpointGrowth(List<SoakSampler.Sample> samples, long start) {
        List<Double> early = new ArrayList<>();
        List<Double> all = new ArrayList<>();
        for (SoakSampler.Sample s : samples) {
            Double v = s.values().get("checkpoint size (MB)");
            if (v == null) {
                continue;
            }
            all.add(v);
            double minute = (s.atMillis() - start) / 60_000.0;
            if (minute >= 2 && minute <= 4) {
                early.add(v);
            }
        }
        if (early.isEmpty() || all.size() < 3) {
            return "checkpoint growth not judged: too few samples";
        }
        double base = SoakSampler.median(early);
        double last = SoakSampler.median(all.subList(all.size() - 3, all.size()));
        boolean flat = last <= 1.5 * base + 1;
        return String.format(
                Locale.ROOT,
                "checkpoints %s: median of the last three %.2f MB, of minutes 2–4 %.2f MB"
                        + " (limit 1.5× + 1 MB)",
                flat ? "flat" : "grew",
                last,
                base);
    }

    /** {@code tfstream shards uploads --older-than 0s --abort}, then nothing is left. */
    private static String cleanUploads(LocalCluster cluster) {
        String aborted =
                ShardRunChecks.uploads(
                        SHARDS,
                        cluster.s3Endpoint(),
                        cluster.s3CredentialsFile(),
                        "--older-than",
                        "0s",
                        "--abort");
        long left = openUploads(cluster);
        return left + " uploads left after the cleanup command (" + aborted.trim() + ")";
    }

    private static String command() {
        return String.format(
                Locale.ROOT,
                "deploy/local/soak --duration %s --rate %d --faults %s --fault-every %s"
                        + " --warm-up %s",
                DURATION,
                RATE,
                FAULTS,
                EVERY,
                WARM_UP);
    }

    /** {@code 90s}, {@code 10m}, {@code 15min}, {@code 2h}. */
    static Duration parse(String text) {
        Matcher m = Pattern.compile("(\\d+)\\s*(h|min|m|s)").matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a duration: " + text + " (90s, 10m, 2h)");
        }
        long n = Long.parseLong(m.group(1));
        switch (m.group(2)) {
            case "h":
                return Duration.ofHours(n);
            case "s":
                return Duration.ofSeconds(n);
            default:
                return Duration.ofMinutes(n);
        }
    }
}
