package io.tfstream.e2e.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import io.tfstream.testkit.Waits;
import java.time.Duration;

/**
 * One job on the local cluster seen through Flink's REST API: its state, its completed checkpoints,
 * its restarts, and how long it takes to complete a checkpoint again after a fault.
 */
public final class JobWatch {
    private final LocalCluster cluster;
    private final String jobId;

    public JobWatch(LocalCluster cluster, String jobId) {
        this.cluster = cluster;
        this.jobId = jobId;
    }

    public String jobId() {
        return jobId;
    }

    /** RUNNING, RESTARTING, FINISHED, ... */
    public String state() {
        return cluster.rest("/jobs/" + jobId + "/status").get("status").asText();
    }

    public long completedCheckpoints() {
        return cluster.rest("/jobs/" + jobId + "/checkpoints")
                .get("counts")
                .get("completed")
                .asLong();
    }

    /** Waits until {@code n} more checkpoints than now have completed. */
    public void awaitCheckpoints(int n, Duration timeout) throws Exception {
        long target = completedCheckpoints() + n;
        Waits.waitFor(
                () -> completedCheckpoints() >= target,
                timeout,
                n + " more completed checkpoints of job " + jobId);
    }

    /**
     * Waits until a checkpoint triggered after {@code sinceMillis} (epoch ms) has completed, the
     * job's proof that it runs again with every task; returns the time from {@code sinceMillis} to
     * that checkpoint's last acknowledgement.
     */
    public Duration awaitRecovery(long sinceMillis, Duration timeout) throws Exception {
        long[] ack = new long[1];
        Waits.waitFor(
                () -> {
                    JsonNode latest;
                    try {
                        latest =
                                cluster.rest("/jobs/" + jobId + "/checkpoints")
                                        .path("latest")
                                        .path("completed");
                    } catch (IllegalStateException | java.io.UncheckedIOException e) {
                        return false; // a JobManager recovering the job answers with an error
                    }
                    if (latest.isMissingNode()
                            || latest.isNull()
                            || latest.get("trigger_timestamp").asLong() <= sinceMillis) {
                        return false;
                    }
                    ack[0] = latest.get("latest_ack_timestamp").asLong();
                    return true;
                },
                timeout,
                "a checkpoint of job " + jobId + " triggered after the fault");
        return Duration.ofMillis(ack[0] - sinceMillis);
    }

    /** How often the job has restarted (Flink's job metric {@code numRestarts}). */
    public long restarts() {
        JsonNode metrics = cluster.rest("/jobs/" + jobId + "/metrics?get=numRestarts");
        for (JsonNode m : metrics) {
            if (m.get("id").asText().equals("numRestarts")) {
                return m.get("value").asLong();
            }
        }
        throw new IllegalStateException("job " + jobId + " reports no numRestarts: " + metrics);
    }
}
