package io.tfstream.bench.convert;

import io.tfstream.bench.parse.ExampleProfile;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * {@link ConversionBenchmark}'s paths timed by the calling thread's CPU time, interleaved round by
 * round, so that a busy shared machine moves all of them alike: records per second of thread CPU
 * (best round) for the Example path, for JSON and Avro converted to Examples and parsed, and for
 * JSON and Avro decoded straight into the parser's columns, with their ratio to the Example path.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar
 * io.tfstream.bench.convert.ConversionThreadCpuTime [rounds]}
 */
public final class ConversionThreadCpuTime {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final long SAMPLE_NANOS = 300_000_000L;
    private static int sink;

    interface Op {
        Object run() throws Exception;
    }

    private ConversionThreadCpuTime() {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        System.out.println(
                "| profile | example records/s | json → Example + parse (ratio)"
                        + " | avro → Example + parse (ratio) | json → columns (ratio)"
                        + " | avro → columns (ratio) |");
        System.out.println("|---|---|---|---|---|---|");
        for (ExampleProfile p :
                new ExampleProfile[] {ExampleProfile.SEED001, ExampleProfile.WIDE}) {
            ConversionBenchmark b = new ConversionBenchmark();
            b.profile = p;
            b.batch = 1024;
            b.setUp();
            Op[] ops = {b::example, b::json, b::avro, b::jsonColumns, b::avroColumns};
            int[] perSample = new int[ops.length];
            for (int k = 0; k < ops.length; k++) {
                perSample[k] = warmUp(ops[k]);
            }
            long[] best = new long[ops.length];
            java.util.Arrays.fill(best, Long.MAX_VALUE);
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < ops.length; k++) {
                    long t0 = THREADS.getCurrentThreadCpuTime();
                    for (int i = 0; i < perSample[k]; i++) {
                        sink += ops[k].run().hashCode();
                    }
                    best[k] = Math.min(best[k], THREADS.getCurrentThreadCpuTime() - t0);
                }
            }
            double[] rate = new double[ops.length];
            for (int k = 0; k < ops.length; k++) {
                rate[k] = perSample[k] * (double) b.batch / (best[k] / 1e9);
            }
            StringBuilder row =
                    new StringBuilder("| " + p.name() + String.format(" | %.0f", rate[0]));
            for (int k = 1; k < ops.length; k++) {
                row.append(String.format(" | %.0f (%.0f%%)", rate[k], 100 * rate[k] / rate[0]));
            }
            System.out.println(row.append(" |"));
        }
        if (sink == 42) {
            System.out.println();
        }
    }

    /** Warms {@code op} up for 2 s of wall time; returns the batches of a 300 ms sample. */
    private static int warmUp(Op op) throws Exception {
        long start = System.nanoTime();
        int reps = 0;
        while (System.nanoTime() - start < 2_000_000_000L) {
            sink += op.run().hashCode();
            reps++;
        }
        return (int) Math.max(1, reps * SAMPLE_NANOS / 2_000_000_000L);
    }
}
