package io.tfstream.job;

import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.CheckpointConfig;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Checkpointing of the job: the cluster's configuration ({@code execution.checkpointing.*}, as the
 * environment was created with it) unless the job's {@code checkpoint.interval} is set. The
 * exactly-once sinks commit only when a checkpoint completes, so a job without checkpointing would
 * read forever and publish nothing: it is refused, as is at-least-once checkpointing.
 */
final class CheckpointSettings {
    private CheckpointSettings() {}

    /** Applies the job's interval, if set, to {@code env}; refuses checkpointing that is off. */
    static void apply(StreamExecutionEnvironment env, JobConfig config) {
        CheckpointConfig checkpoints = env.getCheckpointConfig();
        if (config.contains(JobOptions.CHECKPOINT_INTERVAL)) {
            env.enableCheckpointing(
                    config.get(JobOptions.CHECKPOINT_INTERVAL).toMillis(),
                    CheckpointingMode.EXACTLY_ONCE);
        } else if (!checkpoints.isCheckpointingEnabled()) {
            throw new JobConfigException(
                    "checkpointing is off: set checkpoint.interval, or the cluster's"
                            + " execution.checkpointing.interval. The exactly-once sinks commit"
                            + " their outputs only when a checkpoint completes.");
        }
        if (checkpoints.getCheckpointingConsistencyMode() != CheckpointingMode.EXACTLY_ONCE) {
            throw new JobConfigException(
                    "execution.checkpointing.mode is "
                            + checkpoints.getCheckpointingConsistencyMode()
                            + ": the job's sinks and state need EXACTLY_ONCE");
        }
    }
}
