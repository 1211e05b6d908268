package io.tfstream.job;

import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;

/**
 * The one name of the checkpoint directory: Flink's {@code execution.checkpointing.dir}, given to
 * the job as {@code flink.execution.checkpointing.dir}. The job's older {@code checkpoint.dir} is
 * read as it (file-system storage, savepoints in the same directory unless set) with a warning; the
 * two given with different values are refused.
 */
final class CheckpointDir {
    private static final String STORAGE = "execution.checkpointing.storage";
    private static final String SAVEPOINT_DIR = "execution.checkpointing.savepoint-dir";

    /** The job's key of Flink's checkpoint directory. */
    private static final String JOB_KEY = JobOptions.FLINK_PREFIX + JobOptions.FLINK_CHECKPOINT_DIR;

    private CheckpointDir() {}

    /** Moves a deprecated {@code checkpoint.dir} of {@code options} into {@code flink}. */
    static void undeprecate(
            Configuration options, Map<String, String> flink, List<String> warnings) {
        if (!options.contains(JobOptions.CHECKPOINT_DIR)) {
            return;
        }
        String dir = options.get(JobOptions.CHECKPOINT_DIR);
        String given = flink.get(JobOptions.FLINK_CHECKPOINT_DIR);
        if (given != null && !given.equals(dir)) {
            throw new JobConfigException(
                    "checkpoint.dir ("
                            + dir
                            + ") and "
                            + JOB_KEY
                            + " ("
                            + given
                            + ") name two checkpoint directories: keep only the second");
        }
        warnings.add("checkpoint.dir is deprecated, use " + JOB_KEY + " (the same setting)");
        flink.put(JobOptions.FLINK_CHECKPOINT_DIR, dir);
        flink.putIfAbsent(STORAGE, "filesystem");
        flink.putIfAbsent(SAVEPOINT_DIR, dir);
        options.removeConfig(JobOptions.CHECKPOINT_DIR);
    }
}
