package io.tfstream.testkit;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;

/**
 * The Flink MiniCluster the ITCases run their jobs on, and what they ask it. Needs Flink's test
 * utilities on the classpath (the modules with Flink have them; this module's Flink dependencies
 * are optional, so that the Flink-free modules' tests do not get Flink).
 */
public final class MiniClusters {
    private MiniClusters() {}

    /**
     * Whether this build is of the Flink 1.20 line (the build passes {@code tfstream.flink.line}).
     */
    public static boolean onFlink120() {
        return "1.20".equals(System.getProperty("tfstream.flink.line"));
    }

    /**
     * A MiniCluster of one TaskManager with {@code slots} slots (register it with
     * {@code @RegisterExtension}).
     */
    public static MiniClusterExtension oneTaskManager(int slots) {
        return new MiniClusterExtension(
                new MiniClusterResourceConfiguration.Builder()
                        .setNumberTaskManagers(1)
                        .setNumberSlotsPerTaskManager(slots)
                        .build());
    }

    /**
     * Cancels every job on the shared {@code cluster} that is not finished yet and waits until all
     * are: a test that failed half-way (or left a job behind) must not hold the slots the next
     * test's jobs need. Says which job it cancelled, so a leak is visible in the test output.
     */
    public static void cancelUnfinishedJobs(MiniCluster cluster) throws Exception {
        for (var job : cluster.listJobs().get(1, TimeUnit.MINUTES)) {
            if (!job.getJobState().isGloballyTerminalState()) {
                System.out.println(
                        "[test] cancelling job "
                                + job.getJobName()
                                + " ("
                                + job.getJobId()
                                + "), left "
                                + job.getJobState());
                try {
                    cluster.cancelJob(job.getJobId()).get(1, TimeUnit.MINUTES);
                } catch (ExecutionException finishedMeanwhile) {
                    // it ended on its own since the listing
                }
            }
        }
        Waits.waitFor(
                () ->
                        cluster.listJobs().get().stream()
                                .allMatch(j -> j.getJobState().isGloballyTerminalState()),
                Duration.ofMinutes(2),
                "every job on the test cluster to end");
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
