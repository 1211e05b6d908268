package io.tfstream.local;

import io.tfstream.job.EmbeddedCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;

/**
 * {@code tfstream local --next-schema FILE --next-schema-after N}: while the job runs (its source
 * unbounded), produces the first N records and waits until the job has read them and committed
 * their outputs, writes FILE over the schema file the job watches (in one step), waits two
 * checkpoints so that every parse subtask has taken it up (or refused it), produces the rest, and
 * once they are read too stops the job with a drain (every shard finished and committed). So the
 * first N records are parsed with the first schema and the rest with the new one.
 */
final class NextSchemaStep {
    private static final Duration TIMEOUT = Duration.ofMinutes(10);

    private final Path next;
    private final Path watched;
    private final long after;

    /**
     * @param next the file given with {@code --next-schema}
     * @param watched the schema file the job watches
     * @param after {@code --next-schema-after}
     */
    NextSchemaStep(Path next, Path watched, long after) {
        this.next = next;
        this.watched = watched;
        this.after = after;
    }

    /** Produces, switches and stops job {@code id}, as the class says. */
    void run(
            EmbeddedCluster cluster,
            JobID id,
            LocalInput input,
            LocalBroker broker,
            String topic,
            int partitions,
            String group,
            Path savepoints)
            throws Exception {
        int total = Math.toIntExact(input.items());
        int first = (int) Math.min(after, total);
        input.produce(broker, topic, partitions, 0, first);
        waitConsumed(cluster, id, broker, group, first);
        Path tmp = watched.resolveSibling("." + watched.getFileName() + ".next");
        Files.copy(next, tmp, StandardCopyOption.REPLACE_EXISTING);
        Files.move(
                tmp, watched, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        long seen = checkpoints(cluster, id);
        waitFor(cluster, id, () -> checkpoints(cluster, id) >= seen + 2, "two checkpoints");
        input.produce(broker, topic, partitions, first, total);
        waitConsumed(cluster, id, broker, group, total);
        cluster.miniCluster()
                .stopWithSavepoint(
                        id, savepoints.toUri().toString(), true, SavepointFormatType.CANONICAL)
                .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Waits until the job's group has committed {@code records} offsets in all. */
    private static void waitConsumed(
            EmbeddedCluster cluster, JobID id, LocalBroker broker, String group, long records)
            throws Exception {
        try (Admin admin = Admin.create(broker.properties())) {
            waitFor(
                    cluster,
                    id,
                    () -> {
                        long committed = 0;
                        for (OffsetAndMetadata m :
                                admin.listConsumerGroupOffsets(group)
                                        .partitionsToOffsetAndMetadata()
                                        .get()
                                        .values()) {
                            committed += m == null ? 0 : m.offset();
                        }
                        return committed >= records;
                    },
                    "the job to read " + records + " records");
        }
    }

    private static long checkpoints(EmbeddedCluster cluster, JobID id) throws Exception {
        var stats =
                cluster.miniCluster()
                        .getExecutionGraph(id)
                        .get(30, TimeUnit.SECONDS)
                        .getCheckpointStatsSnapshot();
        return stats == null ? 0 : stats.getCounts().getNumberOfCompletedCheckpoints();
    }

    private interface Condition {
        boolean holds() throws Exception;
    }

    /** Polls {@code c}; fails when the job ends first or after {@link #TIMEOUT}. */
    private static void waitFor(EmbeddedCluster cluster, JobID id, Condition c, String what)
            throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!c.holds()) {
            if (cluster.miniCluster()
                    .getJobStatus(id)
                    .get(30, TimeUnit.SECONDS)
                    .isGloballyTerminalState()) {
                return; // the job failed: its result says why
            }
            if (System.nanoTime() > deadline) {
                throw new LocalRun.JobFailedException(
                        "timed out after " + TIMEOUT + " waiting for " + what, null);
            }
            Thread.sleep(200);
        }
    }
}
