package io.tfstream.job;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A Flink cluster inside this JVM with its REST API and web UI ({@code tfstream run}): one
 * TaskManager with enough slots for the job's parallelism, its listeners on loopback ({@link
 * LoopbackListeners}).
 */
public final class EmbeddedCluster implements AutoCloseable {
    private final MiniCluster cluster;

    private EmbeddedCluster(MiniCluster cluster) {
        this.cluster = cluster;
    }

    /**
     * The Flink configuration of a job on the embedded cluster: the job's ({@link
     * JobLauncher#flinkConfiguration}) with this cluster's own default of a checkpoint every {@link
     * JobOptions#DEFAULT_CHECKPOINT_INTERVAL}, as a cluster's config.yaml would set it; the job's
     * {@code checkpoint.interval} or {@code flink.execution.checkpointing.interval} win.
     */
    public static Configuration configuration(JobConfig config) {
        Configuration conf = JobLauncher.flinkConfiguration(config);
        if (!conf.contains(CheckpointingOptions.CHECKPOINTING_INTERVAL)) {
            conf.set(
                    CheckpointingOptions.CHECKPOINTING_INTERVAL,
                    JobOptions.DEFAULT_CHECKPOINT_INTERVAL);
        }
        return conf;
    }

    /**
     * Starts a cluster on {@code restPort} (0: any free port) with {@code slots} slots, and
     * initialises this JVM's file systems for the job of {@code config} ({@link
     * JobLauncher#initializeFileSystems}, after the cluster's own start, which initialises them
     * with the cluster's configuration: the S3 credentials stay out of that, and so out of the web
     * UI).
     */
    public static EmbeddedCluster start(
            JobConfig config, Configuration flink, int restPort, int slots) throws Exception {
        EmbeddedCluster cluster = start(flink, restPort, slots);
        try {
            JobLauncher.initializeFileSystems(config, flink);
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    /**
     * Starts a cluster on {@code restPort} (0: any free port) with {@code slots} slots; this JVM's
     * file systems get the cluster's configuration, without any job's S3 credentials.
     */
    public static EmbeddedCluster start(Configuration flink, int restPort, int slots)
            throws Exception {
        Configuration conf = LoopbackListeners.apply(new Configuration(flink));
        conf.set(RestOptions.PORT, restPort);
        MiniCluster c =
                new MiniCluster(
                        new MiniClusterConfiguration.Builder()
                                .setConfiguration(conf)
                                .setNumTaskManagers(1)
                                .setNumSlotsPerTaskManager(slots)
                                .build());
        c.start();
        return new EmbeddedCluster(c);
    }

    /** The web UI and REST address. */
    public URI restAddress() throws Exception {
        return cluster.getRestAddress().get(30, TimeUnit.SECONDS);
    }

    /** Submits the job built on {@code env}. */
    public JobID submit(StreamExecutionEnvironment env, String name) throws Exception {
        var graph = env.getStreamGraph();
        graph.setJobName(name);
        return cluster.submitJob(graph.getJobGraph(getClass().getClassLoader(), null))
                .get(60, TimeUnit.SECONDS)
                .getJobID();
    }

    /** Waits for the job to end. */
    public JobResult await(JobID job) throws Exception {
        return cluster.requestJobResult(job).get();
    }

    /**
     * Stops the job with a final savepoint in {@code dir} (the sinks commit what the savepoint
     * covers); returns the savepoint's path.
     */
    public String stopWithSavepoint(JobID job, String dir, Duration timeout) throws Exception {
        return cluster.stopWithSavepoint(job, dir, false, SavepointFormatType.CANONICAL)
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    public MiniCluster miniCluster() {
        return cluster;
    }

    @Override
    public void close() {
        try {
            cluster.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while closing the embedded cluster", e);
        } catch (Exception e) {
            throw new IllegalStateException("closing the embedded cluster failed: " + e, e);
        }
    }
}
