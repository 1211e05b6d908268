package io.tfstream.job;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;

/**
 * What every entry point does before the job graph is built: read and validate the settings, load
 * and check the schema, check the Kafka cluster, and compute the Flink settings the job runs with.
 */
public final class JobLauncher {
    private JobLauncher() {}

    /** A job ready to be built: validated settings and checked schema. */
    public record Prepared(JobConfig config, JobSchema schema) {}

    /** Reads {@code yaml} (may be null) and {@code sets}, and runs every start-up check. */
    public static Prepared prepare(Path yaml, List<String> sets) {
        return prepare(JobConfig.of(JobConfigFiles.read(yaml, sets)));
    }

    /**
     * Initialises Flink's file systems in this JVM with {@code flink} and the S3 credentials of
     * {@code config} ({@link S3Settings}), for a job run here; a cluster reads them from its own
     * configuration when it starts. The credentials go nowhere else: not into {@code flink}, which
     * the job graph carries.
     */
    public static void initializeFileSystems(JobConfig config, Configuration flink) {
        Configuration withCredentials = new Configuration(flink);
        S3Settings.applyCredentials(config, System.getenv(), withCredentials);
        initializeFileSystems(withCredentials);
    }

    /** Initialises Flink's file systems in this JVM with {@code flink}, credentials included. */
    static void initializeFileSystems(Configuration flink) {
        try {
            org.apache.flink.core.fs.FileSystem.initialize(flink, null);
        } catch (Exception e) {
            throw new JobConfigException(
                    "cannot initialise the file systems: " + e.getMessage(), e);
        }
    }

    /** Loads the schema of {@code config} and checks the Kafka cluster. */
    public static Prepared prepare(JobConfig config) {
        JobSchema schema = JobSchema.load(config);
        KafkaStartupChecks.check(config);
        return new Prepared(config, schema);
    }

    /**
     * The Flink settings of the job: the {@code flink.*} pass-through, no Kryo fallback for any
     * record type ({@code pipeline.generic-types: false}), the S3 endpoint and path style ({@link
     * S3Settings}, never credentials) and the checkpoint directory when set (a {@code flink.*}
     * setting, {@link CheckpointDir}).
     */
    public static Configuration flinkConfiguration(JobConfig config) {
        Configuration conf = new Configuration();
        for (Map.Entry<String, String> e : config.flinkSettings().entrySet()) {
            conf.setString(e.getKey(), e.getValue());
        }
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        conf.set(PipelineOptions.NAME, config.get(JobOptions.JOB_NAME));
        S3Settings.applyLocation(config, conf);
        return conf;
    }
}
