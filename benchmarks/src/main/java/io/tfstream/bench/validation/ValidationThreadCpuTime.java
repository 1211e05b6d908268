package io.tfstream.bench.validation;

import java.lang.management.ManagementFactory;

/**
 * The four operations of {@link ValidationBenchmark} timed by the calling thread's CPU time, a
 * steadier figure than JMH's wall clock on a machine shared with other work: after a warm-up, the
 * operations run interleaved round-robin, {@code rounds} samples of about 300 ms of thread CPU time
 * each, and the best sample per operation is printed as nanoseconds per record, with the bytes the
 * thread allocated per record (thread allocation counter).
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar
 * io.tfstream.bench.validation.ValidationThreadCpuTime [rounds]}
 */
public final class ValidationThreadCpuTime {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final long SAMPLE_NANOS = 300_000_000L;
    private static final long WARM_UP_NANOS = 3_000_000_000L;
    private static int sink;

    /** One batch. */
    interface Op {
        Object run() throws Exception;
    }

    private ValidationThreadCpuTime() {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        ValidationBenchmark b = new ValidationBenchmark();
        b.batch = 1024;
        b.setUp();
        b.newWindow();
        String[] names = {
            "parse",
            "validate",
            "parseAndValidate",
            "parseAndValidateColumns",
            "parseAndValidateColumnsWithStatistics",
            "bucketStatistics"
        };
        Op[] ops = {
            b::parse,
            b::validate,
            b::parseAndValidate,
            b::parseAndValidateColumns,
            b::parseAndValidateColumnsWithStatistics,
            b::bucketStatistics
        };
        int[] perSample = new int[ops.length];
        for (int o = 0; o < ops.length; o++) {
            long start = System.nanoTime();
            int reps = 0;
            while (System.nanoTime() - start < WARM_UP_NANOS) {
                sink += ops[o].run().hashCode();
                reps++;
            }
            perSample[o] = (int) Math.max(1, reps * SAMPLE_NANOS / WARM_UP_NANOS);
        }
        long[] best = new long[ops.length];
        long[] bytes = new long[ops.length];
        java.util.Arrays.fill(best, Long.MAX_VALUE);
        long id = Thread.currentThread().getId();
        for (int r = 0; r < rounds; r++) {
            for (int o = 0; o < ops.length; o++) {
                long a0 = THREADS.getThreadAllocatedBytes(id);
                long t0 = THREADS.getCurrentThreadCpuTime();
                for (int i = 0; i < perSample[o]; i++) {
                    sink += ops[o].run().hashCode();
                }
                long t = THREADS.getCurrentThreadCpuTime() - t0;
                if (t < best[o]) {
                    best[o] = t;
                    bytes[o] = THREADS.getThreadAllocatedBytes(id) - a0;
                }
            }
        }
        System.out.println("| operation | ns/record (thread CPU, best) | bytes allocated/record |");
        System.out.println("|---|---|---|");
        for (int o = 0; o < ops.length; o++) {
            double records = (double) perSample[o] * b.batch;
            System.out.printf(
                    "| %s | %.0f | %.1f |%n", names[o], best[o] / records, bytes[o] / records);
        }
        System.out.printf(
                "validation from the bytes adds %.0f%% to parse (parseAndValidate / parse - 1)%n",
                100.0 * (best[2] / (double) perSample[2]) / (best[0] / (double) perSample[0])
                        - 100);
        System.out.printf(
                "validation from the columns adds %.0f%% to parse"
                        + " (parseAndValidateColumns / parse - 1)%n",
                100.0 * (best[3] / (double) perSample[3]) / (best[0] / (double) perSample[0])
                        - 100);
        System.out.printf(
                "window statistics add %.0f%% to parse and validation from the columns%n",
                100.0 * (best[4] / (double) perSample[4]) / (best[3] / (double) perSample[3])
                        - 100);
        System.out.printf(
                "bucket statistics add %.0f%% to parse and validation from the columns%n",
                100.0 * (best[5] / (double) perSample[5]) / (best[3] / (double) perSample[3]));
        if (sink == 42) {
            System.out.println(sink);
        }
    }
}
