package io.tfstream.bench.parse;

import com.sun.management.OperatingSystemMXBean;
import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * A cross-check of the JMH parser results for shared machines: runs the implementations round-robin
 * on the same batch and keeps the smallest <em>process</em> CPU time of each (the TensorFlow kernel
 * runs on a session thread, so thread CPU time would miss it). Other processes competing for the
 * cores inflate wall-clock throughput but hardly this figure. Also reports the bytes the calling
 * thread allocates per example. Beside them, the physical limit ({@link WireWalk}: the framing
 * walked, every byte touched once); tfstream's time as a multiple of the walk's is its speed-up
 * column's inverse on the walk's row.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar
 * io.tfstream.bench.parse.ParseCpuTimeComparison [rounds [profile-substring [batch]]]}; without a
 * batch size, batches of 1, 128 and 1024 are measured.
 */
public final class ParseCpuTimeComparison {
    private static final OperatingSystemMXBean OS =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final String[] NAMES = {
        "tfstream", "tensorflow", "protobufJava", "copy", "walk"
    };

    /** One batch through one implementation. */
    interface Op {
        Object run() throws Exception;
    }

    private static final long SAMPLE_NANOS = 300_000_000L;
    private static int sink;

    private ParseCpuTimeComparison() {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        String only = args.length > 1 ? args[1] : "";
        int[] batches =
                args.length > 2 ? new int[] {Integer.parseInt(args[2])} : new int[] {1, 128, 1024};
        System.out.println(
                "| profile | batch | B/example | implementation | ns/example (CPU) | MB/s"
                        + " | tfstream speed-up | alloc B/example |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        for (ExampleProfile p : ExampleProfile.values()) {
            if (!p.name().contains(only)) {
                continue;
            }
            for (int batch : batches) {
                ExampleParseBenchmark b = new ExampleParseBenchmark();
                b.profile = p;
                b.batch = batch;
                b.setUp();
                ExampleParseBenchmark.TensorFlow tf = new ExampleParseBenchmark.TensorFlow();
                tf.setUp(b);
                ByteCounter c = new ByteCounter();
                Op[] ops = {
                    () -> b.tfstream(c),
                    () -> {
                        b.tensorflow(tf, c);
                        return tf;
                    },
                    () -> b.protobufJava(c),
                    () -> b.copy(c),
                    () -> b.walk(c)
                };
                report(p.name(), batch, b.serialized.totalBytes(), ops, rounds);
                tf.tearDown();
            }
        }
        if ("SEQUENCE".contains(only)) {
            for (int batch : batches) {
                SequenceParseBenchmark b = new SequenceParseBenchmark();
                b.batch = batch;
                b.setUp();
                SequenceParseBenchmark.TensorFlow tf = new SequenceParseBenchmark.TensorFlow();
                tf.setUp(b);
                ByteCounter c = new ByteCounter();
                Op[] ops = {
                    () -> b.tfstream(c),
                    () -> {
                        b.tensorflow(tf, c);
                        return tf;
                    },
                    () -> b.protobufJava(c),
                    () -> b.copy(c),
                    () -> b.walk(c)
                };
                report("SEQUENCE", batch, b.serialized.totalBytes(), ops, rounds);
                tf.tearDown();
            }
        }
        if (sink == 42) {
            System.out.println();
        }
    }

    private static void report(String profile, int batch, long bytes, Op[] ops, int rounds)
            throws Exception {
        int[] reps = new int[ops.length];
        for (int i = 0; i < ops.length; i++) {
            reps[i] = calibrate(ops[i]);
        }
        long[] best = bestCpuNanos(ops, reps, rounds);
        double base = best[0] / (double) reps[0];
        for (int i = 0; i < ops.length; i++) {
            double perOp = best[i] / (double) reps[i];
            System.out.printf(
                    "| %s | %d | %d | %s | %.0f | %.0f | %.2f× | %d |%n",
                    profile,
                    batch,
                    bytes / batch,
                    NAMES[i],
                    perOp / batch,
                    bytes / perOp * 1e3,
                    perOp / base,
                    allocatedBytes(ops[i]) / batch);
        }
    }

    /**
     * Ops per sample so that a sample takes about {@link #SAMPLE_NANOS}: process CPU time ticks
     * every 10 ms on Linux.
     */
    private static int calibrate(Op op) throws Exception {
        int n = 0;
        long start = System.nanoTime();
        while (System.nanoTime() - start < 2 * SAMPLE_NANOS) {
            sink += op.run().hashCode();
            n++;
        }
        n = 0;
        start = System.nanoTime();
        while (System.nanoTime() - start < SAMPLE_NANOS / 4) {
            sink += op.run().hashCode();
            n++;
        }
        return Math.max(1, n * 4);
    }

    /** Round-robin after warm-up rounds; the best process CPU time of a sample of each op. */
    private static long[] bestCpuNanos(Op[] ops, int[] reps, int rounds) throws Exception {
        long[] best = new long[ops.length];
        Arrays.fill(best, Long.MAX_VALUE);
        for (int round = -2; round < rounds; round++) {
            for (int i = 0; i < ops.length; i++) {
                long start = OS.getProcessCpuTime();
                for (int r = 0; r < reps[i]; r++) {
                    sink += ops[i].run().hashCode();
                }
                long cpu = OS.getProcessCpuTime() - start;
                if (round >= 0) {
                    best[i] = Math.min(best[i], cpu);
                }
            }
        }
        return best;
    }

    /** Bytes the calling thread allocates for one op (TensorFlow's native memory is not seen). */
    private static long allocatedBytes(Op op) throws Exception {
        long id = Thread.currentThread().getId();
        long start = THREADS.getThreadAllocatedBytes(id);
        sink += op.run().hashCode();
        return THREADS.getThreadAllocatedBytes(id) - start;
    }
}
