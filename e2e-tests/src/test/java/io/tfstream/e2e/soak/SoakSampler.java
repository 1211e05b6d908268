package io.tfstream.e2e.soak;

import com.fasterxml.jackson.databind.JsonNode;
import io.tfstream.e2e.cluster.LocalCluster;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The soak's resource figures, taken once a minute: what must stay flat however long the job runs
 * and however often it fails. A figure that cannot be read at that moment (the JobManager down, the
 * broker restarting) is left out of that sample rather than guessed.
 */
final class SoakSampler {
    /** One minute's figures, by name; {@code atMillis} is epoch ms. */
    record Sample(long atMillis, Map<String, Double> values) {}

    /** A failure of the job as Flink's exception history holds it: when, and its root cause. */
    record Failure(long atMillis, String rootCause) {
        boolean outOfMemory() {
            // Flink's serializers turn an OutOfMemoryError into "... exceeds JVM heap space"
            return rootCause.contains("OutOfMemoryError") || rootCause.contains("heap space");
        }
    }

    /** The figures, in the order the report shows them. */
    static final List<String> FIGURES =
            List.of(
                    "checkpoint size (MB)",
                    "checkpoint duration (s)",
                    "consumer lag (records)",
                    "records consumed a second",
                    "TaskManagers registered",
                    "JobManager heap after GC (MB)",
                    "TaskManager heap after GC (MB, max)",
                    "JobManager threads",
                    "TaskManager threads (max)",
                    "JobManager open files",
                    "TaskManager open files (max)",
                    "open uploads",
                    "Flink work files",
                    "Flink work (MB)",
                    "checkpoint files");

    /**
     * A collection in a unified GC log: {@code [..][170.342s] GC(362) Pause .. 219M->183M(288M)}.
     */
    private static final Pattern HEAP_AFTER =
            Pattern.compile("\\[(\\d+(?:\\.\\d+)?)s\\] GC\\(\\d+\\) .*->(\\d+)M\\(\\d+M\\)");

    private final LocalCluster cluster;
    private final Supplier<String> jobId;
    private final String inputTopic;
    private final String groupId;
    private final LongSupplier openUploads;
    private final List<Sample> samples = new ArrayList<>();
    private final Map<String, Failure> failures = new LinkedHashMap<>();
    private long lastCommitted = -1;
    private long lastCommittedAt;

    SoakSampler(
            LocalCluster cluster,
            Supplier<String> jobId,
            String inputTopic,
            String groupId,
            LongSupplier openUploads) {
        this.cluster = cluster;
        this.jobId = jobId;
        this.inputTopic = inputTopic;
        this.groupId = groupId;
        this.openUploads = openUploads;
    }

    /**
     * The job's failures seen so far. Each JobManager keeps its own history, so they are collected
     * every minute and a failover loses at most the last minute's.
     */
    synchronized List<Failure> jobFailures() {
        return List.copyOf(failures.values());
    }

    synchronized List<Sample> samples() {
        return List.copyOf(samples);
    }

    /** Takes one sample now. */
    Sample sample() {
        Map<String, Double> v = new LinkedHashMap<>();
        quietly("checkpoint figures", () -> checkpoint(v));
        quietly("offsets", () -> offsets(v));
        quietly("job failures", this::failures);
        quietly(
                "TaskManagers registered",
                () ->
                        v.put(
                                "TaskManagers registered",
                                (double) cluster.rest("/taskmanagers").get("taskmanagers").size()));
        quietly("process figures", () -> processes(v));
        quietly("open uploads", () -> v.put("open uploads", (double) openUploads.getAsLong()));
        Path work = cluster.stateDir().resolve("flink").resolve("work");
        quietly("Flink work files", () -> v.put("Flink work files", (double) files(work)));
        quietly("Flink work (MB)", () -> v.put("Flink work (MB)", bytes(work) / 1e6));
        quietly(
                "checkpoint files",
                () ->
                        v.put(
                                "checkpoint files",
                                (double)
                                        files(
                                                cluster.objects("tfstream")
                                                        .resolve("flink")
                                                        .resolve("checkpoints"))));
        Sample s = new Sample(System.currentTimeMillis(), v);
        synchronized (this) {
            samples.add(s);
        }
        return s;
    }

    /**
     * The median size and duration of the completed checkpoints in Flink's history (the last ten,
     * 50 s at one every 5 s): one checkpoint's size depends on where in its minute the shard part
     * being uploaded is, the median over the minute does not.
     */
    private void checkpoint(Map<String, Double> v) {
        JsonNode history = cluster.rest("/jobs/" + jobId.get() + "/checkpoints").path("history");
        List<Double> sizes = new ArrayList<>();
        List<Double> durations = new ArrayList<>();
        for (JsonNode c : history) {
            if (!"COMPLETED".equals(c.path("status").asText())) {
                continue;
            }
            JsonNode size =
                    c.has("checkpointed_size") ? c.get("checkpointed_size") : c.get("state_size");
            sizes.add(size.asLong() / 1e6);
            durations.add(c.path("end_to_end_duration").asLong() / 1e3);
        }
        if (!sizes.isEmpty()) {
            v.put("checkpoint size (MB)", median(sizes));
            v.put("checkpoint duration (s)", median(durations));
        }
    }

    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get((sorted.size() - 1) / 2);
    }

    private void failures() {
        JsonNode entries =
                cluster.rest("/jobs/" + jobId.get() + "/exceptions?maxExceptions=100")
                        .path("exceptionHistory")
                        .path("entries");
        synchronized (this) {
            for (JsonNode e : entries) {
                long at = e.path("timestamp").asLong();
                String trace = e.path("stacktrace").asText("");
                failures.putIfAbsent(
                        at + " " + e.path("taskName").asText(""),
                        new Failure(at, rootCause(trace)));
            }
        }
    }

    /** The last {@code Caused by:} line of a stack trace, or its first line. */
    static String rootCause(String trace) {
        String cause = trace.lines().findFirst().orElse("").trim();
        for (String line : trace.lines().toList()) {
            if (line.startsWith("Caused by: ")) {
                cause = line.substring("Caused by: ".length()).trim();
            }
        }
        return cause.length() > 200 ? cause.substring(0, 200) + "…" : cause;
    }

    /**
     * The consumer lag (the input's end offsets less the job's committed offsets) and the records
     * the job consumed a second since the last sample: at a rate above what the job sustains, the
     * lag grows and the consumed rate is the job's maximum.
     */
    private void offsets(Map<String, Double> v) throws Exception {
        long[] endAndCommitted = endAndCommittedOffsets();
        long now = System.currentTimeMillis();
        v.put("consumer lag (records)", (double) (endAndCommitted[0] - endAndCommitted[1]));
        synchronized (this) {
            if (lastCommitted >= 0 && now > lastCommittedAt) {
                v.put(
                        "records consumed a second",
                        (endAndCommitted[1] - lastCommitted) * 1000.0 / (now - lastCommittedAt));
            }
            lastCommitted = endAndCommitted[1];
            lastCommittedAt = now;
        }
    }

    /** An admin client that gives up within 10 s while the broker is down. */
    static Properties adminSettings(String bootstrapServers) {
        Properties p = new Properties();
        p.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        // the API timeout may not be below the request timeout (30 s by default), or the client
        // refuses to start
        p.setProperty(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        p.setProperty(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
        return p;
    }

    /** The input's end offsets and the job's committed offsets, each summed over the partitions. */
    private long[] endAndCommittedOffsets() throws Exception {
        try (Admin admin = Admin.create(adminSettings(cluster.bootstrapServers()))) {
            Map<TopicPartition, OffsetAndMetadata> committed =
                    admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata().get();
            Map<TopicPartition, OffsetSpec> latest = new LinkedHashMap<>();
            int partitions =
                    admin.describeTopics(List.of(inputTopic))
                            .allTopicNames()
                            .get()
                            .get(inputTopic)
                            .partitions()
                            .size();
            for (int i = 0; i < partitions; i++) {
                latest.put(new TopicPartition(inputTopic, i), OffsetSpec.latest());
            }
            long[] sums = {0, 0};
            for (var e : admin.listOffsets(latest).all().get().entrySet()) {
                OffsetAndMetadata c = committed.get(e.getKey());
                sums[0] += e.getValue().offset();
                sums[1] += c == null ? 0 : c.offset();
            }
            return sums;
        }
    }

    /** Heap after GC, threads and open files of the JobManager and the live TaskManagers. */
    private void processes(Map<String, Double> v) throws IOException {
        Path pids = cluster.stateDir().resolve("pids");
        Path logs = cluster.stateDir().resolve("logs");
        double[] tm = {-1, -1, -1};
        try (Stream<Path> files = Files.list(pids)) {
            for (Path f : files.toList()) {
                String role = f.getFileName().toString().replace(".pid", "");
                boolean jm = role.equals("jobmanager");
                if (!jm && !role.startsWith("taskmanager-")) {
                    continue;
                }
                String pid = Files.readString(f).trim();
                Path proc = Path.of("/proc", pid);
                if (!cmdline(proc).contains(cluster.stateDir().toString())) {
                    continue; // not running
                }
                double heap = heapAfterGc(logs.resolve(role + ".gc.log"));
                double threads = threads(proc);
                double fds = files(proc.resolve("fd"));
                if (jm) {
                    if (heap >= 0) {
                        v.put("JobManager heap after GC (MB)", heap);
                    }
                    v.put("JobManager threads", threads);
                    v.put("JobManager open files", fds);
                } else {
                    tm[0] = Math.max(tm[0], heap);
                    tm[1] = Math.max(tm[1], threads);
                    tm[2] = Math.max(tm[2], fds);
                }
            }
        }
        if (tm[0] >= 0) {
            v.put("TaskManager heap after GC (MB, max)", tm[0]);
        }
        if (tm[1] >= 0) {
            v.put("TaskManager threads (max)", tm[1]);
            v.put("TaskManager open files (max)", tm[2]);
        }
    }

    private static String cmdline(Path proc) {
        try {
            return new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * The lowest heap after a collection in the last minute of a JVM's GC log, or -1: the heap
     * after one young collection still holds old garbage (183 MB, then 130 MB after the mixed
     * collection a second later), the lowest of the minute is the closest to what is live.
     */
    static double heapAfterGc(Path gcLog) {
        if (!Files.isRegularFile(gcLog)) {
            return -1;
        }
        try (RandomAccessFile f = new RandomAccessFile(gcLog.toFile(), "r")) {
            long from = Math.max(0, f.length() - 262_144);
            byte[] tail = new byte[(int) (f.length() - from)];
            f.seek(from);
            f.readFully(tail);
            Matcher m = HEAP_AFTER.matcher(new String(tail, StandardCharsets.UTF_8));
            List<double[]> collections = new ArrayList<>();
            while (m.find()) {
                collections.add(
                        new double[] {
                            Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2))
                        });
            }
            if (collections.isEmpty()) {
                return -1;
            }
            double lastUptime = collections.get(collections.size() - 1)[0];
            double lowest = Double.MAX_VALUE;
            for (double[] c : collections) {
                if (c[0] >= lastUptime - 60) {
                    lowest = Math.min(lowest, c[1]);
                }
            }
            return lowest;
        } catch (IOException e) {
            return -1;
        }
    }

    private static double threads(Path proc) throws IOException {
        for (String line : Files.readAllLines(proc.resolve("status"))) {
            if (line.startsWith("Threads:")) {
                return Double.parseDouble(line.substring(8).trim());
            }
        }
        return -1;
    }

    /** Regular files (or, under /proc/PID/fd, descriptors) below {@code dir}; 0 if it is absent. */
    static long files(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(
                            p ->
                                    !p.equals(dir)
                                            && !Files.isDirectory(
                                                    p, java.nio.file.LinkOption.NOFOLLOW_LINKS))
                    .count();
        } catch (java.io.UncheckedIOException e) {
            return Files.list(dir).count(); // a file removed during the walk
        }
    }

    /** Bytes of the regular files below {@code dir}. */
    static long bytes(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        long[] total = {0};
        Files.walkFileTree(
                dir,
                new java.nio.file.SimpleFileVisitor<>() {
                    @Override
                    public java.nio.file.FileVisitResult visitFile(
                            Path file, java.nio.file.attribute.BasicFileAttributes a) {
                        total[0] += a.isRegularFile() ? a.size() : 0;
                        return java.nio.file.FileVisitResult.CONTINUE;
                    }

                    @Override
                    public java.nio.file.FileVisitResult visitFileFailed(Path file, IOException e) {
                        return java.nio.file.FileVisitResult.CONTINUE; // removed meanwhile
                    }
                });
        return total[0];
    }

    private interface Read {
        void run() throws Exception;
    }

    /** Reads a figure; one that cannot be read now is left out of this sample, and said why. */
    private static void quietly(String figure, Read r) {
        try {
            r.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception | AssertionError unavailableNow) {
            System.out.println("[soak] sample: no " + figure + " now: " + unavailableNow);
        }
    }
}
