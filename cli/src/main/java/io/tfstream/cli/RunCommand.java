package io.tfstream.cli;

import io.tfstream.job.EmbeddedCluster;
import io.tfstream.job.JobConfig;
import io.tfstream.job.JobConfigException;
import io.tfstream.job.JobConfigFiles;
import io.tfstream.job.JobLauncher;
import io.tfstream.job.JobOptions;
import io.tfstream.job.JobSchemaRejectedException;
import io.tfstream.job.PrometheusEndpoint;
import io.tfstream.job.TfstreamPipeline;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tfstream run}: the streaming job on an embedded Flink cluster with the web UI. Ctrl-C
 * stops it with a final savepoint, so the exactly-once sinks commit everything read so far.
 */
@Command(
        name = "run",
        header = "Runs the streaming job on an embedded Flink cluster with the web UI.",
        mixinStandardHelpOptions = true,
        description = {
            "Runs the streaming job (Kafka -> batch-and-parse -> dead-letter and records topics) on"
                    + " an embedded Flink cluster with the web UI on rest.port.",
            "Ctrl-C stops it with a final savepoint (stop-with-savepoint: every sink commits what"
                    + " was read). Exit code 0 when stopped or finished, 2 for a bad configuration,"
                    + " 3 for a rejected schema, 4 when the job failed."
        })
final class RunCommand implements Callable<Integer> {
    private static final Duration STOP_TIMEOUT = Duration.ofMinutes(2);

    @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

    @Option(names = "--config", paramLabel = "job.yaml", description = "YAML file of job options.")
    private Path config;

    @Option(
            names = "--set",
            paramLabel = "key=value",
            description = "Sets one job option; repeatable; wins over --config.")
    private List<String> sets = new ArrayList<>();

    @Option(
            names = "--metrics-port",
            paramLabel = "PORT",
            description =
                    "Serve the job's and Flink's metrics for Prometheus at"
                            + " http://127.0.0.1:PORT/metrics while the job runs (Flink's"
                            + " Prometheus reporter on the embedded cluster; docs/operations.md).")
    private Integer metricsPort;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        JobLauncher.Prepared job;
        try {
            if (metricsPort != null) {
                // Before the checks that take time: a taken port is a usage error.
                PrometheusEndpoint.checkPort(metricsPort, "--metrics-port");
            }
            JobConfig jobConfig = JobConfig.of(JobConfigFiles.read(config, sets));
            for (String w : jobConfig.warnings()) {
                err.println("tfstream run: warning: " + w);
            }
            err.flush();
            job = JobLauncher.prepare(jobConfig);
        } catch (JobSchemaRejectedException e) {
            err.println("tfstream run: " + e.getMessage());
            return ExitCodes.SPEC_REJECTED;
        } catch (JobConfigException e) {
            err.println("tfstream run: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        int parallelism = job.config().get(JobOptions.PARALLELISM);
        int slots = parallelism > 0 ? parallelism : Runtime.getRuntime().availableProcessors();
        Configuration flink = EmbeddedCluster.configuration(job.config());
        if (metricsPort != null) {
            PrometheusEndpoint.enable(flink, metricsPort);
        }
        String savepoints =
                job.config().checkpointDir().isPresent()
                        ? job.config().checkpointDir().get()
                        : Files.createTempDirectory("tfstream-savepoints").toUri().toString();
        String name = job.config().get(JobOptions.JOB_NAME);
        try (EmbeddedCluster cluster =
                EmbeddedCluster.start(
                        job.config(), flink, job.config().get(JobOptions.REST_PORT), slots)) {
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.getExecutionEnvironment(flink);
            env.setParallelism(slots);
            TfstreamPipeline.build(env, job.config(), job.schema());
            JobID id = cluster.submit(env, name);
            out.println(
                    "tfstream run: job '"
                            + name
                            + "' ("
                            + id
                            + ") running at parallelism "
                            + slots
                            + "; web UI: "
                            + cluster.restAddress()
                            + (metricsPort == null
                                    ? ""
                                    : "; metrics: " + PrometheusEndpoint.url(metricsPort))
                            + "; Ctrl-C stops it with a savepoint");
            out.flush();
            AtomicBoolean stopRequested = new AtomicBoolean();
            CompletableFuture<Void> stopped = new CompletableFuture<>();
            StopSignals.onFirstSignal(
                    () -> {
                        stopRequested.set(true);
                        try {
                            stop(cluster, id, savepoints, out, err);
                        } finally {
                            stopped.complete(null);
                        }
                    });
            JobResult result = cluster.await(id);
            if (stopRequested.get()) {
                // The stop's report (savepoint path) comes before the command returns.
                stopped.get(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
            if (result.getSerializedThrowable().isPresent()) {
                Throwable cause =
                        result.getSerializedThrowable()
                                .get()
                                .deserializeError(getClass().getClassLoader());
                err.println("tfstream run: the job failed: " + cause);
                return ExitCodes.JOB_FAILED;
            }
            // Without an error a job either finished or was cancelled (words of Flink's
            // ApplicationStatus, which Flink 2.3 no longer reports).
            out.println(
                    "tfstream run: job "
                            + id
                            + " ended: "
                            + (result.isSuccess() ? "SUCCEEDED" : "CANCELED"));
            return ExitCodes.OK;
        }
    }

    private static void stop(
            EmbeddedCluster cluster, JobID id, String dir, PrintWriter out, PrintWriter err) {
        try {
            String path = cluster.stopWithSavepoint(id, dir, STOP_TIMEOUT);
            out.println("tfstream run: stopped with savepoint " + path);
            out.println(
                    "tfstream run: resume with --set "
                            + JobOptions.FLINK_PREFIX
                            + "execution.state-recovery.path="
                            + path);
            out.flush();
        } catch (Exception e) {
            err.println(
                    "tfstream run: stop-with-savepoint failed (" + e + "); the job is cancelled");
            err.flush();
            cluster.miniCluster().cancelJob(id);
        }
    }
}
