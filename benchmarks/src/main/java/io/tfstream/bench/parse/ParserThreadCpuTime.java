package io.tfstream.bench.parse;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The tfstream parsers alone, timed by the calling thread's CPU time: a quick and steady figure for
 * comparing two versions of the parser on a busy machine, where JMH's wall-clock scores move by
 * ±50%. Each profile is warmed up, then the best of {@code rounds} samples of about 300 ms of
 * thread CPU time is printed as nanoseconds per example. Not a comparison with TensorFlow (see
 * {@link ParseCpuTimeComparison}).
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar
 * io.tfstream.bench.parse.ParserThreadCpuTime [rounds [batch [profile-substring]]]}
 */
public final class ParserThreadCpuTime {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final long SAMPLE_NANOS = 300_000_000L;
    private static final long WARM_UP_NANOS = 3_000_000_000L;
    private static int sink;

    /** One batch through the parser. */
    interface Op {
        Object run() throws Exception;
    }

    private ParserThreadCpuTime() {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int batch = args.length > 1 ? Integer.parseInt(args[1]) : 1024;
        String only = args.length > 2 ? args[2] : "";
        System.out.println("| profile | batch | tfstream ns/example (thread CPU, best) |");
        System.out.println("|---|---|---|");
        ByteCounter counter = new ByteCounter();
        for (ExampleProfile p : ExampleProfile.values()) {
            if (p.name().contains(only)) {
                ExampleParseBenchmark b = new ExampleParseBenchmark();
                b.profile = p;
                b.batch = batch;
                b.setUp();
                report(p.name(), batch, () -> b.tfstream(counter), rounds);
            }
        }
        if ("SEQUENCE".contains(only)) {
            SequenceParseBenchmark b = new SequenceParseBenchmark();
            b.batch = batch;
            b.setUp();
            report("SEQUENCE", batch, () -> b.tfstream(counter), rounds);
        }
        if (sink == 42) {
            System.out.println(counter.bytes);
        }
    }

    private static void report(String profile, int batch, Op op, int rounds) throws Exception {
        long start = System.nanoTime();
        int reps = 0;
        while (System.nanoTime() - start < WARM_UP_NANOS) {
            sink += op.run().hashCode();
            reps++;
        }
        int perSample = (int) Math.max(1, reps * SAMPLE_NANOS / WARM_UP_NANOS);
        long best = Long.MAX_VALUE;
        for (int r = 0; r < rounds; r++) {
            long t0 = THREADS.getCurrentThreadCpuTime();
            for (int i = 0; i < perSample; i++) {
                sink += op.run().hashCode();
            }
            best = Math.min(best, THREADS.getCurrentThreadCpuTime() - t0);
        }
        System.out.printf(
                "| %s | %d | %.0f |%n", profile, batch, best / (double) perSample / batch);
    }
}
