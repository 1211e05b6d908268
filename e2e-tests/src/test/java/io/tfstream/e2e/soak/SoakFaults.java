package io.tfstream.e2e.soak;

import io.tfstream.e2e.cluster.JobWatch;
import io.tfstream.e2e.cluster.LocalCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;

/**
 * The faults the soak inflicts, one at a time, on the local cluster and the running job. Each
 * returns its recovery time: from the fault (a kill) or from the service's return (an outage) to
 * the last acknowledgement of the first checkpoint triggered after it, the job's proof that every
 * task runs again.
 */
final class SoakFaults {
    /** The kinds of fault, by the names {@code --faults} takes. */
    enum Kind {
        TM("a TaskManager killed (kill -9), a new one started"),
        JM("the JobManager killed (kill -9) and started again"),
        BROKER("the broker killed (kill -9), started 5 s later"),
        S3("S3Proxy killed (kill -9), started 10 s later"),
        ZOMBIE("a TaskManager stalled (SIGSTOP) past the heartbeat timeout, then continued"),
        RESCALE("stop with a savepoint, resumed at the other parallelism (2 ↔ 3)"),
        SLOW_S3("S3 slow (2 s a request) for 40 s, then 503 SlowDown 15 s, then resets 10 s");

        final String description;

        Kind(String description) {
            this.description = description;
        }

        String flag() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        static Kind of(String flag) {
            for (Kind k : values()) {
                if (k.flag().equals(flag.trim())) {
                    return k;
                }
            }
            throw new IllegalArgumentException(
                    "unknown fault " + flag + " (tm, jm, broker, s3, zombie, rescale, slow-s3)");
        }
    }

    /** One fault done: when, and how long the job took to checkpoint again (null: not in time). */
    record Done(Kind kind, long atMillis, Duration recovery) {}

    static final Duration RECOVERY_TIMEOUT = Duration.ofMinutes(5);

    private final LocalCluster cluster;
    private final FaultProxy s3;
    private final java.util.function.Consumer<String> events;
    private final Path config;
    private final Deque<Integer> taskManagers = new ArrayDeque<>(List.of(1, 2));
    private volatile JobWatch job;
    private int parallelism;

    SoakFaults(
            LocalCluster cluster,
            FaultProxy s3,
            Path config,
            JobWatch job,
            int parallelism,
            java.util.function.Consumer<String> events) {
        this.cluster = cluster;
        this.s3 = s3;
        this.events = events;
        this.config = config;
        this.job = job;
        this.parallelism = parallelism;
    }

    /** The running job (a rescale replaces it). */
    JobWatch job() {
        return job;
    }

    Done inflict(Kind kind) throws Exception {
        replaceDeadTaskManagers();
        long at = System.currentTimeMillis();
        long from = at;
        switch (kind) {
            case TM:
                cluster.killTaskManager(taskManagers.removeFirst());
                taskManagers.addLast(cluster.startTaskManager());
                break;
            case JM:
                cluster.killJobManager();
                cluster.startJobManager();
                break;
            case BROKER:
                cluster.killBroker();
                Thread.sleep(5_000); // an outage, not a restart: a schedule, not a wait on state
                from = System.currentTimeMillis();
                cluster.startBroker();
                break;
            case S3:
                cluster.killS3Proxy();
                Thread.sleep(10_000);
                from = System.currentTimeMillis();
                cluster.startS3Proxy();
                break;
            case ZOMBIE:
                return zombie(at);
            case RESCALE:
                String savepoint = cluster.stopJob(job.jobId(), false);
                parallelism = parallelism == 2 ? 3 : 2;
                job = new JobWatch(cluster, cluster.submit(config, parallelism, savepoint));
                break;
            case SLOW_S3:
                s3.mode(FaultProxy.Mode.SLOW);
                Thread.sleep(40_000);
                s3.mode(FaultProxy.Mode.SLOW_DOWN);
                Thread.sleep(15_000);
                s3.mode(FaultProxy.Mode.RESET);
                Thread.sleep(10_000);
                from = System.currentTimeMillis();
                s3.mode(FaultProxy.Mode.PASS);
                break;
            default:
                throw new IllegalArgumentException(kind.toString());
        }
        return new Done(kind, at, recovery(from));
    }

    /**
     * The oldest TaskManager stalled: its tasks fail over to a new one, then it continues as a
     * zombie, and is killed unless Flink ended it, so that the cluster keeps two TaskManagers.
     */
    private Done zombie(long at) throws Exception {
        int zombie = taskManagers.removeFirst();
        cluster.pauseTaskManager(zombie);
        taskManagers.addLast(cluster.startTaskManager());
        Duration recovery = recovery(at);
        cluster.resumeTaskManager(zombie);
        try {
            job.awaitCheckpoints(1, RECOVERY_TIMEOUT);
        } finally {
            if (cluster.taskManagerAlive(zombie)) {
                cluster.killTaskManager(zombie);
            }
        }
        return new Done(Kind.ZOMBIE, at, recovery);
    }

    /**
     * A TaskManager that ended by itself (Flink ends one on a fatal error) is an event of the run,
     * and replaced, so that the run goes on with the capacity it had.
     */
    void replaceDeadTaskManagers() {
        for (Integer tm : List.copyOf(taskManagers)) {
            if (!cluster.taskManagerAlive(tm)) {
                events.accept("TaskManager " + tm + " ended by itself (see its log); replaced");
                taskManagers.remove(tm);
                taskManagers.addLast(cluster.startTaskManager());
            }
        }
    }

    private Duration recovery(long from) throws Exception {
        try {
            return job.awaitRecovery(from, RECOVERY_TIMEOUT);
        } catch (AssertionError notInTime) {
            System.out.println("[soak] no checkpoint within " + RECOVERY_TIMEOUT + " of the fault");
            return null;
        }
    }
}
