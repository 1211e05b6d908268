package io.tfstream.bench;

import io.tfstream.tfrecord.Compression;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * A cross-check of the JMH results for shared machines: runs the same benchmark methods, in
 * alternation, and reports the smallest thread CPU time (user + system) of each over many runs.
 * Other processes competing for the cores inflate wall-clock throughput but hardly this figure, so
 * the ratios stay meaningful when the JMH error bars are wide. Not a substitute for JMH on a quiet
 * machine.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar io.tfstream.bench.CpuTimeComparison
 * [runs]}
 */
public final class CpuTimeComparison {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private interface Op {
        long run() throws Exception;
    }

    private static long sink;

    private CpuTimeComparison() {}

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        System.out.println(
                "| operation (one file, 8 MiB of record data) | record | CPU ms (best) |");
        System.out.println("|---|---|---|");
        for (int size : new int[] {100, 1024}) {
            RawFileChannelBenchmark raw = new RawFileChannelBenchmark();
            raw.recordSize = size;
            raw.setUp();
            for (Compression c : new Compression[] {Compression.NONE, Compression.GZIP}) {
                TfRecordWriteBenchmark write = new TfRecordWriteBenchmark();
                write.recordSize = size;
                write.compression = c;
                write.setUp();
                TfRecordReadBenchmark read = new TfRecordReadBenchmark();
                read.recordSize = size;
                read.compression = c;
                read.setUp();
                int n = c == Compression.NONE ? runs : Math.max(3, runs / 5);
                Op[] ops = {
                    raw::write,
                    raw::writeSeparateArrays,
                    write::tfstream,
                    write::beamTfRecordIoSink,
                    raw::read,
                    read::tfstream
                };
                String[] names = {
                    "raw FileChannel write (uncompressed)",
                    "raw write of the records as separate arrays, no CRC",
                    "tfstream write " + c,
                    "Beam TFRecordIO.sink() write " + c,
                    "raw FileChannel read (uncompressed)",
                    "tfstream read " + c
                };
                long[] best = bestCpuNanos(ops, n);
                for (int i = 0; i < ops.length; i++) {
                    System.out.printf("| %s | %d B | %.2f |%n", names[i], size, best[i] / 1e6);
                }
                write.tearDown();
                read.tearDown();
            }
            raw.tearDown();
        }
        if (sink == 42) {
            System.out.println();
        }
    }

    /** Runs the operations round-robin {@code n} times after a warm-up; best CPU time of each. */
    private static long[] bestCpuNanos(Op[] ops, int n) throws Exception {
        long[] best = new long[ops.length];
        java.util.Arrays.fill(best, Long.MAX_VALUE);
        for (int round = -3; round < n; round++) {
            for (int i = 0; i < ops.length; i++) {
                long start = THREADS.getCurrentThreadCpuTime();
                sink += ops[i].run();
                long cpu = THREADS.getCurrentThreadCpuTime() - start;
                if (round >= 0) {
                    best[i] = Math.min(best[i], cpu);
                }
            }
        }
        return best;
    }
}
