package io.tfstream.job;

import java.time.Duration;
import org.apache.flink.api.common.JobID;
import org.apache.flink.runtime.minicluster.MiniCluster;

/** Waiting and checkpoint counting shared by the job's ITCases and the e2e tests. */
public final class JobTestSupport {
    private JobTestSupport() {}

    /** A condition polled until it holds. */
    public interface Condition {
        boolean holds() throws Exception;
    }

    /** Polls {@code c} every 200 ms; fails naming {@code what} after {@code timeout}. */
    public static void waitFor(Condition c, Duration timeout, String what) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!c.holds()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(200);
        }
    }

    /** Completed checkpoints of job {@code id} so far. */
    public static long completedCheckpoints(MiniCluster cluster, JobID id) {
        try {
            var stats = cluster.getExecutionGraph(id).get().getCheckpointStatsSnapshot();
            return stats == null ? 0 : stats.getCounts().getNumberOfCompletedCheckpoints();
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the job's checkpoint statistics", e);
        }
    }
}
