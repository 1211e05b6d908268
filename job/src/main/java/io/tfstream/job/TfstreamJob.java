package io.tfstream.job;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The job's main class for {@code flink run} (and the REST {@code /jars/.../run} call) on a
 * cluster: {@code [--config job.yaml] [--set key=value]...}, the same options as {@code tfstream
 * run}.
 */
public final class TfstreamJob {
    private TfstreamJob() {}

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
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(
                        JobLauncher.flinkConfiguration(job.config()));
        TfstreamPipeline.build(env, job.config(), job.schema());
        env.execute(job.config().get(JobOptions.JOB_NAME));
    }
}
