package io.tfstream.local;

import io.tfstream.job.EmbeddedCluster;
import io.tfstream.job.JobConfig;
import io.tfstream.job.JobOptions;
import io.tfstream.job.JobSchema;
import io.tfstream.job.KafkaStartupChecks;
import io.tfstream.job.PrometheusEndpoint;
import io.tfstream.job.TfstreamPipeline;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The streaming job on an embedded Flink cluster with the web UI: announces it, shows its progress
 * while it runs and returns once it has finished, that is once its final checkpoint has committed
 * every output.
 */
final class LocalJob {
    private final int parallelism;
    private final int restPort;
    private final Integer metricsPort;
    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean terminal;

    LocalJob(
            int parallelism,
            int restPort,
            Integer metricsPort,
            PrintWriter out,
            PrintWriter err,
            boolean terminal) {
        this.parallelism = parallelism;
        this.restPort = restPort;
        this.metricsPort = metricsPort;
        this.out = out;
        this.err = err;
        this.terminal = terminal;
    }

    /** Refuses a web UI port that is taken, before anything else is started. */
    static void checkPortFree(int port) {
        if (port == 0) {
            return;
        }
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("localhost", port));
        } catch (IOException e) {
            throw new LocalRun.UsageException(
                    "port "
                            + port
                            + " (the web UI) is in use: pass --rest-port with a free port, or 0"
                            + " for any");
        }
    }

    /**
     * Runs the job of {@code config} on {@code input} (described in the first line printed) to its
     * end; returns its completed checkpoints. A failed job is a {@link
     * LocalRun.JobFailedException}.
     */
    long run(JobConfig config, JobSchema schema, String input, long items) throws Exception {
        return run(config, schema, input, items, null);
    }

    /** While the job runs (unbounded then), what drives it to its end. */
    interface Driver {
        void drive(EmbeddedCluster cluster, JobID id) throws Exception;
    }

    /**
     * As {@link #run(JobConfig, JobSchema, String, long)}; with {@code driver}, the job's source is
     * unbounded and the driver produces its input and stops it.
     */
    long run(JobConfig config, JobSchema schema, String input, long items, Driver driver)
            throws Exception {
        for (String w : config.warnings()) {
            err.println("tfstream local: warning: " + w);
        }
        KafkaStartupChecks.check(config);
        Configuration flink = EmbeddedCluster.configuration(config);
        if (metricsPort != null) {
            PrometheusEndpoint.enable(flink, metricsPort);
        }
        try (EmbeddedCluster cluster =
                EmbeddedCluster.start(config, flink, restPort, parallelism)) {
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.getExecutionEnvironment(flink);
            env.setParallelism(parallelism);
            TfstreamPipeline.build(env, config, schema);
            JobID id = cluster.submit(env, config.get(JobOptions.JOB_NAME));
            URI ui = cluster.restAddress();
            out.println(
                    "tfstream local: "
                            + input
                            + "; job running at parallelism "
                            + parallelism
                            + "; web UI: "
                            + ui
                            + (metricsPort == null
                                    ? ""
                                    : "; metrics: " + PrometheusEndpoint.url(metricsPort)));
            out.flush();
            JobResult result;
            try (LocalProgress progress = new LocalProgress(ui, id, err, terminal, items)) {
                if (driver != null) {
                    driver.drive(cluster, id);
                }
                result = cluster.await(id);
                progress.finish();
            }
            if (result.getSerializedThrowable().isPresent()) {
                Throwable cause =
                        result.getSerializedThrowable()
                                .get()
                                .deserializeError(getClass().getClassLoader());
                throw new LocalRun.JobFailedException("the job failed: " + cause, cause);
            }
            var stats =
                    cluster.miniCluster()
                            .getArchivedExecutionGraph(id)
                            .get(30, TimeUnit.SECONDS)
                            .getCheckpointStatsSnapshot();
            return stats == null ? 0 : stats.getCounts().getNumberOfCompletedCheckpoints();
        }
    }
}
