package io.tfstream.job;

import io.tfstream.testkit.MiniClusters;
import io.tfstream.testkit.TestFiles;
import io.tfstream.testkit.Waits;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Starting the pipeline, waiting and checkpoint counting shared by the job's ITCases and the e2e
 * tests.
 */
public final class JobTestSupport {
    private JobTestSupport() {}

    /**
     * Waits until consumer group {@code group} has committed the end offset of every partition of
     * {@code topic}: the job has read all of its input and a checkpoint after that completed. A
     * stop with drain before then would end the source short of the input's end.
     */
    public static void waitForConsumed(
            String bootstrapServers, String group, String topic, Duration timeout)
            throws Exception {
        Map<String, Object> conf =
                Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        try (Admin admin = Admin.create(conf)) {
            Map<TopicPartition, OffsetSpec> latest = new LinkedHashMap<>();
            admin.describeTopics(List.of(topic))
                    .allTopicNames()
                    .get()
                    .get(topic)
                    .partitions()
                    .forEach(
                            p ->
                                    latest.put(
                                            new TopicPartition(topic, p.partition()),
                                            OffsetSpec.latest()));
            Map<TopicPartition, Long> ends = new LinkedHashMap<>();
            admin.listOffsets(latest)
                    .all()
                    .get()
                    .forEach((tp, info) -> ends.put(tp, info.offset()));
            // the last committed offsets go into the timeout's text: nothing committed and a
            // group lagging behind are different failures
            Map<TopicPartition, Long> last = new LinkedHashMap<>();
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!reached(admin, group, ends, last)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError(
                            "timed out waiting for group "
                                    + group
                                    + " to commit the end of "
                                    + topic
                                    + ": ends "
                                    + ends
                                    + ", committed "
                                    + last);
                }
                Thread.sleep(200);
            }
        }
    }

    /**
     * The settings every failure ITCase starts from: parallelism 2, checkpoints every 500 ms, the
     * input read from the earliest offset, short batches, and a restart strategy that keeps
     * retrying while a killed TaskManager is replaced.
     */
    public static Map<String, Object> failureTestSettings(
            String name, String bootstrapServers, String inputTopic, Path spec, String dlqTopic) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("job.name", name);
        m.put("parallelism", 2);
        m.put("checkpoint.interval", "500 ms");
        m.put("source.bootstrap-servers", bootstrapServers);
        m.put("source.topics", List.of(inputTopic));
        m.put("source.starting-offsets", "earliest");
        m.put("spec.path", spec.toString());
        m.put("batch.max-delay", "100 ms");
        m.put("dlq.topic", dlqTopic);
        m.put("output.transaction-timeout", "2 min");
        m.put("flink.restart-strategy.type", "fixed-delay");
        m.put("flink.restart-strategy.fixed-delay.attempts", "1000");
        m.put("flink.restart-strategy.fixed-delay.delay", "200 ms");
        return m;
    }

    /**
     * {@link #failureTestSettings} of input {@code <name>-in} and dead letters {@code <name>-dlq},
     * with records up to 256 bytes and shards under {@code shardsPath} kept open across checkpoints
     * (1 h max age, 1 GB target): they close with their bucket, or at the drain.
     */
    public static Map<String, Object> openShardSettings(
            String name, String bootstrapServers, Path spec, String shardsPath) {
        Map<String, Object> m =
                failureTestSettings(name, bootstrapServers, name + "-in", spec, name + "-dlq");
        m.put("parse.max-record-bytes", "256 b");
        m.put("shards.path", shardsPath);
        m.put("shards.max-age", "1 h");
        m.put("shards.target-size", "1 gb");
        return m;
    }

    /** The start of the whole UTC hour {@code hours} hours before now, in epoch milliseconds. */
    public static long hoursAgo(int hours) {
        return java.time.Instant.now()
                .truncatedTo(java.time.temporal.ChronoUnit.HOURS)
                .minus(hours, java.time.temporal.ChronoUnit.HOURS)
                .toEpochMilli();
    }

    /**
     * Starts {@code tfstream run}'s pipeline of job options {@code settings} on the MiniCluster of
     * the test (its file systems initialized, as the launcher does) under job name {@code name}.
     */
    public static JobClient startPipeline(Map<String, Object> settings, String name)
            throws Exception {
        return startPipeline(JobLauncher.prepare(JobConfig.of(settings)), name);
    }

    /** Starts the pipeline of prepared job {@code job}, as {@link #startPipeline(Map, String)}. */
    public static JobClient startPipeline(JobLauncher.Prepared job, String name) throws Exception {
        Configuration flink = JobLauncher.flinkConfiguration(job.config());
        JobLauncher.initializeFileSystems(job.config(), flink);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
        TfstreamPipeline.build(env, job.config(), job.schema());
        return env.executeAsync(name);
    }

    /**
     * The environment with the job's pipeline of options {@code settings} built into it, as the
     * embedded cluster configures it (nothing started: for looking at the graph).
     */
    public static StreamExecutionEnvironment builtPipeline(Map<String, Object> settings)
            throws Exception {
        JobConfig config = JobConfig.of(settings);
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(
                        EmbeddedCluster.configuration(config));
        TfstreamPipeline.build(env, config, JobSchema.load(config));
        return env;
    }

    /**
     * Whether {@code group} has committed {@code ends}; its committed offsets go into {@code last}.
     */
    private static boolean reached(
            Admin admin,
            String group,
            Map<TopicPartition, Long> ends,
            Map<TopicPartition, Long> last)
            throws Exception {
        Map<TopicPartition, OffsetAndMetadata> committed =
                admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
        last.clear();
        committed.forEach((tp, c) -> last.put(tp, c == null ? null : c.offset()));
        for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
            Long c = last.get(e.getKey());
            if (c == null || c < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    /**
     * For a failure text: each job's status, failure, and checkpoint counts with the latest failed
     * checkpoint's cause, as the embedded cluster reports them.
     */
    public static String jobsState(MiniCluster cluster, JobClient... jobs) {
        StringBuilder out = new StringBuilder();
        for (JobClient j : jobs) {
            out.append(j.getJobID()).append(": ");
            try {
                var graph = cluster.getExecutionGraph(j.getJobID()).get();
                out.append(graph.getState());
                var failure = graph.getFailureInfo();
                if (failure != null) {
                    out.append(", failure ").append(failure.getExceptionAsString());
                }
                var stats = graph.getCheckpointStatsSnapshot();
                if (stats != null) {
                    var counts = stats.getCounts();
                    out.append(", checkpoints completed ")
                            .append(counts.getNumberOfCompletedCheckpoints())
                            .append(" failed ")
                            .append(counts.getNumberOfFailedCheckpoints())
                            .append(" in progress ")
                            .append(counts.getNumberOfInProgressCheckpoints());
                    var failed = stats.getHistory().getLatestFailedCheckpoint();
                    if (failed != null && failed.getFailureMessage() != null) {
                        out.append(", last failed: ").append(failed.getFailureMessage());
                    }
                    var done = stats.getHistory().getLatestCompletedCheckpoint();
                    if (done != null) {
                        out.append(", last completed #").append(done.getCheckpointId());
                    }
                }
            } catch (Exception e) {
                out.append("unknown (").append(e).append(')');
            }
            out.append("; ");
        }
        return out.toString();
    }

    /** File name endings of TFRecord shards, uncompressed, gzip and zlib. */
    private static final List<String> SHARD_SUFFIXES =
            List.of(".tfrecord", ".tfrecord.gz", ".tfrecord.zz");

    /**
     * The finished TFRecord shards under {@code base}, found by what readers rely on rather than by
     * the sink's naming: visible files (no name on the way from {@code base} starting with '.' or
     * '_', as Flink's, Spark's and Hadoop's listers skip them) ending in .tfrecord, .tfrecord.gz or
     * .tfrecord.zz. Manifests ({@code *.manifest.json}) beside shards (the inline layout) are
     * skipped; any other visible file fails the call, since readers would take it for data.
     */
    public static List<Path> finishedShards(Path base) throws java.io.IOException {
        List<Path> shards = new java.util.ArrayList<>();
        for (Path p : TestFiles.regularFiles(base)) {
            String name = p.getFileName().toString();
            if (TestFiles.hidden(base.relativize(p)) || name.endsWith(".manifest.json")) {
                continue;
            }
            if (SHARD_SUFFIXES.stream().noneMatch(name::endsWith)) {
                throw new AssertionError("a visible file that is not a shard: " + p);
            }
            shards.add(p);
        }
        return shards;
    }

    /**
     * Waits until job {@code job} has open shards under {@code path} (prefix {@code part}) and
     * three more checkpoints persisted them: a savepoint taken then holds open shards.
     */
    public static void awaitOpenShards(MiniCluster cluster, JobClient job, String path)
            throws Exception {
        Waits.waitFor(
                () ->
                        !io.tfstream.operators.shards.store.Leftovers.listFiles(path, "part")
                                .isEmpty(),
                Duration.ofMinutes(2),
                "open shards");
        awaitMoreCheckpoints(cluster, job, 3);
    }

    /** Waits until job {@code job} has completed {@code more} checkpoints after this call. */
    public static void awaitMoreCheckpoints(MiniCluster cluster, JobClient job, int more)
            throws Exception {
        long seenAt = MiniClusters.completedCheckpoints(cluster, job.getJobID());
        Waits.waitFor(
                () -> MiniClusters.completedCheckpoints(cluster, job.getJobID()) >= seenAt + more,
                Duration.ofMinutes(2),
                more + " more checkpoints");
    }
}
