package io.tfstream.job;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job's main class for {@code flink run} (and the REST {@code /jars/.../run} call) on a
 * cluster: {@code [--config job.yaml] [--set key=value]...}, the same options as {@code tfstream
 * run}.
 */
public final class TfstreamJob {
    private static final Logger LOG = LoggerFactory.getLogger(TfstreamJob.class);

    private TfstreamJob() {}

    /**
     * The options given that a cluster does not take from the job: its web UI port is its own, and
     * its S3 file system (checkpoints, savepoints, an s3:// file source) reads the cluster's {@code
     * s3.*} keys when each process starts; the job's {@code s3.*} reach only tfstream's own S3
     * shard writer.
     */
    static List<String> clusterWarnings(JobConfig config) {
        List<String> w = new ArrayList<>();
        if (config.contains(JobOptions.REST_PORT)) {
            w.add("rest.port applies to tfstream run only; a cluster's web UI has its own port");
        }
        for (var o : List.of(JobOptions.S3_ENDPOINT, JobOptions.S3_CREDENTIALS_FILE)) {
            if (config.contains(o)) {
                w.add(
                        o.key()
                                + " reaches tfstream's S3 shard writer only; on a cluster, Flink's"
                                + " S3 file system (checkpoints, savepoints, an s3:// file source)"
                                + " takes the cluster's own s3.* configuration");
            }
        }
        return w;
    }

    public static void main(String[] args) throws Exception {
        Path yaml = null;
        List<String> sets = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if ((a.equals("--config") || a.equals("--set")) && i + 1 == args.length) {
                throw new JobConfigException(a + " needs a value");
            }
            if (a.equals("--config")) {
                yaml = Path.of(args[++i]);
            } else if (a.equals("--set")) {
                sets.add(args[++i]);
            } else if (a.startsWith("--set=")) {
                sets.add(a.substring("--set=".length()));
            } else if (a.startsWith("--config=")) {
                yaml = Path.of(a.substring("--config=".length()));
            } else {
                throw new JobConfigException(
                        "unknown argument '"
                                + a
                                + "'; usage: [--config job.yaml] [--set key=value]...");
            }
        }
        JobLauncher.Prepared job = JobLauncher.prepare(yaml, sets);
        for (String w : clusterWarnings(job.config())) {
            LOG.warn("job configuration: {}", w);
        }
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(
                        JobLauncher.flinkConfiguration(job.config()));
        TfstreamPipeline.build(env, job.config(), job.schema());
        env.execute(job.config().get(JobOptions.JOB_NAME));
    }
}
